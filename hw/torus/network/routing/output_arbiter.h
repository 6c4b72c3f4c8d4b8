// Output arbitration: which of the packets that may take an output right now gets it.
// Chosen by name (torus.network.arbitration). The router calls the arbiter when the output's
// link is free and at least one requester is eligible (its VC has the tokens it needs, the
// bubble rule included). High-priority-VC packets are arbitrated before all others by the
// router itself, so the arbiters see one priority class at a time.
//
// Starvation bound (both arbiters): a request that has waited longer than the bound at this
// router is served before every request that has not, oldest first. An in-transit packet that
// has starved because it would enter the escape VC's ring (the bubble rule needs two packets of
// room) also holds that ring's entry: the router then grants no other entering packet on that
// VC until it is in, so only continuing ring traffic (which the bubble rule must never block)
// can pass it. Injection FIFO heads do not hold entries: at saturation they are meant to wait
// (in-transit priority is the network's back-pressure on its sources).
//
//  age (default)      packets already in the network before packets from the injection FIFOs
//                     (in-transit priority: a saturated network throttles injection instead of
//                     filling up), the oldest in-transit packet (injection time) first, the
//                     injection FIFOs in turn (so a short control packet in one FIFO does not
//                     wait behind every older packet of the others).
//  round_robin        all inputs alike, in turn from the one after the last winner.
#pragma once
#include <cstdint>

#include "hw/torus/network/routing/policy_list.h"

namespace hs::torus {

struct ArbRequest {
  uint8_t slot;               // router input (link input VC or injection FIFO)
  bool injection;             // from an injection FIFO
  bool starved;               // waited past the starvation bound
  uint64_t injected_ps;       // when the packet entered the network
  uint64_t waiting_since_ps;  // when its head became ready at this router
};

class OutputArbiter {
 public:
  virtual ~OutputArbiter() = default;
  virtual const char* name() const = 0;
  virtual const char* summary() const = 0;
  // Index into requests[0..n), n >= 1, ordered by slot. `pointer` is the output's round-robin
  // state (the slot after the last winner).
  virtual int pick(const ArbRequest* requests, int n, uint8_t& pointer) const = 0;
};

const PolicyList<OutputArbiter>& output_arbiters();

}  // namespace hs::torus
