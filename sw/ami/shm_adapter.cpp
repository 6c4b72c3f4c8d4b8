#include "sw/ami/shm_adapter.h"

#include <fmt/format.h>
#include <algorithm>

namespace hs::fw::ami {

namespace {
// Offsets inside an endpoint's area.
constexpr uint64_t kRingAt = 0, kWordsAt = 0x1'0000, kTxAt = 0x1'1000, kRxAt = 0x1'2000,
                   kRecAt = 0x10'0000;
// Words: transfer counter, reception head (consumer), reception tail (producers' reservation).
constexpr uint64_t kTransferWord = 0, kRecHeadWord = 8, kRecTailWord = 16;

// A reception entry's header; `full` publishes the entry once its payload is written.
struct EntryHeader {
  uint32_t offset, sw0;
  uint16_t src, payload;
  uint32_t full;
};
static_assert(sizeof(EntryHeader) == ShmAdapter::kEntryHeader, "entry headers are 16 bytes");
}  // namespace

ShmAdapter::ShmAdapter(Hal& hal, const ShmAdapterConfig& cfg, int endpoint)
    : hal_(hal), cfg_(cfg), self_(endpoint) {}

uint64_t ShmAdapter::ring_slot(uint64_t i) const {
  return area(self_) + kRingAt + (i % uint64_t(cfg_.slots + 1)) * sizeof(Descriptor);
}
uint64_t ShmAdapter::transfer_word(int e) const {
  return area(e) + kWordsAt + kTransferWord;
}
uint64_t ShmAdapter::rec_head_word(int e) const {
  return area(e) + kWordsAt + kRecHeadWord;
}
uint64_t ShmAdapter::rec_tail_word(int e) const {
  return area(e) + kWordsAt + kRecTailWord;
}
uint64_t ShmAdapter::rec_entry(int e, uint64_t i) const {
  return area(e) + kRecAt + (i % cfg_.reception_entries) * kEntryBytes;
}
uint64_t ShmAdapter::tx_word(int e, int c) const {
  return area(e) + kTxAt + 4 * uint64_t(c);
}
uint64_t ShmAdapter::rx_base_word(int e, int c) const {
  return area(e) + kRxAt + 16 * uint64_t(c);
}
uint64_t ShmAdapter::rx_value_word(int e, int c) const {
  return rx_base_word(e, c) + 8;
}

void ShmAdapter::init() {
  const uint64_t zero = 0;
  hal_.store(transfer_word(self_), zero);
  hal_.store(rec_head_word(self_), zero);
  hal_.store(rec_tail_word(self_), zero);
  std::vector<uint8_t> clear(uint64_t{cfg_.reception_entries} * kEntryBytes, 0);
  hal_.store(area(self_) + kRecAt, clear.data(), clear.size());
  hal_.store(tx_word(self_, 0), uint32_t{0xFFFFFFFFu});
  for (int c = cfg_.counters - 1; c >= 1; --c) {
    free_tx_.push_back(c);
    free_rx_.push_back(c);
  }
  rx_base_.assign(cfg_.counters, 0);
  abandoned_.assign(cfg_.counters, false);
}

uint64_t ShmAdapter::transfer_counter() {
  completed_ = hal_.load<uint64_t>(transfer_word(self_));
  return completed_;
}

void ShmAdapter::inject(const Transfer& t) {
  if (injected_ - completed_ >= uint64_t(cfg_.slots)) {
    hal_.fail("AMI shared-memory adapter: inject into a full injection FIFO");
  }
  Descriptor d{};
  d.local = t.local;
  d.remote = t.remote;
  d.bytes = t.bytes;
  d.sw0 = t.sw0;
  d.offset = t.offset;
  d.rx_offset = t.rx_offset;
  d.peer = t.peer;
  d.rx_counter = t.rx_counter;
  d.tx_counter = t.tx_counter;
  d.kind = static_cast<uint8_t>(t.kind);
  d.claim = t.claim;
  d.descending = t.descending;
  hal_.store(ring_slot(injected_), d);
  ++injected_;
}

uint32_t ShmAdapter::claim(uint64_t word, uint32_t n) {
  uint32_t old = hal_.load<uint32_t>(word);
  for (;;) {
    const uint32_t take = std::min(n, old);
    if (take == 0) return 0;
    const uint32_t seen = hal_.compare_and_swap(word, old, old - take);
    if (seen == old) return take;
    old = seen;
  }
}

void ShmAdapter::subtract(uint64_t word, uint32_t n, const char* what) {
  uint32_t old = hal_.load<uint32_t>(word);
  for (;;) {
    if (old < n) {
      hal_.fail(
          fmt::format("AMI shared-memory adapter: {} counter underflow ({} < {})", what, old, n));
    }
    const uint32_t seen = hal_.compare_and_swap(word, old, old - n);
    if (seen == old) return;
    old = seen;
  }
}

void ShmAdapter::copy(uint64_t dst, uint64_t src, uint32_t n) {
  buf_.resize(n);
  hal_.load(src, buf_.data(), n);
  hal_.store(dst, buf_.data(), n);
  hal_.compute((n + cfg_.copy_bytes_per_cycle - 1) / cfg_.copy_bytes_per_cycle);
}

void ShmAdapter::finish() {
  loaded_ = false;
  ++head_;
  hal_.store(transfer_word(self_), head_);
}

bool ShmAdapter::step() {
  if (!loaded_) {
    if (head_ == injected_) return false;
    cur_ = hal_.load<Descriptor>(ring_slot(head_));
    loaded_ = true;
    progress_ = 0;
  }
  const auto kind = static_cast<TransferKind>(cur_.kind);
  // Packets a receiver no longer needs must not wait for reception entries: once it has
  // ACKed its last message it stops draining its ring, which may be full.
  if (kind != TransferKind::Get && cur_.tx_counter > 0 && abandoned_[cur_.tx_counter]) {
    finish();
    return true;
  }
  uint32_t n = std::min(cur_.bytes - progress_,
                        kind == TransferKind::Packet ? max_payload() : cfg_.chunk_bytes);
  uint64_t slot_index = 0;
  if (kind == TransferKind::Packet) {  // reserve a reception entry at the peer first
    uint64_t tail = hal_.load<uint64_t>(rec_tail_word(cur_.peer));
    for (;;) {
      const uint64_t head = hal_.load<uint64_t>(rec_head_word(cur_.peer));
      if (tail - head >= cfg_.reception_entries) return false;  // back-pressure
      // 64-bit positions; the CAS covers the low word, which is all that moves between
      // reading and reserving.
      const auto lo = static_cast<uint32_t>(tail);
      const uint32_t seen = hal_.compare_and_swap(rec_tail_word(cur_.peer), lo, lo + 1);
      if (seen == lo) {
        if (lo == 0xFFFFFFFFu) hal_.store(rec_tail_word(cur_.peer) + 4, uint32_t(tail >> 32) + 1);
        slot_index = tail;
        break;
      }
      tail = (tail & ~uint64_t{0xFFFFFFFF}) | seen;
    }
  }
  const int source_side = kind == TransferKind::Get ? cur_.peer : self_;
  if (cur_.claim) {
    n = claim(tx_word(source_side, cur_.tx_counter), n);
  } else if (n > 0) {
    subtract(tx_word(source_side, cur_.tx_counter), n, "send");
  }
  if (n == 0 && cur_.bytes > progress_) {
    // The other stream claimed the rest. A reserved entry still has to be published: as an
    // empty packet, which the receiving AMI drops.
    if (kind == TransferKind::Packet) {
      const EntryHeader h{cur_.offset + progress_, 0, static_cast<uint16_t>(self_), 0, 1};
      hal_.store(rec_entry(cur_.peer, slot_index), h);
    }
    finish();
    return true;
  }
  const uint32_t pos = cur_.descending ? cur_.bytes - progress_ - n : progress_;
  switch (kind) {
    case TransferKind::Packet: {
      const uint64_t e = rec_entry(cur_.peer, slot_index);
      copy(e + kEntryHeader, cur_.local + pos, n);
      const EntryHeader h{cur_.offset + pos, cur_.sw0, static_cast<uint16_t>(self_),
                          static_cast<uint16_t>(n), 1};
      hal_.store(e, h);
      break;
    }
    case TransferKind::Put: {
      const uint64_t base = hal_.load<uint64_t>(rx_base_word(cur_.peer, cur_.rx_counter));
      copy(base + cur_.rx_offset + pos, cur_.local + pos, n);
      if (trace_) trace_->rdma_landed(cur_.peer, base + cur_.rx_offset + pos, n);
      subtract(rx_value_word(cur_.peer, cur_.rx_counter), n, "put completion");
      break;
    }
    case TransferKind::Get: {
      copy(rx_base_[cur_.rx_counter] + cur_.rx_offset + pos, cur_.remote + pos, n);
      if (trace_) trace_->rdma_landed(self_, rx_base_[cur_.rx_counter] + cur_.rx_offset + pos, n);
      subtract(rx_value_word(self_, cur_.rx_counter), n, "get completion");
      break;
    }
  }
  progress_ += n;
  const bool exhausted =
      cur_.claim && hal_.load<uint32_t>(tx_word(source_side, cur_.tx_counter)) == 0;
  if (progress_ == cur_.bytes || exhausted) finish();
  return true;
}

void ShmAdapter::process() {
  for (int i = 0; i < cfg_.steps_per_call && step(); ++i) {
  }
}

bool ShmAdapter::peek(Arrival& a) {
  const uint64_t e = rec_entry(self_, rec_head_);
  const auto h = hal_.load<EntryHeader>(e);
  if (!h.full) return false;
  a.sw0 = h.sw0;
  a.offset = h.offset;
  a.src = h.src;
  a.bytes = h.payload;
  a.payload = e + kEntryHeader;
  return true;
}

void ShmAdapter::pop() {
  const uint64_t e = rec_entry(self_, rec_head_);
  hal_.store(e + offsetof(EntryHeader, full), uint32_t{0});
  ++rec_head_;
  hal_.store(rec_head_word(self_), rec_head_);
}

double ShmAdapter::receive_fill() {
  const uint64_t tail = hal_.load<uint64_t>(rec_tail_word(self_));
  return double(tail - rec_head_) / cfg_.reception_entries;
}

int ShmAdapter::open_rx_counter(uint64_t base, uint32_t, uint32_t value) {
  if (free_rx_.empty()) hal_.fail("AMI: out of shared-memory completion counters");
  const int c = free_rx_.back();
  free_rx_.pop_back();
  rx_base_[c] = base;
  hal_.store(rx_base_word(self_, c), base);
  hal_.store(rx_value_word(self_, c), value);
  return c;
}

uint32_t ShmAdapter::rx_counter_offset(int c, uint64_t addr) const {
  return static_cast<uint32_t>(addr - rx_base_[c]);
}

uint32_t ShmAdapter::rx_counter_value(int c) {
  return hal_.load<uint32_t>(rx_value_word(self_, c));
}

void ShmAdapter::rx_counter_sub(int c, uint32_t n) {
  subtract(rx_value_word(self_, c), n, "receive");
}

void ShmAdapter::close_rx_counter(int c) {
  free_rx_.push_back(c);
}

int ShmAdapter::open_tx_counter(uint32_t value) {
  if (free_tx_.empty()) hal_.fail("AMI: out of shared-memory send counters");
  const int c = free_tx_.back();
  free_tx_.pop_back();
  hal_.store(tx_word(self_, c), value);
  abandoned_[c] = false;
  return c;
}

void ShmAdapter::close_tx_counter(int c) {
  free_tx_.push_back(c);
}

void ShmAdapter::abandon_tx_counter(int c) {
  abandoned_[c] = true;
}

}  // namespace hs::fw::ami
