// The AMI adapter between endpoints on one node: the same injection-FIFO interface over
// shared memory. Each endpoint (a core) owns a descriptor ring of N + 1 slots, a transfer
// counter word, a reception ring of packet entries and byte-counter words, all in node
// memory. The owning core is the adapter's engine: process() takes its ring's descriptors
// in order and moves their bytes with loads and stores (packets into the peer's reception
// ring, puts into the peer's memory, gets out of it), claiming from and decrementing the
// counters with atomic compare-and-swap, since the two cores touch the same words.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/ami/adapter.h"
#include "sw/ami/trace.h"
#include "sw/hal/hal.h"

namespace hs::fw::ami {

struct ShmAdapterConfig {
  int slots = 16;                     // N
  uint32_t reception_entries = 256;   // entries of 256 bytes
  uint64_t memory = 0x0800'0000;      // endpoint e's area is memory + e * kEndpointBytes
  uint32_t copy_bytes_per_cycle = 8;  // the core copying
  uint32_t chunk_bytes = 4096;        // bytes a put or get moves per step
  int steps_per_call = 8;             // steps process() takes before returning
  int counters = 64;
};

class ShmAdapter : public Adapter {
 public:
  static constexpr uint64_t kEndpointBytes = 0x80'0000;
  static constexpr uint32_t kEntryBytes = 256, kEntryHeader = 16;

  ShmAdapter(Hal& hal, const ShmAdapterConfig& cfg, int endpoint);
  void init() override;
  // Reports the bytes puts and gets store into receive buffers (the torus DMA's are seen by
  // watching the engine).
  void set_trace(AmiTrace* t) { trace_ = t; }
  int slots() const override { return cfg_.slots; }
  uint64_t transfer_counter() override;
  void inject(const Transfer& t) override;
  void process() override;
  bool peek(Arrival& a) override;
  void pop() override;
  double receive_fill() override;
  uint32_t max_payload() const override { return kEntryBytes - kEntryHeader; }
  uint64_t bytes_received() override { return 0; }
  double link_bytes_per_second() const override { return 0; }
  int open_rx_counter(uint64_t base, uint32_t bytes, uint32_t value) override;
  uint32_t rx_counter_offset(int c, uint64_t addr) const override;
  uint32_t rx_counter_value(int c) override;
  void rx_counter_sub(int c, uint32_t n) override;
  void close_rx_counter(int c) override;
  int open_tx_counter(uint32_t value) override;
  void close_tx_counter(int c) override;
  void abandon_tx_counter(int c) override;
  int control_counter() const override { return 0; }

 private:
  struct Descriptor {  // a ring slot
    uint64_t local, remote;
    uint32_t bytes, sw0, offset, rx_offset;
    int32_t peer, rx_counter, tx_counter;
    uint8_t kind, claim, descending, reserved[17];
  };
  static_assert(sizeof(Descriptor) == 64, "shared-memory descriptors are 64 bytes");

  uint64_t area(int e) const { return cfg_.memory + uint64_t(e) * kEndpointBytes; }
  uint64_t ring_slot(uint64_t i) const;
  uint64_t transfer_word(int e) const;
  uint64_t rec_head_word(int e) const;
  uint64_t rec_tail_word(int e) const;
  uint64_t rec_entry(int e, uint64_t i) const;
  uint64_t tx_word(int e, int c) const;
  uint64_t rx_base_word(int e, int c) const;
  uint64_t rx_value_word(int e, int c) const;
  // Atomically takes up to n from a counter word; returns what it took.
  uint32_t claim(uint64_t word, uint32_t n);
  void subtract(uint64_t word, uint32_t n, const char* what);
  void copy(uint64_t dst, uint64_t src, uint32_t n);
  bool step();  // one chunk of the current descriptor; false when blocked or idle
  void finish();

  Hal& hal_;
  ShmAdapterConfig cfg_;
  int self_;
  uint64_t injected_ = 0, head_ = 0, completed_ = 0;  // ring positions (descriptor numbers)
  uint64_t rec_head_ = 0;                             // next entry to consume
  bool loaded_ = false;
  Descriptor cur_{};
  uint32_t progress_ = 0;
  std::vector<int> free_tx_, free_rx_;
  std::vector<uint64_t> rx_base_;
  std::vector<bool> abandoned_;  // per send counter
  std::vector<uint8_t> buf_;
  AmiTrace* trace_ = nullptr;
};

}  // namespace hs::fw::ami
