#include "hw/cpu/core.h"

#include <fmt/format.h>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>
#include <unordered_map>

#include "hw/cpu/core_activation.h"
#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/payload/extensions.h"
#include "tlm/trace/firmware_log.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs {

using sc_core::sc_time;

namespace {
#if defined(__SANITIZE_ADDRESS__)
constexpr int64_t kDefaultStack = 1 << 20;  // AddressSanitizer's redzones grow every frame
#else
constexpr int64_t kDefaultStack = 128 * 1024;
#endif
}  // namespace

Core::Core(sc_core::sc_module_name name, double default_clock_hz, int index, Execution execution)
    : sc_module(name),
      bus("bus"),
      index_(index),
      execution_(execution),
      origin_(std::string(this->name())),
      stats_(this->name()),
      loads_(stats_.counter("loads", "accesses", "memory loads")),
      stores_(stats_.counter("stores", "accesses", "memory stores")),
      bytes_loaded_(stats_.counter("bytes_loaded", "B", "bytes loaded")),
      bytes_stored_(stats_.counter("bytes_stored", "B", "bytes stored")),
      reg_accesses_(stats_.counter("register_accesses", "accesses", "device register accesses")),
      compute_cycles_(stats_.counter("compute_cycles", "cycles", "cycles spent computing")),
      irqs_taken_(stats_.counter("interrupts", "interrupts", "interrupts taken")),
      irqs_dropped_(stats_.counter("irq_dropped", "interrupts",
                                   "interrupts lost on the way to the core (injected faults)")),
      irqs_delayed_(stats_.counter("irq_delayed", "interrupts",
                                   "interrupts delivered late (injected faults)")),
      irq_timeouts_(
          stats_.counter("irq_timeouts", "waits", "interrupt waits that ended by their timeout")),
      irq_recoveries_(stats_.counter("irq_recovered_by_polling", "waits",
                                     "completions firmware found by polling after a timeout")),
      compute_time_(stats_.busy("compute_utilisation", "fraction of time computing")),
      stall_time_(
          stats_.busy("memory_stall", "fraction of time waiting on loads, stores, registers")),
      irq_wait_time_(stats_.busy("interrupt_wait", "fraction of time waiting for an interrupt")),
      load_latency_(stats_.histogram("load_latency", "ns", "latency of each load")),
      track_(TransactionTrace::instance().track(this->name())) {
  ParamScope p(this->name());
  clock_ = Clock(
      p.real("clock", default_clock_hz, "Hz", "core clock frequency", Range::between(1e6, 1e11)));
  access_cycles_ = static_cast<uint64_t>(
      p.integer("access_cycles", 1, "cycles", "cycles to issue a load, store or register access",
                Range::between(0, 1000)));
  irq_drop_ = std::make_unique<FaultInjector>(p, "irq_drop", "interrupts lost before the core",
                                              "interrupt");
  stack_param_ = ParamRegistry::instance().declared_name(std::string(this->name()) + ".stack_size");
  stack_bytes_ = static_cast<uint64_t>(p.integer("stack_size", kDefaultStack, "B",
                                                 "stack of the core's firmware",
                                                 Range::between(16 * 1024, 64 << 20)));
  irq_late_ =
      std::make_unique<FaultInjector>(p, "irq_late", "interrupts delivered late", "interrupt");
  irq_late_delay_ =
      sc_time(p.real("irq_late_delay", 10000, "ns", "how much later irq_late delivers an interrupt",
                     Range::between(0.001, 1e9)),
              sc_core::SC_NS);
  txn_.ext.initiator_id = index_;
  static const WaveEnum kStateNames{
      "core_state", {{0, "idle"}, {1, "compute"}, {2, "mem_stall"}, {3, "wait_irq"}, {4, "done"}}};
  SignalTrace::instance().add(state_, std::string(this->name()) + ".state", kStateNames);
}

// Only cores with firmware get a thread: a large machine's idle cores cost no process (and
// no kernel work when a finished process would be removed).
void Core::end_of_elaboration() {
  if (irq_late_->enabled()) {
    late_ = std::make_unique<Alarm>(origin_);
    sc_core::sc_spawn_options late;
    late.spawn_method();
    late.set_sensitivity(&late_->event());
    late.dont_initialize();
    sc_core::sc_spawn([this] { deliver_late(); }, sc_core::sc_gen_unique_name("late_irq"), &late);
  }
  if (!firmware_) return;
  timer_ = std::make_unique<Alarm>(origin_);
  sc_core::sc_spawn_options opts;
  sc_core::sc_process_handle firmware;
  if (execution_ == Execution::Fiber) {
    fiber_ = std::make_unique<Fiber>(
        name(), stack_bytes_, [this] { run(); }, stack_guarded_);
    opts.spawn_method();
    firmware = sc_core::sc_spawn([this] { step(); }, sc_core::sc_gen_unique_name("step"), &opts);
    if (bus_may_block_) {
      proxy_ = std::make_unique<BusProxy>();
      sc_core::sc_spawn_options bus;
      sc_core::sc_spawn(
          [this] {
            for (;;) {
              sc_core::wait(proxy_->start);
              this->bus->b_transport(*proxy_->gp, proxy_->delay);
              proxy_->busy = false;
              proxy_->done.notify(sc_core::SC_ZERO_TIME);
            }
          },
          sc_core::sc_gen_unique_name("bus"), &bus);
    }
  } else {
    opts.set_stack_size(static_cast<int>(stack_bytes_));
    firmware = sc_core::sc_spawn([this] { run(); }, sc_core::sc_gen_unique_name("run"), &opts);
  }
  if (Timeline::activations_kept()) {
    process_ = firmware.get_process_object();
    Timeline::set_activation_place(process_, this);
  }
}

Core::~Core() {
  if (process_) Timeline::set_activation_place(process_, nullptr);
}

void Core::transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  if (!proxy_ || !fiber_) return bus->b_transport(gp, delay);
  proxy_->gp = &gp;
  proxy_->delay = delay;
  proxy_->busy = true;
  proxy_->start.notify(sc_core::SC_ZERO_TIME);
  while (proxy_->busy && !unwinding()) block(proxy_->done);
  delay = proxy_->delay;
}

void Core::step() {
  try {
    fiber_->resume();
  } catch (const Fiber::StackOverflow& e) {
    throw std::runtime_error(fmt::format("{} (raise {})", e.what(), stack_param_));
  }
}

namespace {
constexpr const char* kNoEscapingException = "firmware: no exception escapes";
}  // namespace

void Core::run() {
  set_state(State::Compute);
  // No exception may leave the firmware's thread: unwinding across a coroutine stack is
  // what the kernel (and AddressSanitizer) handle worst. A firmware error fails the run
  // like any checker, naming the core; the kernel's own unwinding passes through.
  try {
    firmware_(*this);
  } catch (const Abort&) {
    // fail() has recorded why.
  } catch (const sc_core::sc_unwind_exception&) {
    throw;
  } catch (const Fiber::Unwind&) {
    throw;
  } catch (const std::exception& e) {
    CheckRegistry::instance().fail(kNoEscapingException, name(),
                                   fmt::format("firmware threw: {}", e.what()));
  } catch (...) {
    CheckRegistry::instance().fail(kNoEscapingException, name(),
                                   "firmware threw an exception that is not a std::exception");
  }
  while (!phases_.empty()) phase_end();
  set_state(State::Done);
}

void Core::access(tlm::tlm_command cmd, uint64_t addr, void* data, size_t len, bool mmio) {
  tlm::tlm_generic_payload& gp = txn_.gp;
  txn_.ext.mmio = mmio;
  prepare(gp, cmd, addr, static_cast<unsigned char*>(data), static_cast<unsigned int>(len));
  const sc_time start = hs::now();
  sc_time delay = clock_.cycles(access_cycles_);
  set_state(State::MemoryStall);
  transport(gp, delay);
  if (delay > sc_core::SC_ZERO_TIME) block(delay);
  set_state(State::Compute);
  const sc_time took = hs::now() - start;
  stall_time_.add(start, hs::now());
  if (cmd == tlm::TLM_READ_COMMAND && !mmio) load_latency_.sample(took.to_seconds() * 1e9);
  if (!gp.is_response_ok()) {
    fail(fmt::format("{} {} of {} B at {:#x} failed: {}", mmio ? "register" : "memory",
                     cmd == tlm::TLM_READ_COMMAND ? "read" : "write", len, addr,
                     gp.get_response_string()));
  }
}

void Core::load(uint64_t addr, void* dst, size_t len) {
  access(tlm::TLM_READ_COMMAND, addr, dst, len, false);
  ++loads_;
  bytes_loaded_ += len;
}

void Core::store(uint64_t addr, const void* src, size_t len) {
  access(tlm::TLM_WRITE_COMMAND, addr, const_cast<void*>(src), len, false);
  ++stores_;
  bytes_stored_ += len;
}

uint32_t Core::compare_and_swap(uint64_t addr, uint32_t expected, uint32_t desired) {
  // The read and the conditional write go out back to back, with their delays summed and
  // waited once: no other thread runs in between, which is what the L2 atomic guarantees.
  tlm::tlm_generic_payload& gp = txn_.gp;
  txn_.ext.mmio = false;
  uint32_t old = 0;
  sc_time delay = clock_.cycles(access_cycles_);
  prepare(gp, tlm::TLM_READ_COMMAND, addr, reinterpret_cast<unsigned char*>(&old), 4);
  transport(gp, delay);
  bool ok = gp.is_response_ok();
  if (ok && old == expected) {
    uint32_t v = desired;
    prepare(gp, tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<unsigned char*>(&v), 4);
    transport(gp, delay);
    ok = gp.is_response_ok();
  }
  set_state(State::MemoryStall);
  if (delay > sc_core::SC_ZERO_TIME) block(delay);
  set_state(State::Compute);
  ++loads_;
  if (!ok) fail(fmt::format("atomic compare-and-swap at {:#x} failed", addr));
  return old;
}

uint64_t Core::reg_read(uint64_t addr, unsigned width) {
  if (width != 4 && width != 8) fail(fmt::format("register read width {} (must be 4 or 8)", width));
  uint64_t v = 0;
  access(tlm::TLM_READ_COMMAND, addr, &v, width, true);
  ++reg_accesses_;
  return v;
}

void Core::reg_write(uint64_t addr, uint64_t value, unsigned width) {
  if (width != 4 && width != 8)
    fail(fmt::format("register write width {} (must be 4 or 8)", width));
  access(tlm::TLM_WRITE_COMMAND, addr, &value, width, true);
  ++reg_accesses_;
}

void Core::compute(uint64_t n) {
  if (n == 0) return;
  const sc_time t = clock_.cycles(n);
  compute_cycles_ += n;
  compute_time_.add(hs::now(), hs::now() + t);
  block(t);
}

uint64_t Core::cycles() {
  return clock_.cycle_at(hs::now());
}

void Core::raise_irq(unsigned line) {
  // Both injectors see every interrupt, so their event numbers agree; a drop wins.
  const bool drop = irq_drop_->hit();
  const bool late = irq_late_->hit();
  if (drop || late) {
    const nlohmann::json args = {{"line", line & 31}};
    TransactionTrace::instance().instant(track_, drop ? "irq dropped" : "irq delayed", hs::now(),
                                         &args);
  }
  if (drop) {
    ++irqs_dropped_;
    return;
  }
  if (late) {
    ++irqs_delayed_;
    late_irqs_.push_back({line & 31, true, hs::now() + irq_late_delay_});
    if (late_irqs_.size() == 1) late_->ring_in(irq_late_delay_);
    return;
  }
  deliver(line);
}

void keep_core_activations() {
  Timeline::keep_activations();
}

bool Core::append_place(std::vector<uint64_t>& key) const {
  const bool thread = execution_ != Execution::Fiber;
  // Woken by an interrupt (its delivery's delta notification), or else by its timer's ringing,
  // the core's last post (a core posts nothing while it waits but its late interrupts'
  // ringings, with irq_late faults only).
  if (irq_note_.woke_now()) {
    WakeKey::delta(key, thread, irq_note_);
  } else {
    const uint64_t posts = origin_.posts();
    WakeKey::ringing(key, thread,
                     Order::of(hs::now().value(), origin_.id(), posts > 0 ? posts - 1 : 0));
  }
  return true;
}

void append_activation_place(const Core& core, std::vector<uint64_t>& key) {
  core.append_place(key);
}

void Core::deliver(unsigned line) {
  if (Timeline::activations_kept() && state() == State::WaitIrq) irq_note_.note();
  irq_pending_ |= 1u << (line & 31);
  irq_event_.notify(sc_core::SC_ZERO_TIME);
}

void Core::deliver_late() {
  const LateIrq due = late_irqs_.front();
  late_irqs_.pop_front();
  if (due.live) deliver(due.line);
  if (!late_irqs_.empty()) late_->ring_in(late_irqs_.front().due - hs::now());
}

void Core::withdraw_irq(uint32_t lines) {
  irq_pending_ &= ~lines;
  for (auto& l : late_irqs_) l.live = l.live && (lines & (1u << l.line)) == 0;
}

uint32_t Core::take_irqs(uint32_t mask, const sc_time& start) {
  set_state(State::Compute);
  irq_wait_time_.add(start, hs::now());
  const uint32_t taken = irq_pending_ & mask;
  if (taken == 0) return 0;
  irq_pending_ &= ~mask;
  ++irqs_taken_;
  IrqIn::taken(taken);
  return taken;
}

uint32_t Core::wait_irq(uint32_t mask) {
  if (mask == 0) fail("wait_irq with an empty mask would wait forever");
  const sc_time start = hs::now();
  set_state(State::WaitIrq);
  while ((irq_pending_ & mask) == 0 && !unwinding()) block(irq_event_);
  return take_irqs(mask, start);
}

uint32_t Core::wait_irq(uint32_t mask, uint64_t timeout_cycles) {
  if (mask == 0) fail("wait_irq with an empty mask would wait forever");
  if (timeout_cycles == 0) fail("wait_irq with a timeout of 0 cycles would never wait");
  // Without interrupt faults no interrupt is lost or late, and the timer stays unarmed: the
  // wait ends as the interrupt arrives, as it would with the timer, and a run whose firmware
  // all waits for interrupts that never come goes idle, so the kernel reports it (a deadlock)
  // instead of polling forever.
  if (!irq_drop_->enabled() && !irq_late_->enabled()) return wait_irq(mask);
  const sc_time start = hs::now();
  const sc_time deadline = start + clock_.cycles(timeout_cycles);
  set_state(State::WaitIrq);
  while ((irq_pending_ & mask) == 0 && hs::now() < deadline && !unwinding()) {
    block(deadline - hs::now(), irq_event_);
  }
  const uint32_t taken = take_irqs(mask, start);
  if (taken == 0) {
    ++irq_timeouts_;
    if (track_ >= 0) TransactionTrace::instance().span(track_, "irq timeout", start, hs::now());
  }
  return taken;
}

uint32_t Core::wait_irq_for(uint32_t mask, uint64_t cycles) {
  if (cycles == 0) fail("wait_irq_for of 0 cycles would never wait");
  const sc_time start = hs::now();
  const sc_time deadline = start + clock_.cycles(cycles);
  set_state(State::WaitIrq);
  while ((mask == 0 || (irq_pending_ & mask) == 0) && hs::now() < deadline && !unwinding()) {
    block(deadline - hs::now(), irq_event_);
  }
  return take_irqs(mask, start);
}

void Core::irq_recovered(const char* protocol) {
  ++irq_recoveries_;
  if (track_ < 0) return;
  const nlohmann::json args = {{"protocol", protocol}};
  TransactionTrace::instance().instant(track_, "recovered by polling", hs::now(), &args);
}

void Core::phase_begin(const char* phase) {
  phases_.push_back({phase, hs::now()});
}

std::string Core::open_phases() const {
  std::string s;
  for (const OpenPhase& p : phases_) s += (s.empty() ? "" : " > ") + std::string(p.name);
  return s;
}

void Core::trace_open_phases(const sc_core::sc_time& at) const {
  if (track_ < 0) return;
  const nlohmann::json args = {{"unfinished", true}};
  for (const OpenPhase& p : phases_)
    TransactionTrace::instance().span(track_, p.name, p.start, at, &args);
}

void Core::phase_end() {
  if (phases_.empty()) return;
  TransactionTrace::instance().span(track_, phases_.back().name, phases_.back().start, hs::now());
  phases_.pop_back();
}

namespace {
nlohmann::json trace_args(std::initializer_list<fw::TraceArg> args) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& a : args) {
    if (a.text) {
      j[a.key] = a.text;
    } else {
      j[a.key] = a.number;
    }
  }
  return j;
}
}  // namespace

void Core::protocol_begin(const char* name, uint64_t key,
                          std::initializer_list<fw::TraceArg> args) {
  if (track_ < 0) return;
  TransactionTrace::instance().async_begin(track_, name, key, hs::now(), trace_args(args));
}

void Core::protocol_end(uint64_t key, std::initializer_list<fw::TraceArg> args) {
  if (track_ < 0) return;
  const nlohmann::json j = trace_args(args);
  TransactionTrace::instance().async_end(track_, key, hs::now(), &j);
}

void Core::log(const std::string& message) {
  FirmwareLog::instance().write(name(), track_, message, hs::now());
}

void Core::fail(const std::string& message) {
  CheckRegistry::instance().fail("firmware: assertions hold", name(), message);
  throw Abort{};
}

void Core::check(bool ok, const char* check, const std::string& message) {
  // Names are string literals: one registry look-up per name and process.
  static std::unordered_map<const char*, Check*> known;
  Check*& c = known[check];
  if (!c) c = &CheckRegistry::instance().check(check);
  ++c->evaluations;
  if (ok) return;
  CheckRegistry::instance().fail(*c, name(), message);
  throw Abort{};
}

}  // namespace hs
