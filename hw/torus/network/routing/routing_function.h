// Routing functions: the outputs a packet at the head of a router input may request next.
// Chosen by name (torus.network.routing); `hybridsim params` lists the names.
//
// Rules every routing function keeps, which the router relies on:
//  - Minimal: every candidate direction shortens the packet's route by one hop.
//  - Escape: every packet has exactly one escape candidate, its dimension-order direction
//    (x, then y, then z) on the bubble escape VC (the high-priority VC for high-priority
//    packets). Dimension order on rings guarded by the bubble rule is deadlock free, and a
//    packet can always request its escape output, so candidates added on the dynamic VCs
//    cannot deadlock the network (Duato's condition for virtual cut-through).
//  - A packet that has taken the escape VC stays on it to its destination (as in this model of
//    Blue Gene/P: the dynamic VCs are not re-entered), so the escape network drains by itself.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/torus/network/routing/policy_list.h"
#include "hw/torus/network/torus_packet.h"
#include "hw/torus/network/torus_shape.h"

namespace hs::torus {

struct Route {
  uint8_t dynamic_dirs = 0;  // bit d: direction d on any dynamic VC
  int8_t escape_dir = -1;    // dimension-order direction (escape or high-priority VC)
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  virtual const char* name() const = 0;
  // One line for the parameter's description.
  virtual const char* summary() const = 0;
  // Candidates for packet `p` at `node`, which is not its destination.
  virtual Route route(const TorusShape& shape, int node, const Packet& p) const = 0;
};

// "deterministic": dimension order on the bubble escape VC only, whatever VC class the
// packet asks for (a deterministic network has no dynamic VCs to offer).
// "adaptive" (Blue Gene/P): packets of the dynamic class request every minimal direction on
// the dynamic VCs and their dimension-order direction on the escape VC; deterministic-class
// and escaped packets request the escape VC only.
const PolicyList<RoutingFunction>& routing_functions();

}  // namespace hs::torus
