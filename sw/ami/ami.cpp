#include "sw/ami/ami.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

namespace hs::fw::ami {

namespace {
constexpr uint64_t kScratchSlots = 1024, kScratchSlot = 256;
constexpr uint64_t kTempAt = 0x10'0000;  // temporary space, after the scratch ring
}  // namespace

const char* protocol_name(Protocol p) {
  switch (p) {
    case Protocol::StopA:
      return "A";
    case Protocol::StopB:
      return "B";
    case Protocol::StopC:
      return "C";
    case Protocol::Eager:
      return "eager";
    case Protocol::Rendezvous:
      return "rendezvous";
  }
  return "?";
}

bool parse_protocol(const char* name, Protocol& out) {
  for (auto p :
       {Protocol::StopA, Protocol::StopB, Protocol::StopC, Protocol::Eager, Protocol::Rendezvous}) {
    if (std::strcmp(name, protocol_name(p)) == 0) {
      out = p;
      return true;
    }
  }
  return false;
}

const char* stop_cause_name(StopCause c) {
  static const char* names[] = {"none",           "unexpected",       "temp_space",
                                "adapter_buffer", "link_utilisation", "processor_utilisation"};
  return names[static_cast<int>(c)];
}

const char* get_kind_name(GetKind k) {
  static const char* names[] = {"remainder", "bottom", "final", "hole", "rendezvous", "user"};
  return names[static_cast<int>(k)];
}

uint64_t AmiStats::stops_total() const {
  uint64_t n = 0;
  for (auto s : stops) n += s;
  return n;
}

Ami::Ami(Hal& hal, Adapter& adapter, const AmiConfig& cfg, int self, AmiTrace* trace)
    : hal_(hal), adapter_(adapter), cfg_(cfg), self_(self), trace_(trace ? trace : &no_trace_) {}

void Ami::init() {
  adapter_.init();
  slots_ = adapter_.slots();
  pending_.assign(slots_, nullptr);
  block_ = adapter_.max_payload();
  const int blocks = static_cast<int>(cfg_.temp_bytes / block_);
  for (int b = blocks - 1; b >= 0; --b) free_blocks_.push_back(b);
  cfg_.credit_entries = eager_credits(cfg_.temp_bytes, cfg_.credit_entries, block_);
  busy_share_.set_window(cfg_.stop.window_cycles);
  link_rate_.set_window(cfg_.stop.window_cycles);
  start_cycles_ = hal_.cycles();
}

uint64_t Ami::scratch(uint32_t bytes) {
  if (bytes > kScratchSlot) hal_.fail(fmt::format("AMI record of {} B exceeds a slot", bytes));
  // Slots are reused after kScratchSlots more records; at most N descriptors are unfinished.
  return cfg_.memory + (next_scratch_++ % kScratchSlots) * kScratchSlot;
}

void Ami::copy(uint64_t dst, uint64_t src, uint32_t n) {
  if (n == 0) return;
  buf_.resize(n);
  hal_.load(src, buf_.data(), n);
  hal_.store(dst, buf_.data(), n);
  hal_.compute((n + cfg_.copy_bytes_per_cycle - 1) / cfg_.copy_bytes_per_cycle);
}

uint64_t Ami::temp_addr(int block) const {
  return cfg_.memory + kTempAt + uint64_t(block) * block_;
}

int Ami::take_block() {
  if (free_blocks_.empty()) return -1;
  const int b = free_blocks_.back();
  free_blocks_.pop_back();
  ++temp_used_;
  stats_.temp_peak = std::max(stats_.temp_peak, temp_in_use());
  trace_->temp_usage(self_, temp_in_use(), cfg_.temp_bytes);
  return b;
}

void Ami::free_block(int b) {
  free_blocks_.push_back(b);
  --temp_used_;
  trace_->temp_usage(self_, temp_in_use(), cfg_.temp_bytes);
}

void Ami::push(const Transfer& t, Callback done) {
  queue_.push_back({t, std::move(done)});
}

Transfer Ami::control(int peer, uint32_t type, uint32_t msg, const ControlRecord& r) {
  const uint64_t at = scratch(sizeof r);
  hal_.store(at, r);
  Transfer t;
  t.kind = TransferKind::Packet;
  t.peer = peer;
  t.local = at;
  t.bytes = sizeof r;
  t.sw0 = pack(type, msg);
  t.tx_counter = adapter_.control_counter();
  return t;
}

void Ami::collect_completions() {
  const uint64_t tc = adapter_.transfer_counter();
  while (completed_ < tc) {
    const uint64_t seq = completed_++;
    Callback cb = std::move(pending_[seq % slots_]);
    pending_[seq % slots_] = nullptr;
    if (cb) {
      --pending_count_;
      ++stats_.callbacks;
      trace_->called(self_, seq, tc);
      trace_->pending(self_, pending_count_);
      cb();
    }
  }
}

void Ami::inject_now(Instruction ins) {
  const uint64_t seq = injected_++;
  adapter_.inject(ins.t);
  ++stats_.descriptors;
  trace_->injected(self_, seq, static_cast<int>(injected_ - completed_), slots_);
  if (ins.done) {
    pending_[seq % slots_] = std::move(ins.done);
    ++pending_count_;
    trace_->listed(self_, seq);
    trace_->pending(self_, pending_count_);
  }
}

void Ami::pump() {
  for (;;) {
    if (injected_ - completed_ >= uint64_t(slots_)) {
      collect_completions();
      if (injected_ - completed_ >= uint64_t(slots_)) return;
    }
    if (!queue_.empty()) {
      Instruction ins = std::move(queue_.front());
      queue_.pop_front();
      inject_now(std::move(ins));
      continue;
    }
    // Eager streams fill what the control queue leaves, oldest message first.
    bool any = false;
    for (auto& [msg, o] : out_) {
      if (post_next(o)) {
        any = true;
        break;
      }
    }
    if (!any) return;
  }
}

void Ami::advance() {
  const uint64_t t0 = hal_.cycles();
  if (cfg_.stop.processor_utilisation <= 1) {
    busy_share_.sample(t0, t0 - start_cycles_ - idle_cycles_);
  }
  if (cfg_.stop.link_utilisation <= 1) link_rate_.sample(t0, adapter_.bytes_received());
  const uint64_t descriptors0 = stats_.descriptors, callbacks0 = stats_.callbacks;
  bool handled = false;
  adapter_.process();
  collect_completions();
  Arrival a;
  for (int budget = 4; budget > 0 && adapter_.peek(a); --budget) {
    handled = true;
    handle(a);
    adapter_.pop();
    // Control instructions (a STOP above all) leave as soon as they are decided.
    if (!queue_.empty()) pump();
  }
  match_receives();
  check_receives();
  check_sends();
  pump();
  // A pass that found nothing to do was polling: idle time, as far as utilisation goes.
  if (stats_.descriptors == descriptors0 && stats_.callbacks == callbacks0 && !handled) {
    idle_cycles_ += hal_.cycles() - t0;
  }
}

// One-sided operations.

void Ami::get(int peer, uint64_t remote, uint64_t local, uint32_t bytes, Callback done) {
  hal_.compute(cfg_.post_cycles);
  if (bytes == 0) hal_.fail("AMI get of 0 bytes");
  const int c = adapter_.open_rx_counter(local, bytes, bytes);
  Transfer t;
  t.kind = TransferKind::Get;
  t.peer = peer;
  t.remote = remote;
  t.bytes = bytes;
  t.rx_counter = c;
  t.rx_offset = adapter_.rx_counter_offset(c, local);
  t.tx_counter = adapter_.control_counter();
  trace_->get_posted(self_, peer, 0, 0, bytes, GetKind::User);
  // Done once the request has left (the callback list) and every byte has landed (the
  // counter, polled by check_receives).
  push(t, [this, c, done = std::move(done)]() mutable {
    user_gets_.push_back({c, std::move(done)});
  });
}

int Ami::expose(uint64_t base, uint32_t bytes) {
  if (base % 16 != 0)
    hal_.fail(fmt::format("AMI expose: window base {:#x} is not 16-byte aligned", base));
  // A window's counter never reaches zero: puts into it complete at their origin.
  return adapter_.open_rx_counter(base, bytes, 0xFFFFFFFFu);
}

void Ami::put(int peer, uint64_t local, uint32_t bytes, int window, uint32_t offset,
              Callback done) {
  hal_.compute(cfg_.post_cycles);
  if (bytes == 0) hal_.fail("AMI put of 0 bytes");
  Transfer t;
  t.kind = TransferKind::Put;
  t.peer = peer;
  t.local = local;
  t.bytes = bytes;
  t.rx_counter = window;
  t.rx_offset = offset;
  t.tx_counter = adapter_.control_counter();
  push(t, std::move(done));
}

}  // namespace hs::fw::ami
