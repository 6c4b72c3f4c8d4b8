// Torus network parameters and the arithmetic the model, the tests and the benchmarks share:
// packet sizes on the wire, serialisation, payload efficiency and the bisection bound.
#pragma once
#include <cstdint>
#include <string>

#include "hw/torus/network/torus_packet.h"

namespace hs::torus {

enum class Routing { Adaptive, Deterministic };

struct NetworkConfig {
  int x = 8, y = 8, z = 8;
  bool wrap = true;                      // torus; false: mesh
  double link_bytes_per_second = 425e6;  // per direction
  double hop_latency_ns = 64;            // head in to head out of the next router: pipeline + wire
  double credit_latency_ns = 16;         // a freed buffer slot's token reaches the sender
  uint32_t vc_buffer_chunks = 32;        // input buffer per virtual channel, 32-byte chunks
  int dynamic_vcs = 2;                   // adaptive VCs besides the bubble escape and high priority
  Routing routing = Routing::Adaptive;
  uint32_t header_bytes = 16;            // hardware + DMA header in the first chunk
  uint32_t framing_bytes = 8;            // link-level CRC, sequence and token acknowledgement
  int injection_queues = 8;              // normal-priority torus injection FIFOs (+1 high)
  uint32_t injection_queue_packets = 4;  // packets each injection FIFO holds
  double reception_bytes_per_second = 2.55e9;

  // Declares every parameter under `prefix` (e.g. torus.network) and returns the values.
  static NetworkConfig declare(const std::string& prefix);

  int nodes() const { return x * y * z; }
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
  double payload_efficiency(uint32_t packet_bytes) const {
    return double(packet_bytes - header_bytes) / (packet_bytes + framing_bytes);
  }
  // Wire bytes per second each node can inject under uniform random traffic before the
  // bisection saturates: the cut across the longest dimension k carries a quarter of all
  // traffic over 2N/k links (torus) or N/k links (mesh).
  double bisection_bound_per_node() const;
};

}  // namespace hs::torus
