// Torus link faults that are not transient: a link that fails for good (parameter
// torus.network.failed_links), and the report of the traffic a failed link leaves stuck.
//
// Syntax of failed_links: entries separated by ',', each NODE:DIR[@TIME], where NODE is the
// sending node's name x<X>y<Y>z<Z> (as in parameter paths, e.g. torus.x1y0z0.dma), DIR one of
// +x -x +y -y +z -z, and TIME the failure time in ns (default 0: failed from the start).
// "x1y0z0:+x" fails the link from (1,0,0) to (2,0,0); "x0y0z0:-y@5000" fails that one at 5 us.
// A link that does not exist (a mesh's edge, a dimension of size 1) or is listed twice is
// refused, as is anything malformed, naming the parameter and the entry.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/torus/network/torus_packet.h"
#include "hw/torus/network/torus_shape.h"
#include "tlm/fault/fault_streams.h"

namespace hs::torus {

struct FailedLink {
  int node;      // the sending end
  int dir;       // its output
  double at_ns;  // when it fails
};

// "x1y0z0" for node (1,0,0); "x1y0z0:+x" for its +x link.
std::string node_label(const TorusShape& shape, int node);
std::string link_label(const TorusShape& shape, int node, int dir);
// "x1y0z0#17": the 17th packet (from 0) node (1,0,0) injected.
std::string packet_label(const TorusShape& shape, const Packet& p);

// Parses failed_links (syntax above); throws InputError naming `param` and the bad entry.
std::vector<FailedLink> parse_failed_links(const std::string& text, const TorusShape& shape,
                                           const std::string& param);

// Numbered traversals to corrupt (torus.network.link_crc_error_at): entries separated by ',',
// each N (the Nth packet on every link) or LINK#N (the Nth on that link, LINK as in
// failed_links). Each link numbers its own traversals from 1 (a retransmission is one), so the
// numbers do not depend on what other links carry. Streams are numbered node * kDirs + dir.
// Throws InputError naming `param` and the bad entry.
FaultStreams::Listed parse_link_events(const std::string& text, const TorusShape& shape,
                                       const std::string& param);

// Packets from one source to one destination waiting in one router queue, and what the head
// of that queue waits for.
struct StuckTraffic {
  int src, dest, node;
  std::string queue;      // "link input from x0y0z0 (+x), escape VC", "injection FIFO 2"
  std::string waits_for;  // "failed link x1y0z0:+x", "buffer tokens on +y"
  uint32_t packets;
};

// One line per group ("3 packets x0y0z0->x2y0z0 at x1y0z0 link input ... waiting for ..."),
// at most `max` lines, then how many more; and the whole list as JSON.
std::string describe_stuck(const TorusShape& shape, const std::vector<StuckTraffic>& stuck,
                           size_t max);
nlohmann::json stuck_json(const TorusShape& shape, const std::vector<StuckTraffic>& stuck);

}  // namespace hs::torus
