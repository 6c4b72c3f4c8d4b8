#include "sw/cell/program/ppe_threads.h"

#include <fmt/format.h>
#include <sys/mman.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "sw/cell/runtime/libspe2_abi.h"
#include "tlm/kernel/fiber.h"
#include "tlm/kernel/now.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::fw::cell_program {

namespace {
constexpr uint64_t kGuard = 4096;  // a thread stack's guard page
constexpr double kDone = 1e-6;     // work left below this is done (rounding)
const char* const kHwNames[] = {"hw thread 0", "hw thread 1"};
}  // namespace

struct PpeThreads::Thread {
  enum class State { OnHw, Ready, WaitIrq, Joining, Done };
  unsigned long id = 0;
  std::string name;  // "thread 2"
  std::unique_ptr<ThreadHal> hal;
  user::ProgramInstance::Thread own;
  user::ProgramInstance::Thread* state = &own;  // the main thread's is the program's own
  ucontext_t ctx{};
  void* stack = nullptr;
  State st = State::Ready;
  int hw = -1;           // the hardware thread it is on
  double work_left = 0;  // a preempted computation's rest, at the full rate
  uint32_t mask = 0, got = 0;
  uint64_t deadline = 0;  // a timed wait's end, in cycles (0: none)
  Thread* joining = nullptr;
  Entry entry = nullptr;
  void* (*fn)(void*) = nullptr;
  void* arg = nullptr;
  void* result = nullptr;
  bool detached = false;
  int track = -1;  // its own track
  // Its host stack as AddressSanitizer knows it (the main thread's is learned when it is first
  // left), and the fake frames it keeps while switched out: told at each switch, as Fiber does.
  const void* stack_bottom = nullptr;
  size_t stack_size = 0;
  void* fake_stack = nullptr;
};

// A thread's view of the PPE core: accesses are the core's, stalling the thread's hardware
// thread; computations and interrupt waits are the scheduler's; spans go on the thread's own
// track (the main thread's on the core's).
class PpeThreads::ThreadHal : public Hal {
 public:
  ThreadHal(PpeThreads& owner, Thread& t) : o_(owner), t_(t), core_(owner.core_) {}
  void load(uint64_t addr, void* dst, size_t len) override {
    o_.access(t_, [&] { core_.load(addr, dst, len); });
  }
  void store(uint64_t addr, const void* src, size_t len) override {
    o_.access(t_, [&] { core_.store(addr, src, len); });
  }
  using Hal::load;
  using Hal::store;
  uint32_t compare_and_swap(uint64_t addr, uint32_t expected, uint32_t desired) override {
    return o_.access(t_, [&] { return core_.compare_and_swap(addr, expected, desired); });
  }
  uint64_t reg_read(uint64_t addr, unsigned width) override {
    return o_.access(t_, [&] { return core_.reg_read(addr, width); });
  }
  void reg_write(uint64_t addr, uint64_t value, unsigned width) override {
    o_.access(t_, [&] { core_.reg_write(addr, value, width); });
  }
  void compute(uint64_t n) override { o_.compute(t_, n); }
  uint64_t cycles() override { return core_.cycles(); }
  double clock_hz() const override { return core_.clock_hz(); }
  uint32_t wait_irq(uint32_t mask) override { return o_.wait_irq(t_, mask, 0); }
  uint32_t wait_irq(uint32_t mask, uint64_t) override { return o_.wait_irq(t_, mask, 0); }
  uint32_t wait_irq_for(uint32_t mask, uint64_t cycles) override {
    if (cycles == 0) core_.fail("wait_irq_for of 0 cycles would never wait");
    return o_.wait_irq(t_, mask, cycles);
  }
  void irq_recovered(const char* protocol) override { core_.irq_recovered(protocol); }
  int core_index() const override { return core_.core_index(); }
  const char* core_name() const override { return core_.core_name(); }
  void phase_begin(const char* name) override {
    if (t_.id == 1) return core_.phase_begin(name);
    phases_.push_back({name, hs::now()});
  }
  void phase_end() override {
    if (t_.id == 1) return core_.phase_end();
    if (phases_.empty()) return;
    if (t_.track >= 0) {
      TransactionTrace::instance().span(t_.track, phases_.back().name, phases_.back().start,
                                        hs::now());
    }
    phases_.pop_back();
  }
  bool tracing() const override { return core_.tracing(); }
  void protocol_begin(const char* name, uint64_t key,
                      std::initializer_list<TraceArg> args) override {
    core_.protocol_begin(name, key, args);
  }
  void protocol_end(uint64_t key, std::initializer_list<TraceArg> args) override {
    core_.protocol_end(key, args);
  }
  void log(const std::string& message) override { core_.log(message); }
  [[noreturn]] void fail(const std::string& message) override {
    core_.fail(message);
    __builtin_unreachable();
  }

 private:
  struct Open {
    const char* name;
    sc_core::sc_time start;
  };
  PpeThreads& o_;
  Thread& t_;
  Hal& core_;
  std::vector<Open> phases_;
};

// Whatever thread runs now: the Hal the PPE's side of the SDK uses, so each call's accesses
// and waits are its caller's.
class PpeThreads::RunningHal : public Hal {
 public:
  explicit RunningHal(PpeThreads& o) : o_(o) {}
  Hal& h() const { return *o_.running_->hal; }
  void load(uint64_t a, void* d, size_t n) override { h().load(a, d, n); }
  void store(uint64_t a, const void* s, size_t n) override { h().store(a, s, n); }
  using Hal::load;
  using Hal::store;
  uint32_t compare_and_swap(uint64_t a, uint32_t e, uint32_t d) override {
    return h().compare_and_swap(a, e, d);
  }
  uint64_t reg_read(uint64_t a, unsigned w) override { return h().reg_read(a, w); }
  void reg_write(uint64_t a, uint64_t v, unsigned w) override { h().reg_write(a, v, w); }
  void compute(uint64_t n) override { h().compute(n); }
  uint64_t cycles() override { return h().cycles(); }
  double clock_hz() const override { return h().clock_hz(); }
  uint32_t wait_irq(uint32_t m) override { return h().wait_irq(m); }
  uint32_t wait_irq(uint32_t m, uint64_t t) override { return h().wait_irq(m, t); }
  uint32_t wait_irq_for(uint32_t m, uint64_t c) override { return h().wait_irq_for(m, c); }
  void irq_recovered(const char* p) override { h().irq_recovered(p); }
  int core_index() const override { return h().core_index(); }
  const char* core_name() const override { return h().core_name(); }
  void phase_begin(const char* n) override { h().phase_begin(n); }
  void phase_end() override { h().phase_end(); }
  bool tracing() const override { return h().tracing(); }
  void protocol_begin(const char* n, uint64_t k, std::initializer_list<TraceArg> a) override {
    h().protocol_begin(n, k, a);
  }
  void protocol_end(uint64_t k, std::initializer_list<TraceArg> a) override {
    h().protocol_end(k, a);
  }
  void log(const std::string& m) override { h().log(m); }
  [[noreturn]] void fail(const std::string& m) override {
    h().fail(m);
    __builtin_unreachable();
  }

 private:
  PpeThreads& o_;
};

PpeThreads::PpeThreads(Hal& core, user::ProgramInstance& program, uint64_t stack_bytes,
                       std::string stack_param, Smt smt)
    : core_(core),
      program_(program),
      stack_bytes_((stack_bytes + kGuard - 1) & ~(kGuard - 1)),
      stack_param_(std::move(stack_param)),
      smt_(smt) {
  for (int i = 0; i < kHardwareThreads; ++i) {
    hw_[static_cast<size_t>(i)].index = i;
    if (core_.tracing()) {
      hw_[static_cast<size_t>(i)].track =
          TransactionTrace::instance().track(fmt::format("{}.hw_thread{}", core_.core_name(), i));
    }
  }
  auto main = std::make_unique<Thread>();
  main->id = 1;
  main->name = "thread 1";
  main->state = &program_.main_thread();
  main->hal = std::make_unique<ThreadHal>(*this, *main);
  if (core_.tracing()) {
    main->track = TransactionTrace::instance().track(fmt::format("{}.thread1", core_.core_name()));
  }
  running_ = main.get();
  hw_[0].last = main.get();  // it starts there: no switch
  put_on(hw_[0], *main);
  threads_.push_back(std::move(main));
  running_hal_ = std::make_unique<RunningHal>(*this);
}

PpeThreads::~PpeThreads() = default;

Hal& PpeThreads::main_hal() {
  return *threads_.front()->hal;
}

Hal& PpeThreads::running_hal() {
  return *running_hal_;
}

PpeThreads::Thread* PpeThreads::find(unsigned long id) const {
  if (id == 0 || id > threads_.size()) return nullptr;
  return threads_[id - 1].get();
}

unsigned long PpeThreads::self() const {
  return running_->id;
}

// ---- The hardware threads ----------------------------------------------------------------

void PpeThreads::put_on(HwThread& h, Thread& t) {
  t.st = Thread::State::OnHw;
  t.hw = h.index;
  h.thread = &t;
  h.since = hs::now();
  h.switch_start = hs::now();
  const bool same = h.last == &t;
  h.last = &t;
  if (!same) {
    ++switches_;
    h.does = HwThread::Does::Switching;
    h.work = static_cast<double>(smt_.switch_cycles);
    if (smt_.switch_cycles == 0) finish_work(h);
    return;
  }
  h.slice_start = core_.cycles();
  if (t.work_left > 0) {
    h.does = HwThread::Does::Computing;
    h.work = std::exchange(t.work_left, 0.0);
  } else {
    h.does = HwThread::Does::Code;
    h.work = 0;
  }
}

void PpeThreads::finish_work(HwThread& h) {
  if (h.does == HwThread::Does::Switching) {
    if (h.track >= 0 && smt_.switch_cycles > 0) {
      TransactionTrace::instance().span(h.track, "context switch", h.switch_start, hs::now());
    }
    h.slice_start = core_.cycles();
    Thread& t = *h.thread;
    if (t.work_left > 0) {
      h.does = HwThread::Does::Computing;
      h.work = std::exchange(t.work_left, 0.0);
      return;
    }
  }
  h.does = HwThread::Does::Code;
  h.work = 0;
}

void PpeThreads::take_off(Thread& t) {
  if (t.hw < 0) return;
  HwThread& h = hw_[static_cast<size_t>(t.hw)];
  if (h.track >= 0) TransactionTrace::instance().span(h.track, t.name.c_str(), h.since, hs::now());
  if (t.track >= 0) {
    TransactionTrace::instance().async_span(t.track, kHwNames[h.index], h.since, hs::now());
  }
  h.thread = nullptr;
  h.does = HwThread::Does::Idle;
  h.work = 0;
  t.hw = -1;
}

void PpeThreads::make_ready(Thread& t) {
  t.st = Thread::State::Ready;
  ready_.push_back(&t);
}

void PpeThreads::dispatch() {
  while (!ready_.empty()) {
    Thread& t = *ready_.front();
    HwThread* pick = nullptr;
    for (HwThread& h : hw_) {
      if (h.does != HwThread::Does::Idle) continue;
      if (h.last == &t) {
        pick = &h;
        break;
      }
      if (!pick) pick = &h;
    }
    if (!pick) return;
    ready_.pop_front();
    put_on(*pick, t);
  }
}

void PpeThreads::credit(const HwThread* except, double cycles, double rate) {
  for (HwThread& h : hw_) {
    if (&h == except) continue;
    if (h.does != HwThread::Does::Switching && h.does != HwThread::Does::Computing) continue;
    h.work -= cycles * rate;
    if (h.work <= kDone) finish_work(h);
  }
}

uint32_t PpeThreads::waiting_lines() const {
  uint32_t lines = 0;
  for (const auto& w : threads_) {
    if (w->st == Thread::State::WaitIrq) lines |= w->mask;
  }
  return lines;
}

void PpeThreads::wake(uint32_t lines) {
  const uint64_t now = core_.cycles();
  for (auto& w : threads_) {
    if (w->st != Thread::State::WaitIrq) continue;
    const bool hit = (lines & w->mask) != 0;
    if (!hit && !(w->deadline != 0 && w->deadline <= now)) continue;
    if (hit) w->got |= lines & w->mask;
    w->deadline = 0;
    make_ready(*w);
  }
}

PpeThreads::Thread* PpeThreads::code_ready(const Thread& except) {
  for (HwThread& h : hw_) {
    if (h.does == HwThread::Does::Code && h.thread != &except) return h.thread;
  }
  return nullptr;
}

void PpeThreads::advance() {
  if (Fiber* f = Fiber::current(); f && f->unwinding()) throw Fiber::Unwind{};
  const uint64_t now = core_.cycles();
  int busy = 0;
  for (const HwThread& h : hw_) {
    busy += h.does == HwThread::Does::Switching || h.does == HwThread::Does::Computing;
  }
  const double rate = busy == kHardwareThreads ? smt_.share : 1.0;
  constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
  uint64_t dt = kNever;
  for (const HwThread& h : hw_) {
    if (h.does == HwThread::Does::Switching || h.does == HwThread::Does::Computing) {
      dt = std::min(dt, std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(h.work / rate))));
    }
    if (h.does == HwThread::Does::Computing && smt_.timeslice_cycles && !ready_.empty()) {
      const uint64_t end = h.slice_start + smt_.timeslice_cycles;
      dt = std::min(dt, end > now ? end - now : 1);
    }
  }
  for (const auto& w : threads_) {
    if (w->st == Thread::State::WaitIrq && w->deadline != 0) {
      dt = std::min(dt, w->deadline > now ? w->deadline - now : 1);
    }
  }
  const uint32_t lines = waiting_lines();
  if (dt == kNever && lines == 0) {
    core_.fail(fmt::format(
        "{}: every thread of the PPE program is blocked (joining a thread or waiting for a "
        "mutex) and none waits for an SPE or a mailbox: a deadlock",
        program_.name()));
  }
  uint32_t got = 0;
  if (dt == kNever) {
    got = core_.wait_irq(lines);
  } else if (lines != 0 || busy == 0) {
    got = core_.wait_irq_for(lines, dt);
  } else {
    core_.compute(dt);
  }
  if (Fiber* f = Fiber::current(); got == 0 && f && f->unwinding()) throw Fiber::Unwind{};
  credit(nullptr, static_cast<double>(core_.cycles() - now), rate);
  wake(got);
  // Time slices: a thread computing past its slice gives its hardware thread to one waiting.
  size_t waiting = ready_.size();
  const uint64_t at = core_.cycles();
  for (HwThread& h : hw_) {
    if (h.does != HwThread::Does::Computing || !smt_.timeslice_cycles ||
        at - h.slice_start < smt_.timeslice_cycles) {
      continue;
    }
    if (waiting == 0) {
      h.slice_start = at;
      continue;
    }
    --waiting;
    Thread& t = *h.thread;
    t.work_left = h.work;
    take_off(t);
    make_ready(t);
  }
}

void PpeThreads::run_until(Thread& t) {
  for (;;) {
    dispatch();
    if (t.st == Thread::State::OnHw &&
        hw_[static_cast<size_t>(t.hw)].does == HwThread::Does::Code) {
      return;
    }
    if (Thread* u = code_ready(t)) {
      switch_to(*u);
      continue;
    }
    advance();
  }
}

// ---- The running thread's operations ------------------------------------------------------

void PpeThreads::compute(Thread& t, uint64_t cycles) {
  if (cycles == 0 || t.hw < 0) return;
  HwThread& h = hw_[static_cast<size_t>(t.hw)];
  h.does = HwThread::Does::Computing;
  h.work = static_cast<double>(cycles);
  run_until(t);
}

template <class Access>
auto PpeThreads::access(Thread& t, Access&& a) -> decltype(a()) {
  const uint64_t before = core_.cycles();
  auto after = [&] {
    // The access stalled this hardware thread; the other ran alone meanwhile.
    const HwThread* mine = t.hw >= 0 ? &hw_[static_cast<size_t>(t.hw)] : nullptr;
    credit(mine, static_cast<double>(core_.cycles() - before), 1.0);
    if (t.hw < 0) return;
    maybe_preempt(t);
    if (Thread* u = code_ready(t)) switch_to(*u);
  };
  if constexpr (std::is_void_v<decltype(a())>) {
    a();
    after();
  } else {
    auto v = a();
    after();
    return v;
  }
}

void PpeThreads::maybe_preempt(Thread& t) {
  if (!smt_.timeslice_cycles || t.hw < 0) return;
  HwThread& h = hw_[static_cast<size_t>(t.hw)];
  if (core_.cycles() - h.slice_start < smt_.timeslice_cycles) return;
  // The slice's end: interrupts for sleeping threads are taken now (a thread that only
  // accesses never lets time pass in the scheduler).
  if (const uint32_t lines = waiting_lines()) {
    const uint64_t before = core_.cycles();
    wake(core_.wait_irq_for(lines, 1));
    credit(&h, static_cast<double>(core_.cycles() - before), 1.0);
    dispatch();
  }
  if (ready_.empty()) {
    h.slice_start = core_.cycles();
    return;
  }
  take_off(t);
  make_ready(t);
  run_until(t);
}

uint32_t PpeThreads::wait_irq(Thread& t, uint32_t mask, uint64_t cycles) {
  if (mask == 0 && cycles == 0) core_.fail("wait_irq with an empty mask would wait forever");
  t.mask = mask;
  t.got = 0;
  t.deadline = cycles ? core_.cycles() + cycles : 0;
  take_off(t);
  t.st = Thread::State::WaitIrq;
  run_until(t);
  t.mask = 0;
  t.deadline = 0;
  return std::exchange(t.got, 0);
}

void PpeThreads::yield() {
  Thread& t = *running_;
  if (ready_.empty()) {
    compute(t, kYieldCycles);  // the system call, with nobody to give way to
    return;
  }
  take_off(t);
  make_ready(t);
  run_until(t);
}

// ---- Threads ------------------------------------------------------------------------------

int PpeThreads::create(unsigned long* id, Entry entry, void* (*fn)(void*), void* arg) {
  if (id == nullptr || entry == nullptr || fn == nullptr) return EINVAL;
  auto t = std::make_unique<Thread>();
  t->id = threads_.size() + 1;
  t->name = fmt::format("thread {}", t->id);
  // Its stack in the program's heap: in the Cell's memory, like every byte the program owns,
  // above a guard page the program cannot touch.
  t->stack = program_.heap().allocate(kGuard + stack_bytes_, kGuard);
  if (!t->stack) return EAGAIN;
  if (mprotect(t->stack, kGuard, PROT_NONE) != 0) {
    std::string why;
    program_.heap().release(t->stack, why);
    t->stack = nullptr;
    return EAGAIN;
  }
  program_.add_stack_guard(t->stack, kGuard, t->name, stack_bytes_, stack_param_);
  t->entry = entry;
  t->fn = fn;
  t->arg = arg;
  t->hal = std::make_unique<ThreadHal>(*this, *t);
  if (core_.tracing()) {
    t->track =
        TransactionTrace::instance().track(fmt::format("{}.thread{}", core_.core_name(), t->id));
  }
  getcontext(&t->ctx);
  t->ctx.uc_stack.ss_sp = static_cast<char*>(t->stack) + kGuard;
  t->ctx.uc_stack.ss_size = stack_bytes_;
  t->ctx.uc_link = nullptr;
  t->stack_bottom = t->ctx.uc_stack.ss_sp;
  t->stack_size = stack_bytes_;
  const auto p = reinterpret_cast<uintptr_t>(this);
  makecontext(&t->ctx, reinterpret_cast<void (*)()>(&PpeThreads::start), 2,
              static_cast<unsigned>(p >> 32), static_cast<unsigned>(p & 0xFFFFFFFFu));
  *id = t->id;
  Thread& made = *t;
  threads_.push_back(std::move(t));
  make_ready(made);
  dispatch();  // onto a free hardware thread at once
  return 0;
}

void PpeThreads::start(unsigned hi, unsigned lo) {
  auto* self = reinterpret_cast<PpeThreads*>((static_cast<uintptr_t>(hi) << 32) | lo);
  self->arrived(nullptr);
  self->thread_body(*self->running_);
}

void PpeThreads::thread_body(Thread& t) {
  try {
    program_.run_thread(*t.state, *t.hal, [&t] { t.entry(t.fn, t.arg); });
  } catch (...) {
    unwinding_ = std::current_exception();  // passed on to the main thread
  }
  take_off(t);
  t.st = Thread::State::Done;
  for (auto& w : threads_) {
    if (w->st == Thread::State::Joining && w->joining == &t) {
      w->joining = nullptr;
      make_ready(*w);
    }
  }
  if (program_.ended()) program_ended_ = true;
  if (unwinding_ || program_ended_) switch_to(*threads_.front());
  // Over: the core goes on with the other threads; this stack is never resumed.
  for (;;) run_until(t);
}

void PpeThreads::switch_to(Thread& next) {
  Thread& prev = *running_;
  running_ = &next;
  program_.switch_thread(*next.state);
  switched_from_ = &prev;
#if defined(__SANITIZE_ADDRESS__)
  // An ended thread's stack is never resumed: its fake frames go.
  __sanitizer_start_switch_fiber(prev.st == Thread::State::Done ? nullptr : &prev.fake_stack,
                                 next.stack_bottom, next.stack_size);
#endif
  swapcontext(&prev.ctx, &next.ctx);
  arrived(prev.fake_stack);
  after_switch();
}

void PpeThreads::arrived([[maybe_unused]] void* fake_stack) {
#if defined(__SANITIZE_ADDRESS__)
  const void* bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
  if (!switched_from_->stack_bottom) {  // the main thread, left for the first time
    switched_from_->stack_bottom = bottom;
    switched_from_->stack_size = size;
  }
#endif
}

void PpeThreads::after_switch() {
  if (running_ != threads_.front().get()) return;
  if (unwinding_) std::rethrow_exception(std::exchange(unwinding_, nullptr));
  if (program_ended_) throw ProgramEnded{};
}

int PpeThreads::join(unsigned long id, void** result) {
  Thread& t = *running_;
  Thread* target = find(id);
  if (!target) return ESRCH;
  if (target == &t) return EDEADLK;
  if (target->detached) return EINVAL;
  while (target->st != Thread::State::Done) {
    t.joining = target;
    take_off(t);
    t.st = Thread::State::Joining;
    run_until(t);
  }
  if (result) *result = target->result;
  target->detached = true;  // joined: not again
  if (target->stack) {
    program_.remove_stack_guard(target->stack);
    mprotect(target->stack, kGuard, PROT_READ | PROT_WRITE);
    std::string why;
    program_.heap().release(target->stack, why);
    target->stack = nullptr;
  }
  return 0;
}

int PpeThreads::detach(unsigned long id) {
  Thread* target = find(id);
  if (!target) return ESRCH;
  if (target->detached) return EINVAL;
  target->detached = true;
  return 0;
}

void PpeThreads::exit(void* result) {
  Thread& t = *running_;
  t.result = result;
  if (t.id != 1) program_.thread_ended();
  // The main thread: the program ends when the last thread has.
  program_.call("pthread_exit", [&] {
    for (auto& w : threads_) {
      while (w.get() != &t && w->st != Thread::State::Done) {
        t.joining = w.get();
        take_off(t);
        t.st = Thread::State::Joining;
        run_until(t);
      }
    }
  });
  program_.terminate(user::ProgramInstance::End::Exited, 0, "");
}

void PpeThreads::provide_to(user::ProgramInstance& program) {
  program.provide_api(HS_PPE_THREADS_API_NAME, HS_PPE_THREADS_API_VERSION, table(), this);
}

const void* PpeThreads::table() {
  static const hs_ppe_thread_table table = [] {
    hs_ppe_thread_table t{};
    t.create = [](void* self, unsigned long* id, Entry entry, void* (*fn)(void*), void* arg) {
      auto* o = static_cast<PpeThreads*>(self);
      return o->program_.call("pthread_create", [&] { return o->create(id, entry, fn, arg); });
    };
    t.join = [](void* self, unsigned long id, void** result) {
      auto* o = static_cast<PpeThreads*>(self);
      return o->program_.call("pthread_join", [&] { return o->join(id, result); });
    };
    t.detach = [](void* self, unsigned long id) {
      auto* o = static_cast<PpeThreads*>(self);
      return o->program_.call(nullptr, [&] { return o->detach(id); });
    };
    t.self = [](void* self) { return static_cast<PpeThreads*>(self)->self(); };
    t.exit = [](void* self, void* result) { static_cast<PpeThreads*>(self)->exit(result); };
    t.yield = [](void* self) {
      auto* o = static_cast<PpeThreads*>(self);
      o->program_.call(nullptr, [&] { o->yield(); });
    };
    return t;
  }();
  return &table;
}

}  // namespace hs::fw::cell_program
