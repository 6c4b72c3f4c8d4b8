#include "sw/ami/torus_adapter.h"

#include <fmt/format.h>

#include "hw/torus/node/node_address_map.h"

namespace hs::fw::ami {

namespace dma = hs::torus::dma;
using torus_dma::Bank;

namespace {
constexpr uint64_t kRdmaFifoBytes = 0x1'0000;
constexpr uint64_t kScratchSlots = 1024, kScratchSlot = 64;
// Offsets inside the adapter's memory.
constexpr uint64_t kFifoAt = 0, kRdmaAt = 0x1'0000, kScratchAt = 0x2'0000, kRecAt = 0x10'0000;
}  // namespace

TorusAdapter::TorusAdapter(Hal& hal, const TorusAdapterConfig& cfg,
                           const hs::torus::TorusShape& shape, int node)
    : hal_(hal), cfg_(cfg), shape_(shape), node_(node) {}

void TorusAdapter::init() {
  const uint64_t base = cfg_.memory;
  const uint64_t ring = uint64_t(cfg_.slots + 1) * sizeof(dma::Descriptor);
  fifo_ = torus_dma::setup_injection_fifo(hal_, kAmiFifo, base + kFifoAt, ring, false);
  rdma_fifo_ =
      torus_dma::setup_injection_fifo(hal_, kRdmaFifo, base + kRdmaAt, kRdmaFifoBytes, false);
  rec_fifo_ =
      torus_dma::setup_reception_fifo(hal_, kReceptionFifo, base + kRecAt,
                                      uint64_t{cfg_.reception_entries} * dma::kFifoSlot, false);
  head_seen_ = fifo_.start;
  // Counter 0 of each bank never reaches zero: transfers that neither claim nor complete
  // anything decrement it.
  torus_dma::set_counter(hal_, Bank::Injection, 0, 0xFFFFFFFFu);
  const int total = cfg_.counter_groups * cfg_.counters_per_group;
  for (int c = total - 1; c >= 1; --c) {
    free_tx_.push_back(c);
    free_rx_.push_back(c);
  }
  rx_base_.assign(total, 0);
}

dma::Descriptor TorusAdapter::to(int peer) const {
  // Deterministic routing keeps an endpoint pair's packets in order.
  return torus_dma::addressed_to(shape_, peer, kReceptionFifo, dma::kVcDeterministic);
}

uint64_t TorusAdapter::scratch() {
  const uint64_t a = cfg_.memory + kScratchAt + (next_scratch_++ % kScratchSlots) * kScratchSlot;
  return a;
}

uint64_t TorusAdapter::transfer_counter() {
  const uint64_t head = hal_.reg_read(hs::torus::amap::kDmaRegs + dma::kInjFifoBase +
                                          kAmiFifo * dma::kInjFifoStride + dma::kFifoHead,
                                      8);
  const uint64_t ring = fifo_.end - fifo_.start;
  completed_ += (head + ring - head_seen_) % ring / sizeof(dma::Descriptor);
  head_seen_ = head;
  if (!draining_.empty()) drain_counters();
  return completed_;
}

void TorusAdapter::drain_counters() {
  const uint64_t regs =
      hs::torus::amap::kDmaRegs + dma::kInjFifoBase + kRdmaFifo * dma::kInjFifoStride;
  const uint64_t head = hal_.reg_read(regs + dma::kFifoHead, 8);
  const uint64_t tail = hal_.reg_read(regs + dma::kFifoTail, 8);
  const uint64_t ring = rdma_fifo_.end - rdma_fifo_.start;
  auto between = [ring](uint64_t from, uint64_t to) {
    return (to + ring - from) % ring / sizeof(dma::Descriptor);
  };
  if (draining_.empty()) {
    // Counting starts now (sampled every pass while anything drains, so the pointers never
    // lap unseen); what the FIFO holds already counts as appended, not yet finished.
    rdma_finished_ = 0;
    rdma_appended_ = between(head, tail);
  } else {
    rdma_finished_ += between(rdma_head_seen_, head);
    rdma_appended_ += between(rdma_tail_seen_, tail);
  }
  rdma_head_seen_ = head;
  rdma_tail_seen_ = tail;
  while (!draining_.empty() && draining_.front().after <= rdma_finished_) {
    free_tx_.push_back(draining_.front().counter);
    draining_.pop_front();
  }
}

void TorusAdapter::inject(const Transfer& t) {
  dma::Descriptor d = to(t.peer);
  d.flags = (t.claim ? dma::kClaimFromCounter : 0) | (t.descending ? dma::kDescending : 0);
  switch (t.kind) {
    case TransferKind::Packet:
      d.kind = dma::kMemoryFifo;
      d.src = t.local;
      d.length = t.bytes;
      d.put_offset = t.offset;
      d.sw0 = t.sw0;
      d.inj_counter = static_cast<uint16_t>(t.tx_counter);
      break;
    case TransferKind::Put:
      d.kind = dma::kDirectPut;
      d.src = t.local;
      d.length = t.bytes;
      d.put_offset = t.rx_offset;
      d.rec_counter = static_cast<uint16_t>(t.rx_counter);
      d.inj_counter = static_cast<uint16_t>(t.tx_counter);
      d.vc = dma::kVcDynamic;
      break;
    case TransferKind::Get: {
      // The direct put the peer's engine will run, sending to this node.
      dma::Descriptor put = to(node_);
      put.kind = dma::kDirectPut;
      put.flags = d.flags;
      put.src = t.remote;
      put.length = t.bytes;
      put.put_offset = t.rx_offset;
      put.rec_counter = static_cast<uint16_t>(t.rx_counter);
      put.inj_counter = static_cast<uint16_t>(t.tx_counter);
      put.vc = dma::kVcDynamic;
      const uint64_t slot = scratch();
      hal_.store(slot, put);
      d.kind = dma::kRemoteGet;
      d.flags = 0;
      d.src = slot;
      d.length = sizeof put;
      d.fifo = kRdmaFifo;
      d.inj_counter = static_cast<uint16_t>(control_counter());
      break;
    }
  }
  torus_dma::inject(hal_, fifo_, d);
}

bool TorusAdapter::peek(Arrival& a) {
  dma::FifoEntryHeader h;
  uint64_t payload;
  if (!torus_dma::peek_entry(hal_, rec_fifo_, h, payload)) return false;
  a.sw0 = h.sw0;
  a.offset = h.offset;
  a.src = h.src;
  a.bytes = h.payload;
  a.payload = payload;
  return true;
}

void TorusAdapter::pop() {
  torus_dma::pop_entry(hal_, rec_fifo_);
}

double TorusAdapter::receive_fill() {
  const uint64_t tail = hal_.reg_read(hs::torus::amap::kDmaRegs + dma::kRecFifoBase +
                                          kReceptionFifo * dma::kRecFifoStride + dma::kFifoTail,
                                      8);
  const uint64_t size = rec_fifo_.end - rec_fifo_.start;
  return double((tail + size - rec_fifo_.mine) % size) / double(size);
}

uint64_t TorusAdapter::bytes_received() {
  return hal_.reg_read(hs::torus::amap::kDmaRegs + dma::kRxBytesReg, 8);
}

int TorusAdapter::open_rx_counter(uint64_t base, uint32_t bytes, uint32_t value) {
  if (free_rx_.empty()) hal_.fail("AMI: out of DMA reception counters (too many transfers open)");
  const int c = free_rx_.back();
  free_rx_.pop_back();
  const uint64_t aligned = base & ~uint64_t{15};
  rx_base_[c] = aligned;
  torus_dma::set_counter(hal_, Bank::Reception, static_cast<uint32_t>(c), value, aligned,
                         base + (bytes ? bytes : 1) - 1);
  return c;
}

uint32_t TorusAdapter::rx_counter_offset(int c, uint64_t addr) const {
  return static_cast<uint32_t>(addr - rx_base_[c]);
}

uint32_t TorusAdapter::rx_counter_value(int c) {
  return torus_dma::counter_value(hal_, Bank::Reception, static_cast<uint32_t>(c));
}

void TorusAdapter::rx_counter_sub(int c, uint32_t n) {
  torus_dma::decrement(hal_, Bank::Reception, static_cast<uint32_t>(c), n);
}

void TorusAdapter::close_rx_counter(int c) {
  free_rx_.push_back(c);
}

int TorusAdapter::open_tx_counter(uint32_t value) {
  if (free_tx_.empty() && !draining_.empty()) drain_counters();
  if (free_tx_.empty()) {
    if (!draining_.empty()) return -1;  // free soon: the RDMA FIFO is finishing its puts
    hal_.fail("AMI: out of DMA injection counters (too many sends open)");
  }
  const int c = free_tx_.back();
  free_tx_.pop_back();
  torus_dma::set_counter(hal_, Bank::Injection, static_cast<uint32_t>(c), value);
  return c;
}

void TorusAdapter::close_tx_counter(int c) {
  drain_counters();
  if (rdma_finished_ >= rdma_appended_) {  // nothing queued in the RDMA FIFO: free at once
    free_tx_.push_back(c);
    return;
  }
  draining_.push_back({c, rdma_appended_});
}

}  // namespace hs::fw::ami
