#include "sw/dcmf/messenger.h"

#include <fmt/format.h>
#include <algorithm>
#include <stdexcept>

namespace hs::fw::dcmf {

namespace dma = hs::torus::dma;
using torus_dma::Bank;

Protocol parse_protocol(const std::string& name) {
  if (name == "eager") return Protocol::Eager;
  if (name == "rendezvous") return Protocol::Rendezvous;
  if (name == "split") return Protocol::Split;
  if (name == "auto") return Protocol::Auto;
  throw std::invalid_argument("protocol '" + name + "' (eager, rendezvous, split, auto)");
}

const char* protocol_name(Protocol p) {
  switch (p) {
    case Protocol::Eager:
      return "eager";
    case Protocol::Rendezvous:
      return "rendezvous";
    case Protocol::Split:
      return "split";
    case Protocol::Auto:
      return "auto";
  }
  return "?";
}

Messenger::Messenger(Hal& hal, const MessengerConfig& cfg, const hs::torus::TorusShape& shape,
                     int node)
    : hal_(hal),
      cfg_(cfg),
      shape_(shape),
      node_(node),
      self_(node * cfg.endpoints_per_node + cfg.local),
      share_(dma_share(cfg.local, cfg.endpoints_per_node, cfg.injection_fifos, cfg.reception_fifos,
                       cfg.counter_groups)) {
  control_counter_ =
      static_cast<uint32_t>(share_.first_group * cfg_.counters_per_group) + kControlCounter;
}

void Messenger::init() {
  using namespace layout;
  const int f = share_.injection_fifo;
  const uint64_t inj = share_.injection_memory;
  data_fifo_ = torus_dma::setup_injection_fifo(hal_, f + kDataFifo, inj, kInjFifoBytes, false);
  high_fifo_ = torus_dma::setup_injection_fifo(hal_, f + kHighFifo, inj + kInjFifoBytes,
                                               kInjFifoBytes, true);
  ack_scan_ = high_fifo_.start;
  control_fifo_ = torus_dma::setup_injection_fifo(hal_, f + kControlFifo, inj + 2 * kInjFifoBytes,
                                                  kInjFifoBytes, true);
  rec_fifo_ = torus_dma::setup_reception_fifo(hal_, share_.reception_fifo, share_.reception_memory,
                                              kRecFifoBytes, cfg_.interrupts);
  // The control counter counts RTS and acknowledgement bytes; it stays disabled and far from 0.
  torus_dma::set_counter(hal_, Bank::Injection, control_counter_, 0xFFFFFFFFu);
  const int first = share_.first_group * cfg_.counters_per_group;
  // The share's last reception counter is the deposit counter (the pool hands it out last).
  deposit_counter_ = static_cast<uint32_t>(first + share_.groups * cfg_.counters_per_group - 1);
  for (int c = first + share_.groups * cfg_.counters_per_group - 1; c >= first; --c) {
    if (c != static_cast<int>(control_counter_)) free_send_counters_.push_back(c);
    if (c != static_cast<int>(deposit_counter_)) free_recv_counters_.push_back(c);
  }
  const uint64_t all =
      cfg_.counters_per_group == 64 ? ~uint64_t{0} : (uint64_t{1} << cfg_.counters_per_group) - 1;
  for (int g = share_.first_group; g < share_.first_group + share_.groups; ++g) {
    for (Bank b : {Bank::Injection, Bank::Reception}) {
      const uint64_t mask =
          (b == Bank::Injection && g == share_.first_group) ? all & ~uint64_t{1} : all;
      // One write enables a whole group (ENABLE is a write-1-to-set mask).
      hal_.reg_write(hs::torus::amap::kDmaRegs +
                         (b == Bank::Injection ? dma::kInjCounterBank : dma::kRecCounterBank) +
                         counters::group_reg(g, counters::kEnable),
                     mask, 8);
      if (cfg_.interrupts) torus_dma::enable_group_irq(hal_, b, g);
    }
  }
}

Protocol Messenger::resolve(Protocol p, uint32_t bytes) const {
  if (p != Protocol::Auto) return p;
  return bytes <= cfg_.eager_limit ? Protocol::Eager : cfg_.large;
}

dma::Descriptor Messenger::base_descriptor(int dest) const {
  const int n = cfg_.endpoints_per_node;
  // Endpoint l of a node receives in reception FIFO l (dma_share).
  return torus_dma::addressed_to(shape_, dest / n, static_cast<uint8_t>(dest % n), dma::kVcDynamic);
}

uint64_t Messenger::scratch_slot() {
  const uint64_t a =
      share_.scratch_memory + (next_scratch_ % layout::kScratchSlots) * layout::kScratchSlot;
  ++next_scratch_;
  return a;
}

uint32_t Messenger::take_counter(std::vector<uint32_t>& pool, const char* what) {
  if (pool.empty()) hal_.fail(fmt::format("out of {} counters: too many messages in flight", what));
  const uint32_t c = pool.back();
  pool.pop_back();
  return c;
}

dma::Descriptor Messenger::start_send(int dest, uint64_t buf, uint32_t bytes, int handle,
                                      const char* protocol, uint32_t tag) {
  if (bytes == 0) hal_.fail("send of 0 bytes");
  if (dest < 0 || dest >= endpoints())
    hal_.fail(fmt::format("send to endpoint {}: no such endpoint", dest));
  if (hal_.tracing()) {
    hal_.protocol_begin("dcmf send", kTraceKeyDcmf | static_cast<uint64_t>(handle),
                        {{"dest", dest}, {"bytes", bytes}, {"tag", tag}, {"protocol", protocol}});
  }
  hal_.compute(cfg_.post_cycles);
  // Sends in flight hold their counters until the DMA has sent everything: wait for one.
  while (free_send_counters_.empty()) {
    progress();
    if (free_send_counters_.empty()) idle();
  }
  const uint32_t c = take_counter(free_send_counters_, "injection");
  torus_dma::set_counter(hal_, Bank::Injection, c, bytes);
  dma::Descriptor d = base_descriptor(dest);
  d.inj_counter = static_cast<uint16_t>(c);
  d.src = buf;
  d.length = bytes;
  return d;
}

void Messenger::track_send(int handle, uint32_t counter, Protocol p) {
  Send& s = sends_[handle];
  s.counter = counter;
  s.split = p == Protocol::Split;
  s.remote = p == Protocol::Rendezvous || p == Protocol::Split;
  remote_sends_ += s.remote;
  s.data_index = data_injected_ - 1;
  unanswered_splits_ += s.split;
}

int Messenger::send(int dest, uint64_t buf, uint32_t bytes, Protocol protocol, uint32_t tag) {
  if (tag > kMaxTag) hal_.fail(fmt::format("tag {:#x} exceeds 28 bits", tag));
  const Protocol p = resolve(protocol, bytes);
  const int h = next_handle_++;
  dma::Descriptor d = start_send(dest, buf, bytes, h, protocol_name(p), tag);
  const uint32_t c = d.inj_counter;
  if (p == Protocol::Eager) {
    d.kind = dma::kMemoryFifo;
    d.sw0 = pack(kEager, tag);
    torus_dma::inject(hal_, data_fifo_, d);
    ++data_injected_;
  } else {
    RtsRecord rec{};
    rec.put = base_descriptor(dest);
    rec.put.kind = dma::kDirectPut;
    rec.put.src = buf;
    rec.put.length = bytes;
    rec.put.inj_counter = static_cast<uint16_t>(c);
    rec.put.flags = p == Protocol::Split ? (dma::kClaimFromCounter | dma::kDescending) : 0;
    rec.size = bytes;
    rec.tag = tag;
    rec.reply_fifo = static_cast<uint32_t>(share_.injection_fifo + kHighFifo);
    rec.protocol = static_cast<uint32_t>(p);
    const uint64_t slot = scratch_slot();
    hal_.store(slot, rec);
    dma::Descriptor rts = base_descriptor(dest);
    rts.kind = dma::kMemoryFifo;
    rts.src = slot;
    rts.length = sizeof rec;
    rts.sw0 = pack(kRts, tag);
    rts.inj_counter = static_cast<uint16_t>(control_counter_);
    torus_dma::inject(hal_, data_fifo_, rts);
    ++data_injected_;
    if (p == Protocol::Split) {
      d.kind = dma::kMemoryFifo;
      d.flags = dma::kClaimFromCounter;
      d.sw0 = pack(kSplitData, tag);
      torus_dma::inject(hal_, data_fifo_, d);
      ++data_injected_;
    }
  }
  track_send(h, c, p);
  return h;
}

void Messenger::arm_deposit(uint64_t buf, uint32_t bytes) {
  if (bytes == 0) hal_.fail("deposit of 0 bytes");
  if (deposit_armed_) hal_.fail("arm_deposit: the previous deposit has not been waited for");
  // The counter's base is 16-byte aligned; the deposit's offset carries the rest (the same at
  // every node of the line: the sender's buffer's).
  torus_dma::set_counter(hal_, Bank::Reception, deposit_counter_, bytes, buf & ~uint64_t{15},
                         buf + bytes - 1);
  // A stale hit-zero bit would end the wait before the data is in.
  torus_dma::clear_hit_zero(hal_, Bank::Reception, deposit_counter_,
                            static_cast<uint32_t>(cfg_.counters_per_group));
  deposit_armed_ = true;
  deposit_arrived_ = false;
  deposit_bytes_ = bytes;
}

int Messenger::send_deposit(int dest, uint64_t buf, uint32_t bytes, uint32_t offset, int lane) {
  const int n = cfg_.endpoints_per_node;
  if (dest < 0 || dest >= endpoints() || dest % n != cfg_.local ||
      shape_.line_dimension(node_, dest / n) < 0 || lane < 0 || lane >= kDepositLanes) {
    hal_.fail(
        fmt::format("deposit from endpoint {} to endpoint {} on lane {}: the target must be "
                    "an endpoint of the same local index on a torus line with this node, "
                    "the lane below {}",
                    self_, dest, lane, kDepositLanes));
  }
  const int h = next_handle_++;
  dma::Descriptor d = start_send(dest, buf, bytes, h, "deposit", 0);
  d.kind = dma::kDirectPut;
  torus_dma::set_deposit(d);
  d.rec_counter = static_cast<uint16_t>(deposit_counter_);
  d.put_offset = offset;
  // Lane FIFOs of 8 KiB (255 descriptors), side by side in the share's fourth FIFO window.
  constexpr uint64_t kLaneBytes = layout::kInjFifoBytes / 8;
  const bool own_fifo = share_.injection_fifos > kDepositFifo + lane;
  torus_dma::FifoState& f = own_fifo ? deposit_fifos_[static_cast<size_t>(lane)] : data_fifo_;
  if (f.end == 0) {
    f = torus_dma::setup_injection_fifo(
        hal_, share_.injection_fifo + kDepositFifo + lane,
        share_.injection_memory + kDepositFifo * layout::kInjFifoBytes + lane * kLaneBytes,
        kLaneBytes, false);
  }
  torus_dma::inject(hal_, f, d);
  data_injected_ += !own_fifo;
  track_send(h, d.inj_counter, Protocol::Eager);
  return h;
}

void Messenger::wait_deposited(uint32_t bytes) {
  if (!deposit_armed_) hal_.fail("wait_deposited: no deposit armed");
  while (deposit_bytes_ - torus_dma::counter_value(hal_, Bank::Reception, deposit_counter_) <
         std::min(bytes, deposit_bytes_)) {
    hal_.compute(cfg_.poll_cycles);
  }
}

void Messenger::wait_deposit() {
  if (!deposit_armed_) hal_.fail("wait_deposit: no deposit armed");
  for (;;) {
    progress();
    if (deposit_arrived_) break;
    idle();
  }
  deposit_armed_ = false;
}

int Messenger::post_recv(int src, uint32_t tag, uint64_t buf, uint32_t bytes) {
  const int h = next_handle_++;
  if (hal_.tracing()) {
    hal_.protocol_begin("dcmf receive", kTraceKeyDcmf | static_cast<uint64_t>(h),
                        {{"src", shape_.name(src).c_str()}, {"bytes", bytes}, {"tag", tag}});
  }
  Recv& r = recvs_[h];
  r.src = src;
  r.tag = tag;
  r.buf = buf;
  r.size = bytes;
  announced_.erase({src, tag});
  // Anything that arrived before the receive was posted.
  for (auto it = stash_.begin(); it != stash_.end();) {
    if (it->src != src || it->tag != tag) {
      ++it;
      continue;
    }
    Stashed s = std::move(*it);
    it = stash_.erase(it);
    if (s.type == kRts) {
      handle_rts(r, src, s.rts);
    } else {
      deliver_data(r, s.type, s.length, s.offset, s.data.data(),
                   static_cast<uint32_t>(s.data.size()));
    }
  }
  return h;
}

Messenger::Recv* Messenger::find_recv(int src, uint32_t tag) {
  for (auto& [h, r] : recvs_) {
    if (!r.done && r.src == src && r.tag == tag) return &r;
  }
  return nullptr;
}

void Messenger::set_length(Recv& r, uint32_t length) {
  if (r.sized) {
    if (length != r.size) {
      hal_.fail(fmt::format("message from node {} tag {}: packets say {} B and {} B", r.src, r.tag,
                            r.size, length));
    }
    return;
  }
  if (length > r.size) {
    hal_.fail(fmt::format("message from node {} tag {} is {} B; the posted receive has {} B", r.src,
                          r.tag, length, r.size));
  }
  // A receive may be posted larger than the message; it completes with the message's length.
  r.size = length;
  r.sized = true;
}

void Messenger::deliver_data(Recv& r, uint32_t type, uint32_t length, uint32_t offset,
                             const uint8_t* data, uint32_t n) {
  set_length(r, length);
  if (uint64_t{offset} + n > r.size) {
    hal_.fail(fmt::format("message from node {} tag {} has bytes {}..{} beyond its {} B length",
                          r.src, r.tag, offset, offset + n, r.size));
  }
  hal_.store(r.buf + offset, data, n);
  hal_.compute((n + cfg_.copy_bytes_per_cycle - 1) / cfg_.copy_bytes_per_cycle);
  bytes_copied_ += n;
  r.received_fifo += n;
  if (type == kEager) {
    if (r.received_fifo == r.size) r.done = true;
  } else if (r.counter >= 0) {
    // Split data after the RTS: account for it on the reception counter the direct put uses.
    torus_dma::decrement(hal_, Bank::Reception, static_cast<uint32_t>(r.counter), n);
  }
}

void Messenger::handle_rts(Recv& r, int src, const RtsRecord& rts) {
  set_length(r, rts.size);
  const uint32_t remaining = rts.size - r.received_fifo;
  if (remaining > 0 && free_recv_counters_.empty()) {
    // Every reception counter is in use: answer once one frees (retry_deferred).
    deferred_.push_back(Deferred{&r, src, rts});
    return;
  }
  Phase phase(hal_, "dcmf RTS");
  hal_.compute(cfg_.rts_cycles);
  dma::Descriptor put = rts.put;
  if (remaining == 0) {
    // The memory FIFO delivered everything before the RTS was handled: the answer's put
    // claims nothing from the sender's spent counter, but tells the sender it may reuse it.
    r.done = true;
    put.rec_counter = static_cast<uint16_t>(share_.first_group * cfg_.counters_per_group);
  } else {
    const uint32_t c = take_counter(free_recv_counters_, "reception");
    const uint64_t base = r.buf & ~uint64_t{15};
    torus_dma::set_counter(hal_, Bank::Reception, c, remaining, base, r.buf + r.size - 1);
    r.counter = static_cast<int>(c);
    put.rec_counter = static_cast<uint16_t>(c);
    put.put_offset = static_cast<uint32_t>(r.buf - base);
  }
  const uint64_t slot = scratch_slot();
  hal_.store(slot, put);
  dma::Descriptor ack = base_descriptor(src);
  ack.kind = dma::kRemoteGet;
  ack.src = slot;
  ack.length = sizeof put;
  ack.fifo = static_cast<uint8_t>(rts.reply_fifo);
  ack.inj_counter = static_cast<uint16_t>(control_counter_);
  torus_dma::inject(hal_, control_fifo_, ack);
}

void Messenger::handle_entry(const dma::FifoEntryHeader& h, uint64_t payload) {
  hal_.compute(cfg_.entry_cycles);
  const uint32_t type = (h.sw0 >> 28) & 3, tag = h.sw0 & kMaxTag;
  const int src = static_cast<int>(h.src) * cfg_.endpoints_per_node + static_cast<int>(h.sw0 >> 30);
  Recv* r = find_recv(src, tag);
  if (!r && on_new_message_ && announced_.insert({src, tag}).second) {
    const uint32_t length = type == kRts ? hal_.load<RtsRecord>(payload).size : h.sw1;
    on_new_message_(src, tag, length);
    r = find_recv(src, tag);
  }
  if (type == kRts) {
    const auto rts = hal_.load<RtsRecord>(payload);
    if (r) {
      handle_rts(*r, src, rts);
    } else {
      stash_.push_back(Stashed{src, tag, type, 0, rts.size, {}, rts});
    }
    return;
  }
  if (type != kEager && type != kSplitData) {
    hal_.fail(fmt::format("reception FIFO entry from node {} has unknown type {}", src, type));
  }
  std::vector<uint8_t> data(h.payload);
  hal_.load(payload, data.data(), data.size());
  if (r) {
    deliver_data(*r, type, h.sw1, h.offset, data.data(), h.payload);
  } else {
    stash_.push_back(Stashed{src, tag, type, h.offset, h.sw1, std::move(data), {}});
  }
}

void Messenger::check_counters() {
  std::vector<bool> groups_used(2 * static_cast<size_t>(cfg_.counter_groups), false);
  for (auto& [h, s] : sends_) {
    if (!s.done) groups_used[s.counter / cfg_.counters_per_group] = true;
  }
  for (auto& [h, r] : recvs_) {
    if (!r.done && r.counter >= 0)
      groups_used[cfg_.counter_groups + r.counter / cfg_.counters_per_group] = true;
  }
  if (deposit_armed_ && !deposit_arrived_) {
    groups_used[cfg_.counter_groups + deposit_counter_ / cfg_.counters_per_group] = true;
  }
  for (int i = 0; i < 2 * cfg_.counter_groups; ++i) {
    if (!groups_used[i]) continue;
    const Bank bank = i < cfg_.counter_groups ? Bank::Injection : Bank::Reception;
    const uint32_t g = static_cast<uint32_t>(i % cfg_.counter_groups);
    // A counter reaching zero between the read and the clear keeps the group's line high, so
    // no interrupt would announce it: read again after clearing until the group reads zero.
    for (uint64_t bits = torus_dma::hit_zero(hal_, bank, g); bits != 0;
         bits = torus_dma::hit_zero(hal_, bank, g)) {
      ++found_;
      // Clearing them lets the group's interrupt line fall, so the next one raises it again.
      hal_.reg_write(hs::torus::amap::kDmaRegs +
                         (bank == Bank::Injection ? dma::kInjCounterBank : dma::kRecCounterBank) +
                         counters::group_reg(g, counters::kClearHitZero),
                     bits, 8);
      for (uint32_t b = 0; b < 64; ++b) {
        if ((bits >> b) & 1) counter_hit(bank, g * cfg_.counters_per_group + b);
      }
    }
  }
}

void Messenger::counter_hit(Bank bank, uint32_t c) {
  if (bank == Bank::Injection) {
    for (auto& [h, s] : sends_) {
      if (!s.done && !s.zero && s.counter == c) {
        s.zero = true;
        if (!s.split) send_finished(s);  // split sends: scan_acknowledgements
      }
    }
    return;
  }
  deposit_arrived_ = deposit_arrived_ || (deposit_armed_ && c == deposit_counter_);
  for (auto& [h, r] : recvs_) {
    if (!r.done && r.counter == static_cast<int>(c)) {
      r.done = true;
      free_recv_counters_.push_back(c);
    }
  }
}

void Messenger::send_finished(Send& s) {
  s.done = true;
  remote_sends_ -= s.remote;
  free_send_counters_.push_back(s.counter);
}

void Messenger::scan_acknowledgements() {
  // Keep up with every acknowledgement while any can come, so the scan never falls a whole
  // FIFO behind; only a split's (it claims from the counter) answers a split send, since a
  // finished rendezvous may leave its put behind on a counter a split send now holds.
  if (unanswered_splits_ > 0 || remote_sends_ > 0) {
    const uint64_t head = torus_dma::injection_head(hal_, high_fifo_);
    while (ack_scan_ != head) {
      const auto put = hal_.load<dma::Descriptor>(ack_scan_);
      ack_scan_ += sizeof put;
      if (ack_scan_ >= high_fifo_.end) ack_scan_ = high_fifo_.start;
      for (auto& [h, s] : sends_) {
        if (s.done || !s.split || s.answered || s.counter != put.inj_counter ||
            !(put.flags & dma::kClaimFromCounter)) {
          continue;
        }
        s.answered = true;
        --unanswered_splits_;
      }
    }
  }
  bool waiting = false;
  for (auto& [h, s] : sends_) waiting |= !s.done && s.split && s.zero && s.answered;
  if (!waiting) return;
  // Descriptors the engine has finished in the data FIFO: all but those between HEAD and TAIL.
  const uint64_t head = torus_dma::injection_head(hal_, data_fifo_);
  const uint64_t size = data_fifo_.end - data_fifo_.start;
  const uint64_t queued = (data_fifo_.mine + size - head) % size / sizeof(dma::Descriptor);
  const uint64_t finished = data_injected_ - queued;
  for (auto& [h, s] : sends_) {
    if (!s.done && s.split && s.zero && s.answered && s.data_index < finished) send_finished(s);
  }
}

void Messenger::progress() {
  const uint64_t found_before = found_;
  dma::FifoEntryHeader h;
  uint64_t payload;
  while (torus_dma::peek_entry(hal_, rec_fifo_, h, payload)) {
    handle_entry(h, payload);
    torus_dma::pop_entry(hal_, rec_fifo_);
    ++found_;
  }
  check_counters();
  // The poll after a timed-out sleep found what an interrupt should have announced.
  if (irq_timed_out_ && found_ != found_before) hal_.irq_recovered("DCMF");
  if (found_ != found_before) idle_cycles_ = 0;
  irq_timed_out_ = false;
  scan_acknowledgements();
  retry_deferred();
}

void Messenger::retry_deferred() {
  while (!deferred_.empty() && !free_recv_counters_.empty()) {
    const Deferred d = deferred_.front();
    deferred_.pop_front();
    handle_rts(*d.recv, d.src, d.rts);
  }
}

void Messenger::block(uint32_t irq_mask) {
  if (!cfg_.interrupts) {
    poll_once();
    return;
  }
  const uint32_t lines = hal_.wait_irq(irq_mask, cfg_.irq_timeout_cycles);
  irq_timed_out_ = lines == 0;
  if (irq_timed_out_ || (lines & (1u << dma::kErrorIrq))) torus_dma::check_halted(hal_);
}

void Messenger::poll_once() {
  hal_.compute(cfg_.poll_cycles);
  idle_cycles_ += cfg_.poll_cycles;
  if (idle_cycles_ < cfg_.status_poll_cycles) return;
  idle_cycles_ = 0;
  torus_dma::check_halted(hal_);
}

uint32_t Messenger::irq_lines() const {
  uint32_t m = 1u << dma::reception_fifo_irq(static_cast<unsigned>(share_.reception_fifo)) |
               1u << dma::kErrorIrq;
  for (int g = share_.first_group; g < share_.first_group + share_.groups; ++g) {
    m |= 1u << dma::injection_counter_irq(static_cast<unsigned>(g));
    m |= 1u << dma::reception_counter_irq(static_cast<unsigned>(g));
  }
  return m;
}

void Messenger::idle() {
  // A split send waiting for the engine to pass its streams' descriptors gets no interrupt
  // when it does (a stream that claims nothing sends no packet): poll until then.
  for (const auto& [h, s] : sends_) {
    if (!s.done && s.split && s.zero) {
      poll_once();
      return;
    }
  }
  block(irq_lines());
}

bool Messenger::test_send(int handle) {
  auto it = sends_.find(handle);
  if (it == sends_.end()) hal_.fail(fmt::format("test_send({}): no such send", handle));
  progress();
  if (!it->second.done) return false;
  sends_.erase(it);
  hal_.protocol_end(kTraceKeyDcmf | static_cast<uint64_t>(handle), {});
  return true;
}

bool Messenger::test_recv(int handle, ReceiveInfo* info) {
  auto it = recvs_.find(handle);
  if (it == recvs_.end()) hal_.fail(fmt::format("test_recv({}): no such receive", handle));
  progress();
  const Recv& r = it->second;
  if (!r.done) return false;
  const ReceiveInfo got{r.size, r.received_fifo, r.size - r.received_fifo};
  if (info) *info = got;
  recvs_.erase(it);
  hal_.protocol_end(
      kTraceKeyDcmf | static_cast<uint64_t>(handle),
      {{"memory_fifo_bytes", got.memory_fifo_bytes}, {"direct_put_bytes", got.direct_put_bytes}});
  return true;
}

void Messenger::wait_send(int handle) {
  auto it = sends_.find(handle);
  if (it == sends_.end()) hal_.fail(fmt::format("wait_send({}): no such send", handle));
  for (;;) {
    progress();
    if (it->second.done) break;
    idle();
  }
  sends_.erase(it);
  hal_.protocol_end(kTraceKeyDcmf | static_cast<uint64_t>(handle), {});
}

ReceiveInfo Messenger::wait_recv(int handle) {
  auto it = recvs_.find(handle);
  if (it == recvs_.end()) hal_.fail(fmt::format("wait_recv({}): no such receive", handle));
  for (;;) {
    progress();
    if (it->second.done) break;
    idle();
  }
  const Recv& r = it->second;
  ReceiveInfo info{r.size, r.received_fifo, r.size - r.received_fifo};
  recvs_.erase(it);
  hal_.protocol_end(
      kTraceKeyDcmf | static_cast<uint64_t>(handle),
      {{"memory_fifo_bytes", info.memory_fifo_bytes}, {"direct_put_bytes", info.direct_put_bytes}});
  return info;
}

}  // namespace hs::fw::dcmf
