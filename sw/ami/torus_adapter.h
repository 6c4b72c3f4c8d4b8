// The AMI adapter on the torus DMA engine. Injection FIFO: a DMA injection FIFO of N + 1
// descriptor slots (so it holds at most N); the engine advances its HEAD once per finished
// descriptor, and that pointer is the transfer counter. Receive buffer: a DMA reception FIFO.
// Counters: the DMA's injection and reception counter banks. GETs are remote gets whose
// direct-put descriptor the peer's engine appends to its RDMA FIFO.
//
// A send counter outlives its message: a peer's claiming GETs (variant B's bottom and final
// streams) sit in this node's RDMA FIFO as direct puts that claim from it, and one may still
// be queued when the message completes, because the other stream already moved its bytes.
// Reopened for another message, the counter would hand that stale put the new message's
// bytes. So a closed counter drains: it is reused only once the RDMA FIFO has finished every
// descriptor it held at the close (the receiver ACKs after its last GET request, and both
// travel in order, so every GET of the message is in the FIFO by then).
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "hw/torus/network/torus_shape.h"
#include "sw/ami/adapter.h"
#include "sw/hal/torus_dma.h"

namespace hs::fw::ami {

struct TorusAdapterConfig {
  int slots = 16;                        // N
  uint32_t reception_entries = 4096;     // reception FIFO (256-byte entries)
  uint64_t memory = 0x0400'0000;         // FIFOs and scratch live from here (8 MiB)
  uint32_t max_payload = 240;            // torus packet payload
  double link_bytes_per_second = 425e6;  // one link, for utilisation
  int counter_groups = 4, counters_per_group = 64;
};

class TorusAdapter : public Adapter {
 public:
  TorusAdapter(Hal& hal, const TorusAdapterConfig& cfg, const hs::torus::TorusShape& shape,
               int node);
  void init() override;
  int slots() const override { return cfg_.slots; }
  uint64_t transfer_counter() override;
  void inject(const Transfer& t) override;
  bool peek(Arrival& a) override;
  void pop() override;
  double receive_fill() override;
  uint32_t max_payload() const override { return cfg_.max_payload; }
  uint64_t bytes_received() override;
  double link_bytes_per_second() const override { return cfg_.link_bytes_per_second; }
  int open_rx_counter(uint64_t base, uint32_t bytes, uint32_t value) override;
  uint32_t rx_counter_offset(int c, uint64_t addr) const override;
  uint32_t rx_counter_value(int c) override;
  void rx_counter_sub(int c, uint32_t n) override;
  void close_rx_counter(int c) override;
  int open_tx_counter(uint32_t value) override;
  void close_tx_counter(int c) override;
  int control_counter() const override { return 0; }

  static constexpr int kAmiFifo = 0;   // the N-slot injection FIFO
  static constexpr int kRdmaFifo = 1;  // peers' GETs append their direct puts here
  static constexpr int kReceptionFifo = 0;

 private:
  hs::torus::dma::Descriptor to(int peer) const;
  uint64_t scratch();
  // Counts the RDMA FIFO's appended and finished descriptors and frees drained counters.
  void drain_counters();

  Hal& hal_;
  TorusAdapterConfig cfg_;
  hs::torus::TorusShape shape_;
  int node_;
  torus_dma::FifoState fifo_, rdma_fifo_, rec_fifo_;
  uint64_t head_seen_ = 0, completed_ = 0;
  std::vector<int> free_tx_, free_rx_;
  struct Draining {
    int counter;
    uint64_t after;  // free once the RDMA FIFO has finished this many descriptors
  };
  std::deque<Draining> draining_;
  uint64_t rdma_head_seen_ = 0, rdma_tail_seen_ = 0, rdma_appended_ = 0, rdma_finished_ = 0;
  std::vector<uint64_t> rx_base_;
  uint64_t next_scratch_ = 0;
};

}  // namespace hs::fw::ami
