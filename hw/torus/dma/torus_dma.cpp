#include "hw/torus/dma/torus_dma.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "hw/dma_counters/counter_bank_model.h"
#include "hw/dma_counters/counter_block_adapter.h"
#include "hw/dma_counters/verilated_counter_block.h"
#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::torus::dma {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

DmaConfig DmaConfig::declare(const std::string& prefix) {
  ParamScope p(prefix);
  DmaConfig c;
  c.clock_hz = p.real("clock", c.clock_hz, "Hz", "DMA engine clock", Range::between(1e6, 1e10));
  c.descriptor_cycles = static_cast<uint32_t>(
      p.integer("descriptor_cycles", c.descriptor_cycles, "cycles",
                "cycles to decode a fetched descriptor", Range::between(0, 10000)));
  c.packet_cycles = static_cast<uint32_t>(p.integer(
      "packet_cycles", c.packet_cycles, "cycles",
      "cycles per packet to build its header and hand it to the torus", Range::between(0, 10000)));
  c.injection_fifos =
      static_cast<int>(p.integer("injection_fifos", c.injection_fifos, "FIFOs",
                                 "injection descriptor FIFOs", Range::between(1, 32)));
  c.reception_fifos =
      static_cast<int>(p.integer("reception_fifos", c.reception_fifos, "FIFOs",
                                 "reception FIFOs (interrupt lines 8..14)", Range::between(1, 7)));
  c.reception_buffer = static_cast<uint32_t>(p.integer(
      "reception_buffer", c.reception_buffer, "packets",
      "packets the reception unit holds while writing them to memory", Range::between(1, 1024)));
  const auto groups = static_cast<uint32_t>(
      p.integer("counter_groups", 4, "groups", "counter groups per bank (interrupt lines per bank)",
                Range::between(1, 4)));
  const auto per_group = static_cast<uint32_t>(
      p.integer("counters_per_group", 64, "counters", "counters per group, a multiple of 8",
                Range::one_of({8, 16, 24, 32, 40, 48, 56, 64})));
  c.injection_bank = {groups, per_group, false};
  c.reception_bank = {groups, per_group, true};
  c.counter_timing.read_latency = static_cast<uint32_t>(
      p.integer("counter_read_latency", c.counter_timing.read_latency, "cycles",
                "cycles for a register read of the counter block", Range::between(0, 100)));
  c.counter_timing.hit_zero_latency = static_cast<uint32_t>(p.integer(
      "hit_zero_latency", c.counter_timing.hit_zero_latency, "cycles",
      "cycles from the decrement that reaches zero to the interrupt line", Range::between(0, 100)));
  c.rtl_counters =
      p.choice("counters", "tlm",
               "counter banks: tlm = the C++ model; rtl = rtl/dma_counter_bank.sv verilated and "
               "co-simulated on the DMA clock (same results, slower)",
               {"tlm", "rtl"}) == "rtl";
  if (c.rtl_counters) {
    counters::check_rtl_matches(prefix, c.injection_bank, c.counter_timing);
    counters::check_rtl_matches(prefix, c.reception_bank, c.counter_timing);
  }
  return c;
}

std::unique_ptr<counters::CounterBank> TorusDma::make_counters(const char* what,
                                                               const counters::BankShape& shape) {
  if (!cfg_.rtl_counters) {
    return std::make_unique<counters::CounterBankModel>(what, shape, clock_, cfg_.counter_timing);
  }
  auto block = counters::VerilatedCounterBlock::create(what, shape.reception);
  // Nodes not chosen for the waveform (torus.trace_nodes) are hidden from it.
  if (SignalTrace::instance().traces(std::string(name()) + "." + what)) {
    rtl_traces_.push_back(block.get());
  }
  return std::make_unique<counters::CounterBlockAdapter>(what, std::move(block), clock_,
                                                         cfg_.counter_timing);
}

void TorusDma::start_of_simulation() {
  for (auto* block : rtl_traces_) block->open_trace(clock_.period().value() / 2);
}

TorusDma::TorusDma(sc_core::sc_module_name name, int node, TorusNetwork& network,
                   const DmaConfig& cfg, int initiator_id)
    : sc_module(name),
      bus("bus"),
      registers("registers"),
      irq(std::string(this->name()) + ".irq"),
      node_(node),
      net_(network),
      origin_(std::string(this->name())),
      step_alarm_(origin_),
      trace_on_(TransactionTrace::instance().enabled()),
      cfg_(cfg),
      clock_(cfg.clock_hz),
      inj_(cfg.injection_fifos),
      rec_(cfg.reception_fifos),
      arrivals_([this](Packet*& p) { take(p); }),
      completions_("dma_rx_done", [this](Packet*& p) { complete(p); }),
      stats_(this->name()),
      descriptors_(stats_.counter("descriptors", "descriptors", "injection descriptors fetched")),
      sent_memfifo_(stats_.counter("sent_memory_fifo", "packets", "memory-FIFO packets sent")),
      sent_put_(stats_.counter("sent_direct_put", "packets", "direct-put packets sent")),
      sent_get_(stats_.counter("sent_remote_get", "packets", "remote-get packets sent")),
      bytes_sent_(stats_.counter("bytes_sent", "B", "payload bytes sent")),
      received_memfifo_(
          stats_.counter("received_memory_fifo", "packets", "reception FIFO entries written")),
      received_put_(stats_.counter("received_direct_put", "packets",
                                   "direct-put packets "
                                   "written")),
      received_get_(stats_.counter("received_remote_get", "packets",
                                   "remote-get packets "
                                   "served")),
      bytes_received_(stats_.counter("bytes_received", "B", "payload bytes received")),
      remote_descriptors_(stats_.counter("remote_descriptors", "descriptors",
                                         "descriptors appended to injection FIFOs by remote "
                                         "gets, without a core")),
      refusals_(stats_.counter("reception_refusals", "events",
                               "packets left waiting in the network: reception buffer or FIFO "
                               "full")),
      errors_(stats_.counter("errors", "errors", "descriptor, bounds, underflow and bus errors")),
      injection_busy_(stats_.busy("injection_utilisation",
                                  "fraction of time the injection "
                                  "engine works")) {
  ParamScope p(this->name());
  // The reception unit takes each packet in a method at its arrival: its writes go to a node
  // bus that never waits, and a worker thread per receiving node would cost the full machine
  // tens of thousands of thread stacks (two memory mappings each) when every node receives at
  // once.
  arrivals_.take_in_place();
  // Each node's engine draws its own faults from the parameters its nodes share.
  faults_ = std::make_unique<hs::dma::DescriptorFaults>(hs::dma::DescriptorFaults::declare(p),
                                                        stats_, this->name());
  // 50 ms: far beyond any wait for room in a torus injection queue, and beyond the messaging
  // layer's interrupt timeout (11.8 ms), so firmware that lost the error interrupt still
  // reports a halt before this check does.
  liveness_ = std::make_unique<LivenessCheck>(
      p, this->name(), [this] { return outstanding(); }, 5e7);
  inj_counters_ = make_counters("inj_counters", cfg.injection_bank);
  rec_counters_ = make_counters("rec_counters", cfg.reception_bank);
  stats_.derived("counter_requests", "requests",
                 "register accesses and decrements the two counter banks took",
                 [this] { return static_cast<double>(counter_requests()); });
  stats_.derived("counter_slipped", "requests",
                 "counter-bank requests that waited for a busy clock edge (one request per edge)",
                 [this] { return static_cast<double>(counter_slipped()); });
  inj_irq_ = std::make_unique<IrqRenumber>(irq, injection_counter_irq);
  rec_irq_ = std::make_unique<IrqRenumber>(irq, reception_counter_irq);
  inj_counters_->irq.bind(*inj_irq_);
  rec_counters_->irq.bind(*rec_irq_);
  txn_.ext.initiator_id = initiator_id;
  rx_txn_.ext.initiator_id = initiator_id;
  registers.register_b_transport(this, &TorusDma::b_transport);
  network.attach(node, this);
  // Listed in reports from the start, so a clean run shows what could have failed.
  for (Error e : {kBadDescriptor, kBusError, kBoundsError, kUnderflow, kBadFifo}) {
    checks_[e] = &CheckRegistry::instance().check(check_name(e));
  }
  SC_METHOD(injection_engine);
  sensitive << work_;
  dont_initialize();
  if (Timeline::activations_kept()) {
    // During elaboration the current process handle is the one made last: the engine.
    engine_place_ = std::make_unique<EnginePlace>(
        *this, sc_core::sc_get_current_process_handle().get_process_object());
  }
}

// The invariant each error code breaks, as reports name it.
const char* TorusDma::check_name(Error code) {
  switch (code) {
    case kBadDescriptor:
      return "torus DMA: injection descriptors are well formed";
    case kBusError:  // injection's bus errors halt it instead (halt_on_bus_error)
      return "torus DMA: the reception unit's memory writes succeed";
    case kBoundsError:
      return "torus DMA: direct puts stay within their reception counter's window";
    case kUnderflow:
      return "torus DMA: counters never underflow";
    case kBadFifo:
      return "torus DMA: FIFO numbers and FIFO registers are valid";
    case kNoError:
      break;
  }
  return "torus DMA: no error";
}

void TorusDma::fail(Error code, const std::string& why) {
  error_ = code;
  ++errors_;
  irq.raise(kErrorIrq);
  CheckRegistry::instance().fail(check_name(code), name(), why);
}

uint64_t TorusDma::advance(uint64_t pos, uint64_t start, uint64_t end, uint64_t bytes) {
  pos += bytes;
  if (pos >= end) pos = start + (pos - end);
  return pos;
}

uint64_t TorusDma::used(uint64_t head, uint64_t tail, uint64_t start, uint64_t end) {
  return tail >= head ? tail - head : (end - start) - (head - tail);
}

bool TorusDma::access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t len,
                      sc_time& delay) {
  prepare(txn_.gp, cmd, addr, data, len);
  bus->b_transport(txn_.gp, delay);
  if (txn_.gp.is_response_ok()) return true;
  halt_on_bus_error(addr, fmt::format("{} of {} B at {:#x} failed: {}",
                                      cmd == tlm::TLM_READ_COMMAND ? "read" : "write", len, addr,
                                      txn_.gp.get_response_string()));
  return false;
}

// Firmware learns of it from STATUS, the error registers and kErrorIrq; the descriptor stays at
// its FIFO's HEAD and the FIFO keeps its work, so the liveness check still sees a stuck engine
// if no firmware looks.
void TorusDma::halt_on_bus_error(uint64_t addr, const std::string& why) {
  error_ = kBusError;
  ++errors_;
  error_fifo_ = step_fifo_;
  halt_.halt(inj_[step_fifo_].head, addr, why, trace_on_ ? fifo_track(step_fifo_) : -1);
  irq.raise(kErrorIrq);
}

bool TorusDma::injection_pending() const {
  return std::any_of(inj_.begin(), inj_.end(), [](const InjFifo& q) { return q.has_work(); });
}

std::string TorusDma::outstanding() const {
  int fifos = 0, first = -1;
  for (size_t f = 0; f < inj_.size(); ++f) {
    if (!inj_[f].has_work()) continue;
    ++fifos;
    if (first < 0) first = static_cast<int>(f);
  }
  std::string s = fmt::format("{} injection FIFO(s) holding descriptors", fifos);
  if (first >= 0) {
    s += fmt::format(", FIFO {} at descriptor {:#x}", first, inj_[static_cast<size_t>(first)].head);
  }
  if (stalled_) s += "; the injection engine stalled";
  return s + halt_.describe();
}

// ---------------------------------------------------------------------------------------------
// Injection

int TorusDma::torus_queue(int fifo) const {
  return inj_[fifo].high() ? net_.high_priority_queue() : fifo % net_.config().injection_queues;
}

// High-priority FIFOs first, then normal ones, each round robin; a FIFO whose torus injection
// queue is full waits (back-pressure) while others proceed. A halted or stalled engine picks
// nothing.
int TorusDma::pick_fifo() {
  if (halt_.halted || stalled_) return -1;
  const int n = cfg_.injection_fifos;
  for (int pass = 0; pass < 2; ++pass) {
    const bool high = pass == 0;
    int& rr = high ? rr_high_ : rr_normal_;
    for (int i = 0; i < n; ++i) {
      const int f = (rr + i) % n;
      const InjFifo& q = inj_[f];
      if (q.high() != high || !q.has_work()) continue;
      if (q.loaded && net_.injection_full(node_, torus_queue(f))) continue;
      rr = (f + 1) % n;
      return f;
    }
  }
  return -1;
}

bool TorusDma::validate(const Descriptor& d, std::string& why) const {
  const TorusShape& s = net_.shape();
  if (d.kind > kRemoteGet) {
    why = fmt::format("kind {} (memory FIFO 0, direct put 1, remote get 2)", d.kind);
  } else if (d.dest[0] >= s.size(0) || d.dest[1] >= s.size(1) || d.dest[2] >= s.size(2)) {
    why = fmt::format("destination ({},{},{}) outside the {}x{}x{} torus", d.dest[0], d.dest[1],
                      d.dest[2], s.size(0), s.size(1), s.size(2));
  } else if (d.length == 0) {
    why = "length 0";
  } else if (d.inj_counter >= cfg_.injection_bank.counters()) {
    why = fmt::format("injection counter {} (bank has {})", d.inj_counter,
                      cfg_.injection_bank.counters());
  } else if (d.kind == kDirectPut && d.rec_counter >= cfg_.reception_bank.counters()) {
    why = fmt::format("reception counter {} (bank has {})", d.rec_counter,
                      cfg_.reception_bank.counters());
  } else if (d.kind == kMemoryFifo && d.fifo >= cfg_.reception_fifos) {
    why = fmt::format("reception FIFO {} (there are {})", d.fifo, cfg_.reception_fifos);
  } else if (d.kind == kRemoteGet &&
             (d.length % sizeof(Descriptor) != 0 || d.length > net_.config().max_payload() ||
              d.fifo >= cfg_.injection_fifos)) {
    why = fmt::format(
        "remote get of {} B into injection FIFO {}: must carry whole 32-byte descriptors, at "
        "most {} B, into one of {} FIFOs",
        d.length, d.fifo, net_.config().max_payload() / 32 * 32, cfg_.injection_fifos);
  } else if (d.kind == kRemoteGet && (d.flags & kClaimFromCounter)) {
    why = "remote get cannot claim from a counter";
  } else if ((d.flags & kDeposit) && d.kind == kRemoteGet) {
    why = "remote get cannot take the deposit bit";
  } else if ((d.flags & kDeposit) &&
             s.line_dimension(node_, s.node({{d.dest[0], d.dest[1], d.dest[2]}})) < 0) {
    why = fmt::format(
        "deposit bit with destination ({},{},{}): it must differ from this node {} in exactly one "
        "coordinate",
        d.dest[0], d.dest[1], d.dest[2], s.name(node_));
  } else if (d.vc > kVcHighPriority) {
    why = fmt::format("virtual channel request {} (0 dynamic, 1 deterministic, 2 high)", d.vc);
  } else {
    return true;
  }
  return false;
}

bool TorusDma::load_descriptor(int f, sc_time& delay) {
  InjFifo& q = inj_[f];
  if (!access(tlm::TLM_READ_COMMAND, q.head, reinterpret_cast<uint8_t*>(&q.d), sizeof q.d, delay)) {
    return false;
  }
  delay += clock_.cycles(cfg_.descriptor_cycles);
  ++descriptors_;
  q.loaded_from = q.head;
  const int track = trace_on_ ? fifo_track(f) : -1;
  if (faults_->corrupt(track)) q.d.src = hs::dma::kPoisonAddress;
  if (faults_->stall(track)) {
    stalled_ = true;  // the descriptor stays at HEAD, unfinished
    return false;
  }
  std::string why;
  ++checks_[kBadDescriptor]->evaluations;
  if (!validate(q.d, why)) {
    fail(kBadDescriptor, fmt::format("node {} injection FIFO {}: descriptor at {:#x}: {}",
                                     net_.shape().name(node_), f, q.head, why));
    q.head = advance(q.head, q.start, q.end, sizeof(Descriptor));
    if (!injection_pending()) liveness_->idle();
    return false;
  }
  q.loaded = true;
  q.progress = 0;
  q.loaded_at = step_start_;
  return true;
}

namespace {
constexpr int kUnmadeTrack = -2;  // -1 is the trace's "not traced"
const char* kind_label(uint8_t kind) {
  return kind == kMemoryFifo ? "memory-fifo" : kind == kDirectPut ? "direct-put" : "remote-get";
}
}  // namespace

int TorusDma::trace_track(int& slot, const std::string& name, const char* unit) {
  if (slot == kUnmadeTrack) {
    auto& trace = TransactionTrace::instance();
    slot = unit ? trace.counter(name, unit) : trace.track(name);
  }
  return slot;
}

int TorusDma::fifo_track(int f) {
  if (fifo_tracks_.empty()) fifo_tracks_.assign(inj_.size(), kUnmadeTrack);
  return trace_track(fifo_tracks_[static_cast<size_t>(f)],
                     fmt::format("{}.injection fifo {}", name(), f), nullptr);
}

void TorusDma::trace_descriptor(int f) {
  const int track = fifo_track(f);
  if (track < 0) return;
  const InjFifo& q = inj_[static_cast<size_t>(f)];
  const Descriptor& d = q.d;
  const nlohmann::json args = {
      {"address", q.loaded_from},
      {"kind", kind_label(d.kind)},
      {"src", d.src},
      {"length", d.length},
      {"sent", q.progress},
      {"dest", net_.shape().name(net_.shape().node({{d.dest[0], d.dest[1], d.dest[2]}}))},
      {"inj_counter", d.inj_counter},
      {"rec_counter", d.rec_counter},
      {"put_offset", d.put_offset},
      {"fifo", d.fifo},
      {"vc", d.vc},
      {"flags", d.flags}};
  TransactionTrace::instance().span(track, kind_label(d.kind), q.loaded_at, hs::now(), &args);
}

void TorusDma::trace_fifo(bool injection, size_t f) {
  if (occupancy_tracks_.empty()) occupancy_tracks_.assign(inj_.size() + rec_.size(), kUnmadeTrack);
  const uint64_t start = injection ? inj_[f].start : rec_[f].start;
  const uint64_t end = injection ? inj_[f].end : rec_[f].end;
  const uint64_t head = injection ? inj_[f].head : rec_[f].head;
  const uint64_t tail = injection ? inj_[f].tail : rec_[f].tail;
  const uint64_t unit = injection ? sizeof(Descriptor) : kFifoSlot;
  if (end <= start) return;  // not set up yet
  const int track = trace_track(
      occupancy_tracks_[(injection ? 0 : inj_.size()) + f],
      fmt::format("{}.{} fifo {} occupancy", name(), injection ? "injection" : "reception", f),
      injection ? "descriptors" : "entries");
  TransactionTrace::instance().count(track, hs::now(),
                                     static_cast<double>(used(head, tail, start, end) / unit));
}

void TorusDma::trace_counter(bool reception, uint32_t c) {
  const counters::CounterBank& bank = reception ? *rec_counters_ : *inj_counters_;
  const size_t per_bank = bank.shape().counters();
  if (c >= per_bank) return;
  if (counter_tracks_.empty()) {
    counter_tracks_.assign(inj_counters_->shape().counters() + rec_counters_->shape().counters(),
                           kUnmadeTrack);
  }
  const size_t i = (reception ? inj_counters_->shape().counters() : 0) + c;
  const int track = trace_track(
      counter_tracks_[i],
      fmt::format("{}.{} counter {}", name(), reception ? "reception" : "injection", c), "bytes");
  TransactionTrace::instance().count(track, hs::now(), bank.value(c));
}

// Room appeared (FIFO slots, reception buffer): packets the engine refused may now land.
void TorusDma::retry_refused() {
  if (!refused_) return;
  refused_ = false;
  net_.reception_ready(node_);
}

void TorusDma::finish_descriptor(int f) {
  InjFifo& q = inj_[f];
  if (trace_on_) trace_descriptor(f);
  q.loaded = false;
  q.head = advance(q.head, q.start, q.end, sizeof(Descriptor));
  liveness_->progress();
  if (!injection_pending()) liveness_->idle();
  if (trace_on_) trace_fifo(true, static_cast<size_t>(f));
  retry_refused();  // a refused remote get may now append its descriptors
}

// The first half of a packet: its payload is read and its header built, which takes `delay`;
// inject_packet sends it when that time has passed. False if the descriptor ended instead (the
// other stream of a split transfer claimed the rest, or the read failed).
bool TorusDma::build_packet(int f, sc_time& delay) {
  InjFifo& q = inj_[f];
  const Descriptor& d = q.d;
  const uint32_t left = d.length - q.progress;
  uint32_t n = std::min(net_.config().max_payload(), left);
  if (d.kind == kRemoteGet) n = d.length;
  if (d.flags & kClaimFromCounter) n = std::min(n, inj_counters_->value(d.inj_counter));
  if (n == 0) {  // the other stream of a split transfer claimed the rest
    finish_descriptor(f);
    return false;
  }
  const uint64_t lo =
      (d.flags & kDescending) ? d.src + d.length - q.progress - n : d.src + q.progress;
  Packet* p = net_.pool().take();
  if (!access(tlm::TLM_READ_COMMAND, lo, p->payload, n, delay)) {
    net_.pool().give(p);  // halted: the descriptor stays loaded, at its FIFO's HEAD
    return false;
  }
  delay += clock_.cycles(cfg_.packet_cycles);
  building_ = {p, lo, n};
  return true;
}

void TorusDma::inject_packet(int f) {
  InjFifo& q = inj_[f];
  const Descriptor& d = q.d;
  const bool claim = d.flags & kClaimFromCounter;
  const Building b = building_;
  building_ = {};
  Packet* p = b.packet;
  const uint64_t lo = b.lo;
  const uint32_t n = b.bytes;
  const TorusShape& s = net_.shape();
  p->src = node_;
  p->dest = s.node({{d.dest[0], d.dest[1], d.dest[2]}});
  p->chunks = static_cast<uint8_t>(net_.config().chunks_for(n));
  p->kind = d.kind == kMemoryFifo  ? PacketKind::MemoryFifo
            : d.kind == kDirectPut ? PacketKind::DirectPut
                                   : PacketKind::RemoteGet;
  p->vc_class = d.vc == kVcHighPriority ? VcClass::HighPriority
                : d.vc == kVcDynamic    ? VcClass::Dynamic
                                        : VcClass::Deterministic;
  p->deposit = d.flags & kDeposit;
  p->counter = d.rec_counter;
  p->fifo = d.fifo;
  p->offset = d.put_offset + static_cast<uint32_t>(lo - d.src);
  p->sw0 = d.sw0;
  p->sw1 = d.length;
  p->payload_bytes = static_cast<uint16_t>(n);
  if (!net_.inject(torus_queue(f), p)) {
    // pick_fifo() saw room and only this engine fills the queue: a model bug.
    throw std::logic_error(std::string(name()) + ": torus injection queue full after check");
  }
  const auto r = inj_counters_->decrement(d.inj_counter, n + fault_counter_skew_, false, 0, 0);
  fault_counter_skew_ = 0;
  if (trace_on_) trace_counter(false, d.inj_counter);
  ++checks_[kUnderflow]->evaluations;
  if (r.underflow) {
    fail(kUnderflow, fmt::format("node {} injection counter {} underflowed: a {} B packet from "
                                 "the descriptor at {:#x} exceeded its value",
                                 s.name(node_), d.inj_counter, n, q.loaded_from));
  }
  q.progress += n;
  liveness_->progress();
  ++totals_.packets_sent;
  totals_.bytes_sent += n;
  bytes_sent_ += n;
  ++(d.kind == kMemoryFifo ? sent_memfifo_ : d.kind == kDirectPut ? sent_put_ : sent_get_);
  const InjectionEvent ev{node_, f, q.high(), &d, lo, lo + n, inj_counters_->value(d.inj_counter),
                          p};
  for (auto& o : injection_observers_) o(ev);
  if (q.progress == d.length || (claim && inj_counters_->value(d.inj_counter) == 0)) {
    finish_descriptor(f);
  }
}

TorusDma::EnginePlace::EnginePlace(const TorusDma& dma, const sc_core::sc_object* process)
    : dma_(dma), process_(process) {
  Timeline::set_activation_place(process_, this);
}

TorusDma::EnginePlace::~EnginePlace() {
  Timeline::set_activation_place(process_, nullptr);
}

bool TorusDma::EnginePlace::append_place(std::vector<uint64_t>& key) const {
  if (wake == Wake::Ringing) return dma_.step_alarm_.append_wake(key, false);
  const DeltaNote& note = wake == Wake::Due ? due : work;
  if (!note.woke_now()) return false;
  WakeKey::delta(key, false, note);
  return true;
}

void TorusDma::wake_engine() {
  if (engine_place_) engine_place_->work.note();
  work_.notify(SC_ZERO_TIME);
}

// One activation per step boundary: the step whose time has come finishes (a descriptor
// decoded, or a packet built and injected), then the next starts; a step that takes time
// returns until then (next_trigger), and an engine with nothing to send sleeps on `work_`.
// A step finishes one delta cycle after its time comes, behind the network's own actions at
// that time, as it did when the engine was a thread (threads run after methods): a packet
// injected then joins the network's arbitration in the same order.
void TorusDma::injection_engine() {
  if (engine_place_) {
    using Wake = EnginePlace::Wake;
    engine_place_->wake = step_ == Step::None ? Wake::Work : step_due_ ? Wake::Due : Wake::Ringing;
  }
  if (step_ != Step::None) {
    if (!step_due_) {
      if (engine_place_) engine_place_->due.note(true);
      step_due_ = true;
      next_trigger(SC_ZERO_TIME);
      return;
    }
    step_due_ = false;
    finish_step();
  }
  for (;;) {
    const int f = pick_fifo();
    if (f < 0) return;  // static sensitivity: `work_` wakes it
    step_fifo_ = f;
    step_start_ = hs::now();
    sc_time delay = SC_ZERO_TIME;
    if (!inj_[f].loaded) {
      load_descriptor(f, delay);
      step_ = Step::Descriptor;
    } else if (build_packet(f, delay)) {
      step_ = Step::Packet;
    } else {
      step_ = Step::Descriptor;
      delay = SC_ZERO_TIME;  // the descriptor ended without a packet: nothing to wait for
    }
    if (delay > SC_ZERO_TIME) {
      step_alarm_.ring_in(delay);
      next_trigger(step_alarm_.event());
      return;
    }
    finish_step();
  }
}

void TorusDma::finish_step() {
  if (step_ == Step::Packet) inject_packet(step_fifo_);
  step_ = Step::None;
  injection_busy_.add(step_start_, hs::now());
}

void TorusDma::injection_ready(int) {
  wake_engine();
}

// ---------------------------------------------------------------------------------------------
// Reception

bool TorusDma::accept(const Packet& p) {
  auto refuse = [&] {
    ++refusals_;
    refused_ = true;
    return false;
  };
  if (rx_held_ >= cfg_.reception_buffer) return refuse();
  if (p.kind == PacketKind::MemoryFifo && p.fifo < rec_.size()) {
    RecFifo& r = rec_[p.fifo];
    const uint64_t slots = (r.end - r.start) / kFifoSlot;
    if (slots == 0 || used(r.head, r.tail, r.start, r.end) / kFifoSlot + r.reserved + 1 >= slots) {
      return refuse();
    }
    ++r.reserved;
  } else if (p.kind == PacketKind::RemoteGet && p.fifo < inj_.size()) {
    InjFifo& q = inj_[p.fifo];
    const uint64_t slots = (q.end - q.start) / sizeof(Descriptor);
    const uint64_t n = p.payload_bytes / sizeof(Descriptor);
    if (slots == 0 ||
        used(q.head, q.tail, q.start, q.end) / sizeof(Descriptor) + q.reserved + n >= slots) {
      return refuse();
    }
    q.reserved += static_cast<uint32_t>(n);
  }
  ++rx_held_;
  return true;
}

void TorusDma::deliver(Packet* p) {
  arrivals_.push(hs::now(), p);
}

void TorusDma::take(Packet* p) {
  sc_time delay = SC_ZERO_TIME;
  auto write = [&](uint64_t addr, const void* src, uint32_t len) {
    prepare(rx_txn_.gp, tlm::TLM_WRITE_COMMAND, addr,
            static_cast<unsigned char*>(const_cast<void*>(src)), len);
    bus->b_transport(rx_txn_.gp, delay);
    ++checks_[kBusError]->evaluations;
    if (!rx_txn_.gp.is_response_ok()) {
      fail(kBusError, fmt::format("reception write of {} B at {:#x} failed: {}", len, addr,
                                  rx_txn_.gp.get_response_string()));
    }
  };
  const std::string& where = net_.shape().name(node_);
  switch (p->kind) {
    case PacketKind::Synthetic:
      break;
    case PacketKind::DirectPut: {
      ++checks_[kBoundsError]->evaluations;
      if (p->counter >= cfg_.reception_bank.counters()) {
        fail(kBoundsError, fmt::format("node {}: direct put from node {} names reception "
                                       "counter {} (bank has {})",
                                       where, p->src, p->counter, cfg_.reception_bank.counters()));
        p->payload_bytes = 0;
        break;
      }
      const uint64_t addr = rec_counters_->base_address(p->counter) + p->offset;
      if (rec_counters_->decrement(p->counter, 0, true, addr, p->payload_bytes).out_of_bounds) {
        fail(kBoundsError,
             fmt::format("node {}: direct put of {} B at {:#x} (counter {} base + {:#x}) lies "
                         "outside the counter's [base, max] window; not written",
                         where, p->payload_bytes, addr, p->counter, p->offset));
        p->payload_bytes = 0;
        break;
      }
      write(addr, p->payload, p->payload_bytes);
      break;
    }
    case PacketKind::MemoryFifo: {
      ++checks_[kBadFifo]->evaluations;
      if (p->fifo >= rec_.size()) {
        fail(kBadFifo, fmt::format("node {}: memory-FIFO packet from node {} for reception "
                                   "FIFO {} (there are {})",
                                   where, p->src, p->fifo, rec_.size()));
        break;
      }
      RecFifo& r = rec_[p->fifo];
      const uint64_t slot = advance(r.tail, r.start, r.end, uint64_t{r.writing} * kFifoSlot);
      ++r.writing;
      uint8_t entry[kFifoSlot];
      const FifoEntryHeader h{p->offset, p->sw0, p->sw1, static_cast<uint32_t>(p->src),
                              p->payload_bytes};
      std::memcpy(entry, &h, sizeof h);
      std::memcpy(entry + sizeof h, p->payload, p->payload_bytes);
      write(slot, entry, static_cast<uint32_t>(sizeof h + p->payload_bytes));
      break;
    }
    case PacketKind::RemoteGet: {
      ++checks_[kBadFifo]->evaluations;
      if (p->fifo >= inj_.size()) {
        fail(kBadFifo, fmt::format("node {}: remote get from node {} for injection FIFO {} "
                                   "(there are {})",
                                   where, p->src, p->fifo, inj_.size()));
        break;
      }
      InjFifo& q = inj_[p->fifo];
      const uint32_t n = p->payload_bytes / sizeof(Descriptor);
      for (uint32_t i = 0; i < n; ++i) {
        const uint64_t slot =
            advance(q.tail, q.start, q.end, uint64_t{q.writing + i} * sizeof(Descriptor));
        write(slot, p->payload + i * sizeof(Descriptor), sizeof(Descriptor));
      }
      q.writing += n;
      break;
    }
  }
  // Entries become visible in arrival order, when their memory writes have finished.
  const sc_time done = std::max(hs::now() + delay, last_completion_);
  last_completion_ = done;
  completions_.push(done, p);
}

void TorusDma::complete(Packet*& p) {
  uint64_t addr = 0;
  switch (p->kind) {
    case PacketKind::Synthetic:
      break;
    case PacketKind::DirectPut:
      if (p->payload_bytes > 0) {
        addr = rec_counters_->base_address(p->counter) + p->offset;
        const auto r = rec_counters_->decrement(p->counter, p->payload_bytes, false, 0, 0);
        if (trace_on_) trace_counter(true, p->counter);
        ++checks_[kUnderflow]->evaluations;
        if (r.underflow) {
          fail(kUnderflow,
               fmt::format("node {}: reception counter {} underflowed by a {} B "
                           "direct put from node {}",
                           net_.shape().name(node_), p->counter, p->payload_bytes, p->src));
        }
        ++received_put_;
      }
      break;
    case PacketKind::MemoryFifo:
      if (p->fifo < rec_.size()) {
        RecFifo& r = rec_[p->fifo];
        addr = r.tail;
        r.tail = advance(r.tail, r.start, r.end, kFifoSlot);
        if (trace_on_) trace_fifo(false, p->fifo);
        --r.writing;
        --r.reserved;
        ++received_memfifo_;
        if (r.config & kConfigIrq) irq.raise(reception_fifo_irq(p->fifo));
      }
      break;
    case PacketKind::RemoteGet:
      if (p->fifo < inj_.size()) {
        InjFifo& q = inj_[p->fifo];
        const uint32_t n = p->payload_bytes / sizeof(Descriptor);
        q.tail = advance(q.tail, q.start, q.end, uint64_t{n} * sizeof(Descriptor));
        if (trace_on_) trace_fifo(true, p->fifo);
        q.writing -= n;
        q.reserved -= n;
        remote_descriptors_ += n;
        liveness_->busy();
        ++received_get_;
        const RemoteGetEvent ev{node_, p->fifo, p->src, n};
        for (auto& o : remote_get_observers_) o(ev);
        wake_engine();
      }
      break;
  }
  ++totals_.packets_received;
  totals_.bytes_received += p->payload_bytes;
  bytes_received_ += p->payload_bytes;
  const ReceptionEvent ev{node_, p, addr};
  for (auto& o : reception_observers_) o(ev);
  net_.pool().give(p);
  --rx_held_;
  retry_refused();
}

// ---------------------------------------------------------------------------------------------
// Registers

bool TorusDma::reg_read(uint64_t off, unsigned width, uint64_t& v, sc_time& delay) {
  if (off >= kRecCounterBank && off < kRecCounterBank + counters::kBankSpan) {
    return counters::feel(
        rec_counters_->read(static_cast<uint32_t>(off - kRecCounterBank), width, v), delay);
  }
  if (off >= kInjCounterBank && off < kInjCounterBank + counters::kBankSpan) {
    return counters::feel(
        inj_counters_->read(static_cast<uint32_t>(off - kInjCounterBank), width, v), delay);
  }
  if (off == kErrorReg) {
    v = error_;
    return width == 4;
  }
  if (off == kRxBytesReg) {
    v = totals_.bytes_received;
    return width == 8;
  }
  switch (off) {
    case kStatusReg:
      v = halt_.halted ? kStatusHalted : 0;
      return width == 4;
    case kErrorFifoReg:
      v = halt_.halted ? static_cast<uint64_t>(error_fifo_) : 0;
      return width == 4;
    case kErrorDescriptorReg:
      v = halt_.descriptor;
      return width == 8;
    case kErrorAddressReg:
      v = halt_.address;
      return width == 8;
    default:
      break;
  }
  const bool injection = off < kRecFifoBase;
  const uint64_t base = injection ? kInjFifoBase : kRecFifoBase;
  const uint64_t stride = injection ? kInjFifoStride : kRecFifoStride;
  const uint64_t idx = (off - base) / stride, reg = (off - base) % stride;
  if (off >= kErrorReg || idx >= (injection ? inj_.size() : rec_.size())) return false;
  uint64_t start, end, head, tail, config;
  if (injection) {
    const InjFifo& q = inj_[idx];
    start = q.start, end = q.end, head = q.head, tail = q.tail, config = q.config;
  } else {
    const RecFifo& r = rec_[idx];
    start = r.start, end = r.end, head = r.head, tail = r.tail, config = r.config;
  }
  switch (reg) {
    case kFifoStart:
      v = start;
      return width == 8;
    case kFifoEnd:
      v = end;
      return width == 8;
    case kFifoHead:
      v = head;
      return width == 8;
    case kFifoTail:
      v = tail;
      return width == 8;
    case kFifoConfig:
      v = config;
      return width == 4;
    default:
      return false;
  }
}

bool TorusDma::reg_write(uint64_t off, uint64_t v, unsigned width, sc_time& delay) {
  for (const bool reception : {true, false}) {
    const uint64_t bank = reception ? kRecCounterBank : kInjCounterBank;
    if (off < bank || off >= bank + counters::kBankSpan) continue;
    const auto reg = static_cast<uint32_t>(off - bank);
    const bool ok =
        counters::feel((reception ? rec_counters_ : inj_counters_)->write(reg, v, width), delay);
    // Value, increment and decrement registers change a counter's value.
    if (ok && trace_on_ && reg < counters::kGroupBase) {
      trace_counter(reception, reg / counters::kCounterStride);
    }
    return ok;
  }
  const bool injection = off < kRecFifoBase;
  const uint64_t base = injection ? kInjFifoBase : kRecFifoBase;
  const uint64_t stride = injection ? kInjFifoStride : kRecFifoStride;
  const uint64_t idx = (off - base) / stride, reg = (off - base) % stride;
  if (off >= kErrorReg || idx >= (injection ? inj_.size() : rec_.size())) return false;
  const uint64_t align = injection ? sizeof(Descriptor) : kFifoSlot;
  auto in_ring = [&](uint64_t start, uint64_t end, uint64_t pos) {
    return pos >= start && pos < end && (pos - start) % align == 0;
  };
  const std::string what = fmt::format("{} FIFO {}", injection ? "injection" : "reception", idx);
  if (reg == kFifoConfig) {
    if (width != 4) return false;
    (injection ? inj_[idx].config : rec_[idx].config) = static_cast<uint32_t>(v);
    return true;
  }
  if (width != 8) return false;
  uint64_t& start = injection ? inj_[idx].start : rec_[idx].start;
  uint64_t& end = injection ? inj_[idx].end : rec_[idx].end;
  uint64_t& head = injection ? inj_[idx].head : rec_[idx].head;
  uint64_t& tail = injection ? inj_[idx].tail : rec_[idx].tail;
  ++checks_[kBadFifo]->evaluations;
  switch (reg) {
    case kFifoStart:
      if (v % align != 0) {
        fail(kBadFifo, fmt::format("{} START {:#x} is not {}-byte aligned", what, v, align));
        return true;
      }
      start = head = tail = v;
      return true;
    case kFifoEnd:
      if (v <= start || (v - start) % align != 0) {
        fail(kBadFifo, fmt::format("{} END {:#x} must lie above START {:#x} by a multiple of {} B",
                                   what, v, start, align));
        return true;
      }
      end = v;
      return true;
    case kFifoTail:
      if (!injection) return false;  // the engine owns a reception FIFO's tail
      if (!in_ring(start, end, v)) {
        fail(kBadFifo, fmt::format("{} TAIL {:#x} outside [{:#x}, {:#x}) or misaligned", what, v,
                                   start, end));
        return true;
      }
      tail = v;
      if (head != tail) liveness_->busy();
      wake_engine();
      return true;
    case kFifoHead:
      if (injection) return false;  // the engine owns an injection FIFO's head
      if (!in_ring(start, end, v)) {
        fail(kBadFifo, fmt::format("{} HEAD {:#x} outside [{:#x}, {:#x}) or misaligned", what, v,
                                   start, end));
        return true;
      }
      head = v;
      retry_refused();
      return true;
    default:
      return false;
  }
}

void TorusDma::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  const unsigned width = gp.get_data_length();
  const uint64_t off = gp.get_address();
  uint64_t v = 0;
  bool ok;
  if (gp.is_read()) {
    ok = (width == 4 || width == 8) && reg_read(off, width, v, delay);
    if (ok) std::memcpy(gp.get_data_ptr(), &v, width);
  } else {
    std::memcpy(&v, gp.get_data_ptr(), std::min(width, 8u));
    ok = (width == 4 || width == 8) && reg_write(off, v, width, delay);
    // Firmware moving a FIFO's head or tail changes its occupancy.
    if (ok && trace_on_ && off < kErrorReg) {
      const bool injection = off < kRecFifoBase;
      const uint64_t f = (off - (injection ? kInjFifoBase : kRecFifoBase)) /
                         (injection ? kInjFifoStride : kRecFifoStride);
      trace_fifo(injection, static_cast<size_t>(f));
    }
  }
  delay += clock_.cycles(cfg_.counter_timing.read_latency);
  gp.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

}  // namespace hs::torus::dma
