// Torus network parameters and the arithmetic the model, the tests and the benchmarks share:
// packet sizes on the wire, serialisation, payload efficiency, the bisection bound and the
// zero-load latency.
//
// Hardware latency, as the model defines it (and the validation table measures it): from the
// packet's header chunk entering the source's injection FIFO to its tail arriving, CRC-checked,
// at the destination's reception port. A packet crossing h links passes through:
//  - the injection FIFO: the router starts a packet only when all of it is in the FIFO (store
//    and forward: it must never stall mid-packet on the injection side); after the header,
//    chunks - 1 chunks are written at injection_fill_rate;
//  - h links of wire_latency each (wire, serialiser and deserialiser);
//  - h - 1 transit routers of router_latency each (input buffer, route, arbitration, crossbar):
//    the source sends from its injection FIFO straight to the output arbiter, and the
//    destination takes the packet off its input straight to the reception port;
//  - serialisation of the whole packet, once (cut-through: the tail follows the head).
// L(h, n) = (chunks - 1) x 32 B / injection_fill_rate + h x wire + (h - 1) x router + ser(n).
// With the defaults: 32 B, 1 hop: 0 + 6 + 0 + 94.1 = 100.1 ns; 256 B, 1 hop: 172.3 + 6 + 621.2
// = 799.5 ns; 32 B, 64 hops: 384 + 2709 + 94.1 = 3187 ns (Blue Gene/P: 100 ns, 800 ns, 3.2 us).
// No model with one latency per hop fits all three: 64 hops in 3.2 us needs ~49 ns per hop,
// which leaves 51 ns for a one-hop 32 B packet whose serialisation alone takes 94 ns, and 800 ns
// for 256 B needs more time per byte than the link's 425 MB/s. Two mechanisms reconcile them:
// a one-hop packet passes no transit router, and the injection FIFO stores a packet whole.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/torus/network/link_faults.h"
#include "hw/torus/network/torus_packet.h"
#include "tlm/fault/fault_streams.h"

namespace hs::torus {

struct NetworkConfig {
  int x = 8, y = 8, z = 8;
  bool wrap = true;                      // torus; false: mesh
  double link_bytes_per_second = 425e6;  // per direction
  double wire_latency_ns = 6;            // a packet head across one link: wire and serdes
  double router_latency_ns = 43;         // a head through a transit router: buffer, route, crossbar
  double injection_fill_rate = 1.3e9;    // B/s the injection FIFO is written at (store and forward)
  double credit_latency_ns = 16;         // a freed buffer slot's token reaches the sender
  uint32_t vc_buffer_chunks = 32;        // input buffer per virtual channel, 32-byte chunks
  int dynamic_vcs = 2;                   // adaptive VCs besides the bubble escape and high priority
  std::string routing = "adaptive";      // routing function (routing/routing_function.h)
  std::string selection = "most_tokens";  // adaptive output selection (routing/output_selection.h)
  std::string arbitration = "age";        // output arbiter (routing/output_arbiter.h)
  double starvation_bound_ns = 5000;      // a request waiting longer goes first
  bool bubble_rule = true;  // entering an escape ring needs room for two packets (false: tests)
  // In-transit priority over injection: a packet from an injection FIFO takes a VC only if,
  // beyond its own size (and on the escape VC beyond the bubble rule's second packet), this
  // much more room is free downstream, so packets already in the network (which then find room
  // first, and on the escape VC need two packets of room to change dimension) are not crowded
  // out by new ones. The network throttles its sources instead of filling up: without it the
  // escape rings fill with injected packets past saturation, turning packets starve at the
  // heads of their inputs, and dimension-order throughput collapses to well under half its
  // peak; adaptive packets are pushed onto the escape VC and adaptive throughput sags too.
  // Capped so that a full-size packet can still enter an empty buffer.
  uint32_t injection_reserve_chunks = 16;
  uint32_t header_bytes = 16;            // hardware + DMA header in the first chunk
  uint32_t framing_bytes = 8;            // link-level CRC, sequence and token acknowledgement
  int injection_queues = 8;              // normal-priority torus injection FIFOs (+1 high)
  uint32_t injection_queue_packets = 4;  // packets each injection FIFO holds
  double reception_bytes_per_second = 2.55e9;
  // Link faults, all off by default. A packet whose CRC fails at the receiving end of a link is
  // dropped and sent again from the sender's retransmission buffer (go-back-N from the bad
  // packet): the link is held from the bad copy's first byte until the good copy's last, that
  // is the bad copy's serialisation, the turnaround until the sender hears of the error, and
  // the good copy's serialisation; the packets behind it wait. Each link numbers its own
  // traversals and draws from its own random stream (link_faults.h), so which packets a link
  // corrupts depends only on that link's traffic and the run's seed.
  struct CrcErrors {
    double rate = 0;          // per link traversal
    FaultStreams::Listed at;  // numbered traversals; streams are node * kDirs + dir
    std::string name = "torus.network.link_crc_error";  // seeds the links' streams
  } link_crc_error;
  // From the bad copy's tail leaving the sender to the retransmission starting: the tail
  // reaching the receiver, its CRC check failing and the error getting back (0: one link round
  // trip, wire_latency + credit_latency, as a token return takes).
  double crc_retry_turnaround_ns = 0;
  std::vector<FailedLink> failed_links;  // links that carry nothing from their failure on

  // Declares every parameter under `prefix` (e.g. torus.network) and returns the values.
  static NetworkConfig declare(const std::string& prefix);

  int nodes() const { return x * y * z; }
  double retry_turnaround_ns() const {
    return crc_retry_turnaround_ns > 0 ? crc_retry_turnaround_ns
                                       : wire_latency_ns + credit_latency_ns;
  }
  // What one CRC error costs the link: the time it is held beyond the packet's own
  // serialisation (the corrupted copy and the turnaround).
  double crc_error_cost_ns(uint32_t chunks) const {
    return serialisation_ns(chunks) + retry_turnaround_ns();
  }
  uint32_t max_payload() const { return kMaxPacketBytes - header_bytes; }
  // Chunks of a packet carrying `payload` bytes (header included).
  uint32_t chunks_for(uint32_t payload) const {
    return (payload + header_bytes + kChunkBytes - 1) / kChunkBytes;
  }
  uint32_t wire_bytes(uint32_t chunks) const { return chunks * kChunkBytes + framing_bytes; }
  double serialisation_ns(uint32_t chunks) const {
    return wire_bytes(chunks) * 1e9 / link_bytes_per_second;
  }
  // Payload bytes per wire byte for packets of `packet_bytes` (a multiple of 32).
  // Zero-load hardware latency (definition above) of a packet of `chunks` over `hops` links.
  double zero_load_latency_ns(int hops, uint32_t chunks) const {
    return (chunks - 1) * kChunkBytes * 1e9 / injection_fill_rate + hops * wire_latency_ns +
           (hops - 1) * router_latency_ns + serialisation_ns(chunks);
  }
  double payload_efficiency(uint32_t packet_bytes) const {
    return double(packet_bytes - header_bytes) / (packet_bytes + framing_bytes);
  }
  // Wire bytes per second each node can inject under uniform random traffic before the
  // bisection saturates: the cut across the longest dimension k carries a quarter of all
  // traffic over 2N/k links (torus) or N/k links (mesh).
  double bisection_bound_per_node() const;
};

}  // namespace hs::torus
