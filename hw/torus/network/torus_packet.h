// A torus packet: 32 to 256 bytes in 32-byte chunks. The first chunk carries the hardware
// header (destination, size, virtual channel class, routing) and the DMA header (packet kind,
// counter or FIFO, offset, two software words); the rest is payload. The model keeps a few
// bookkeeping fields (id, injection time, hops) that are not on the wire.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace hs::torus {

constexpr uint32_t kChunkBytes = 32;
constexpr uint32_t kMaxPacketBytes = 256;
constexpr uint32_t kMaxChunks = kMaxPacketBytes / kChunkBytes;

enum class PacketKind : uint8_t {
  MemoryFifo,  // lands in a reception FIFO for a core to process
  DirectPut,   // lands in memory at a reception counter's base + offset
  RemoteGet,   // payload is descriptors the remote DMA injects into its own injection FIFO
  Synthetic,   // network-only traffic from a traffic generator (counted, not stored)
};
const char* kind_name(PacketKind k);

// Routing class a packet asks for: dynamic VCs with adaptive minimal routing (escaping to the
// bubble VC when they are full), the deterministic bubble VC alone, or the high-priority VC.
enum class VcClass : uint8_t { Dynamic, Deterministic, HighPriority };

struct Packet {
  // Hardware header.
  int32_t src = 0, dest = 0;
  uint8_t chunks = 1;
  PacketKind kind = PacketKind::Synthetic;
  VcClass vc_class = VcClass::Deterministic;
  // Deposit bit: the destination lies on a line with the source (they differ in one
  // dimension) and every router on the way delivers a copy to its own node before forwarding.
  bool deposit = false;
  // DMA header.
  uint16_t counter = 0;  // reception counter (direct put)
  uint8_t fifo = 0;      // reception FIFO (memory FIFO) or remote injection FIFO (remote get)
  uint32_t offset = 0;   // direct put: from the counter's base; memory FIFO: within the message
  uint32_t sw0 = 0, sw1 = 0;
  uint16_t payload_bytes = 0;

  // Model bookkeeping.
  uint64_t id = 0;           // packet_id: the source and its count of packets
  uint64_t created_ps = 0;   // when the source created it (latency includes source queueing)
  uint64_t injected_ps = 0;  // when it entered an injection FIFO (its age for arbitration)
  uint64_t launched_ps = 0;  // when it left the injection FIFO (granted its first link)
  uint16_t hops = 0;
  // Router state: where the packet sits now.
  uint64_t arrived_ps = 0;  // its head reached the current router
  int8_t vc = 0;            // virtual channel at the current input
  int8_t prev_dir = -1;     // direction of the last hop (-1: still in its injection FIFO)
  bool escaped = false;     // took the bubble escape VC (stays there)
  bool deposited = false;   // a deposit packet's copy was taken at the current router

  // Last: the routers read only the fields above, which then share one cache line.
  uint8_t payload[kMaxPacketBytes];
};

// A packet's id: its source node (high half) and that source's count of packets so far, so
// ids do not depend on the order in which the machine's sources inject.
inline uint64_t packet_id(int src, uint32_t n) {
  return uint64_t{static_cast<uint32_t>(src)} << 32 | n;
}
inline uint32_t packet_number(uint64_t id) {
  return static_cast<uint32_t>(id);
}

// Packets are recycled: a steady stream allocates nothing.
class PacketPool {
 public:
  Packet* take() {
    if (free_.empty()) {
      blocks_.push_back(std::make_unique<Packet[]>(kBlock));
      for (size_t i = 0; i < kBlock; ++i) free_.push_back(&blocks_.back()[i]);
    }
    Packet* p = free_.back();
    free_.pop_back();
    *p = Packet{};
    ++live_;
    return p;
  }
  void give(Packet* p) {
    free_.push_back(p);
    --live_;
  }
  size_t live() const { return live_; }

 private:
  static constexpr size_t kBlock = 256;
  std::vector<std::unique_ptr<Packet[]>> blocks_;
  std::vector<Packet*> free_;
  size_t live_ = 0;
};

}  // namespace hs::torus
