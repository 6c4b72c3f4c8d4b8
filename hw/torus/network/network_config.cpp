#include "hw/torus/network/network_config.h"

#include <fmt/format.h>
#include <algorithm>

#include "hw/torus/network/routing/output_arbiter.h"
#include "hw/torus/network/routing/output_selection.h"
#include "hw/torus/network/routing/routing_function.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::torus {

NetworkConfig NetworkConfig::declare(const std::string& prefix) {
  ParamScope p(prefix);
  NetworkConfig c;
  const Range dims = Range::between(1, 128);
  c.x = static_cast<int>(p.integer("x", c.x, "nodes", "torus size along x", dims));
  c.y = static_cast<int>(p.integer("y", c.y, "nodes", "torus size along y", dims));
  c.z = static_cast<int>(p.integer("z", c.z, "nodes", "torus size along z", dims));
  c.wrap = p.flag("wrap", c.wrap, "wrap-around links on every axis (false: a mesh)");
  c.link_bytes_per_second = p.real("link_rate", c.link_bytes_per_second, "B/s",
                                   "link rate per direction", Range::between(1e6, 1e12));
  c.wire_latency_ns = p.real("wire_latency", c.wire_latency_ns, "ns",
                             "a packet head across one link: wire, serialiser and deserialiser",
                             Range::between(0, 1e6));
  c.router_latency_ns =
      p.real("router_latency", c.router_latency_ns, "ns",
             "a packet head through a transit router (input buffer, route, arbitration, "
             "crossbar); the source and destination routers do not add it",
             Range::between(0, 1e6));
  c.injection_fill_rate =
      p.real("injection_fill_rate", c.injection_fill_rate, "B/s",
             "rate the injection FIFO is written at; a packet leaves only once all of it is in",
             Range::between(1e6, 1e12));
  c.credit_latency_ns =
      p.real("credit_latency", c.credit_latency_ns, "ns",
             "delay before a freed buffer's tokens reach the sender", Range::between(0, 1e6));
  c.vc_buffer_chunks = static_cast<uint32_t>(
      p.integer("vc_buffer", c.vc_buffer_chunks, "chunks",
                "input buffer per virtual channel in 32-byte chunks; the bubble rule needs two "
                "full-size packets",
                Range::between(2 * kMaxChunks, 4096)));
  c.dynamic_vcs = static_cast<int>(p.integer("dynamic_vcs", c.dynamic_vcs, "VCs",
                                             "adaptive virtual channels (besides the bubble "
                                             "escape VC and the high-priority VC)",
                                             Range::between(0, 4)));
  c.routing =
      p.choice("routing", c.routing, routing_functions().help(), routing_functions().names());
  c.selection =
      p.choice("selection", c.selection,
               "how an adaptive packet picks among free outputs: " + output_selections().help(),
               output_selections().names());
  c.arbitration = p.choice("arbitration", c.arbitration,
                           "which waiting packet an output serves: " + output_arbiters().help(),
                           output_arbiters().names());
  c.starvation_bound_ns =
      p.real("starvation_bound", c.starvation_bound_ns, "ns",
             "a packet waiting longer than this at a router is served first and holds its "
             "escape ring's entry",
             Range::between(1, 1e9));
  c.bubble_rule = p.flag("bubble_rule", c.bubble_rule,
                         "entering an escape-VC ring needs room for two full packets (false "
                         "only to show the network deadlocks without it)");
  c.injection_reserve_chunks = static_cast<uint32_t>(p.integer(
      "injection_reserve", c.injection_reserve_chunks, "chunks",
      "room an injected packet leaves free downstream beyond its own (and the bubble rule's), "
      "for packets already in the network (in-transit priority over injection)",
      Range::between(0, 4096)));
  c.header_bytes = static_cast<uint32_t>(p.integer(
      "header_bytes", c.header_bytes, "B",
      "hardware and DMA header carried in a packet's first chunk", Range::between(8, 32)));
  c.framing_bytes = static_cast<uint32_t>(
      p.integer("framing_bytes", c.framing_bytes, "B",
                "per-packet link overhead (CRC, sequence number, token acknowledgement)",
                Range::between(0, 64)));
  c.injection_queues = static_cast<int>(p.integer("injection_queues", c.injection_queues, "FIFOs",
                                                  "normal-priority torus injection FIFOs per "
                                                  "node (one more is high priority)",
                                                  Range::between(1, 16)));
  c.injection_queue_packets = static_cast<uint32_t>(
      p.integer("injection_queue", c.injection_queue_packets, "packets",
                "packets each torus injection FIFO holds", Range::between(1, 1024)));
  c.reception_bytes_per_second =
      p.real("reception_rate", c.reception_bytes_per_second, "B/s",
             "rate at which a node's reception port takes packets off the network",
             Range::between(1e6, 1e12));
  // At most half the packets corrupted: a link that corrupts every copy would never deliver.
  const TorusShape shape(c.x, c.y, c.z, c.wrap);
  const std::string crc_what =
      "corrupt packets on torus links (a CRC error at the receiving router; the packet is "
      "retransmitted from the sender's buffer)";
  c.link_crc_error.rate =
      p.real("link_crc_error_rate", 0, "",
             crc_what + ": probability per link traversal, each link drawing its own (0: off)",
             Range::between(0, 0.5));
  c.link_crc_error.at = parse_link_events(
      p.text("link_crc_error_at", "",
             crc_what + ": traversals to hit, each link counting its own from 1: N (the Nth on "
                        "every link) or LINK#N (the Nth on that link, e.g. 'x0y0z0:+x#3'), "
                        "separated by ','; empty: none"),
      shape, p.name("link_crc_error_at"));
  c.link_crc_error.name = p.name("link_crc_error");
  c.crc_retry_turnaround_ns =
      p.real("crc_retry_turnaround", c.crc_retry_turnaround_ns, "ns",
             "after a corrupted packet's tail leaves the sender, until its retransmission starts "
             "(the receiver's CRC check and the error's way back; 0: one link round trip, "
             "wire_latency + credit_latency)",
             Range::between(0, 1e6));
  c.failed_links = parse_failed_links(
      p.text("failed_links", "",
             "links that fail for good, NODE:DIR[@NS] separated by ',' (e.g. 'x1y0z0:+x' or "
             "'x0y0z0:-y@5000': the sending node, its output and the failure time, default 0); "
             "packets routed onto a failed link wait, and a run that can make no more progress "
             "fails, listing the stuck traffic"),
      shape, p.name("failed_links"));
  return c;
}

double NetworkConfig::bisection_bound_per_node() const {
  const int k = std::max({x, y, z});
  if (k == 1) return reception_bytes_per_second;
  // Uniform random: half of each half's traffic crosses the cut, so N/4 x rate crosses it in
  // each direction; the cut has 2N/k (torus) or N/k (mesh) links per direction. For odd k the
  // halves are uneven; the bound uses the same formula as an approximation.
  return (wrap ? 8.0 : 4.0) * link_bytes_per_second / k;
}

}  // namespace hs::torus
