#include "sw/cell/program/ppe_threads.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <cerrno>
#include <string>
#include <vector>

#include "sw/cell/runtime/libspe2_abi.h"
#include "tlm/kernel/fiber.h"
#include "tlm/kernel/now.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::fw::cell_program {

namespace {
constexpr uint64_t kGuard = 4096;  // a thread stack's guard page
}  // namespace

struct PpeThreads::Thread {
  // Yielding: gives the core to the next ready thread, sleeping until there is one.
  enum class State { Running, Ready, Yielding, WaitIrq, Joining, Done };
  unsigned long id = 0;
  std::unique_ptr<ThreadHal> hal;
  user::ProgramInstance::Thread own;
  user::ProgramInstance::Thread* state = &own;  // the main thread's is the program's own
  ucontext_t ctx{};
  void* stack = nullptr;
  State st = State::Ready;
  uint32_t mask = 0, got = 0;
  Thread* joining = nullptr;
  Entry entry = nullptr;
  void* (*fn)(void*) = nullptr;
  void* arg = nullptr;
  void* result = nullptr;
  bool detached = false;
};

// A thread's view of the PPE core: every access and computation is the core's, followed by a
// chance for the scheduler to take the core at the end of the thread's time slice; interrupt
// waits are the scheduler's; spans go on the thread's own track (the main thread's on the
// core's).
class PpeThreads::ThreadHal : public Hal {
 public:
  ThreadHal(PpeThreads& owner, Thread& t) : o_(owner), t_(t), core_(owner.core_) {
    if (t.id != 1 && core_.tracing()) {
      track_ =
          TransactionTrace::instance().track(fmt::format("{}.thread{}", core_.core_name(), t.id));
    }
  }
  void load(uint64_t addr, void* dst, size_t len) override {
    core_.load(addr, dst, len);
    o_.maybe_preempt(t_);
  }
  void store(uint64_t addr, const void* src, size_t len) override {
    core_.store(addr, src, len);
    o_.maybe_preempt(t_);
  }
  using Hal::load;
  using Hal::store;
  uint32_t compare_and_swap(uint64_t addr, uint32_t expected, uint32_t desired) override {
    const uint32_t v = core_.compare_and_swap(addr, expected, desired);
    o_.maybe_preempt(t_);
    return v;
  }
  uint64_t reg_read(uint64_t addr, unsigned width) override {
    const uint64_t v = core_.reg_read(addr, width);
    o_.maybe_preempt(t_);
    return v;
  }
  void reg_write(uint64_t addr, uint64_t value, unsigned width) override {
    core_.reg_write(addr, value, width);
    o_.maybe_preempt(t_);
  }
  void compute(uint64_t n) override {
    core_.compute(n);
    o_.maybe_preempt(t_);
  }
  uint64_t cycles() override { return core_.cycles(); }
  double clock_hz() const override { return core_.clock_hz(); }
  uint32_t wait_irq(uint32_t mask) override { return o_.wait_irq(t_, mask, 0); }
  uint32_t wait_irq(uint32_t mask, uint64_t timeout) override {
    return o_.wait_irq(t_, mask, timeout);
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
    if (track_ >= 0) {
      TransactionTrace::instance().span(track_, phases_.back().name, phases_.back().start,
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
  int track_ = -1;
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
                       std::string stack_param, uint64_t timeslice_cycles)
    : core_(core),
      program_(program),
      stack_bytes_((stack_bytes + kGuard - 1) & ~(kGuard - 1)),
      stack_param_(std::move(stack_param)),
      timeslice_(timeslice_cycles) {
  auto main = std::make_unique<Thread>();
  main->id = 1;
  main->state = &program_.main_thread();
  main->st = Thread::State::Running;
  main->hal = std::make_unique<ThreadHal>(*this, *main);
  running_ = main.get();
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

int PpeThreads::create(unsigned long* id, Entry entry, void* (*fn)(void*), void* arg) {
  if (id == nullptr || entry == nullptr || fn == nullptr) return EINVAL;
  auto t = std::make_unique<Thread>();
  t->id = threads_.size() + 1;
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
  program_.add_stack_guard(t->stack, kGuard, fmt::format("thread {}", t->id), stack_bytes_,
                           stack_param_);
  t->entry = entry;
  t->fn = fn;
  t->arg = arg;
  t->hal = std::make_unique<ThreadHal>(*this, *t);
  getcontext(&t->ctx);
  t->ctx.uc_stack.ss_sp = static_cast<char*>(t->stack) + kGuard;
  t->ctx.uc_stack.ss_size = stack_bytes_;
  t->ctx.uc_link = nullptr;
  const auto p = reinterpret_cast<uintptr_t>(this);
  makecontext(&t->ctx, reinterpret_cast<void (*)()>(&PpeThreads::start), 2,
              static_cast<unsigned>(p >> 32), static_cast<unsigned>(p & 0xFFFFFFFFu));
  t->st = Thread::State::Ready;
  *id = t->id;
  threads_.push_back(std::move(t));
  return 0;
}

void PpeThreads::start(unsigned hi, unsigned lo) {
  auto* self = reinterpret_cast<PpeThreads*>((static_cast<uintptr_t>(hi) << 32) | lo);
  self->thread_body(*self->running_);
}

void PpeThreads::thread_body(Thread& t) {
  try {
    program_.run_thread(*t.state, *t.hal, [&t] { t.entry(t.fn, t.arg); });
  } catch (...) {
    unwinding_ = std::current_exception();  // passed on to the main thread
  }
  t.st = Thread::State::Done;
  for (auto& w : threads_) {
    if (w->st == Thread::State::Joining && w->joining == &t) w->st = Thread::State::Ready;
  }
  if (program_.ended()) program_ended_ = true;
  if (unwinding_ || program_ended_) switch_to(*threads_.front());
  // Over: the core goes on with the other threads; this stack is never resumed.
  for (;;) give_way(t);
}

PpeThreads::Thread* PpeThreads::next_ready(const Thread& after) {
  const size_t n = threads_.size();
  const size_t at = after.id - 1;
  for (size_t k = 1; k < n; ++k) {
    Thread* c = threads_[(at + k) % n].get();
    if (c->st == Thread::State::Ready) return c;
  }
  return nullptr;
}

void PpeThreads::switch_to(Thread& next) {
  Thread& prev = *running_;
  running_ = &next;
  next.st = Thread::State::Running;
  program_.switch_thread(*next.state);
  slice_start_ = core_.cycles();
  ++switches_;
  swapcontext(&prev.ctx, &next.ctx);
  after_switch();
}

void PpeThreads::after_switch() {
  if (running_ != threads_.front().get()) return;
  if (unwinding_) std::rethrow_exception(std::exchange(unwinding_, nullptr));
  if (program_ended_) throw ProgramEnded{};
}

bool PpeThreads::give_way(Thread& t, uint64_t timeout_cycles) {
  for (;;) {
    if (Thread* n = next_ready(t)) {
      if (t.st == Thread::State::Yielding) t.st = Thread::State::Ready;
      switch_to(*n);
      return true;
    }
    uint32_t all = 0;
    for (const auto& w : threads_) {
      if (w->st == Thread::State::WaitIrq) all |= w->mask;
    }
    if (all == 0) {
      core_.fail(fmt::format(
          "{}: every thread of the PPE program is blocked (joining a thread or waiting for a "
          "mutex) and none waits for an SPE or a mailbox: a deadlock",
          program_.name()));
    }
    if (Fiber* f = Fiber::current(); f && f->unwinding()) throw Fiber::Unwind{};
    const uint32_t lines = timeout_cycles && t.st == Thread::State::WaitIrq
                               ? core_.wait_irq(all, timeout_cycles)
                               : core_.wait_irq(all);
    if (lines == 0) {
      if (Fiber* f = Fiber::current(); f && f->unwinding()) throw Fiber::Unwind{};
      if (timeout_cycles) return false;
      continue;
    }
    bool woke = false;
    for (auto& w : threads_) {
      if (w->st != Thread::State::WaitIrq || (lines & w->mask) == 0) continue;
      w->got |= lines & w->mask;
      w->st = Thread::State::Ready;
      woke = woke || w.get() == &t;
    }
    if (woke) {
      t.st = Thread::State::Running;
      slice_start_ = core_.cycles();
      return true;
    }
  }
}

uint32_t PpeThreads::wait_irq(Thread& t, uint32_t mask, uint64_t timeout_cycles) {
  if (mask == 0) core_.fail("wait_irq with an empty mask would wait forever");
  t.mask = mask;
  t.got = 0;
  t.st = Thread::State::WaitIrq;
  while (t.got == 0) {
    if (!give_way(t, timeout_cycles)) break;
  }
  t.st = Thread::State::Running;
  t.mask = 0;
  return std::exchange(t.got, 0);
}

void PpeThreads::maybe_preempt(Thread& t) {
  if (timeslice_ == 0 || core_.cycles() - slice_start_ < timeslice_) return;
  if (Thread* n = next_ready(t)) {
    t.st = Thread::State::Ready;
    switch_to(*n);
  } else {
    slice_start_ = core_.cycles();
  }
}

void PpeThreads::yield() {
  Thread& t = *running_;
  t.st = Thread::State::Yielding;
  give_way(t);
}

int PpeThreads::join(unsigned long id, void** result) {
  Thread& t = *running_;
  Thread* target = find(id);
  if (!target) return ESRCH;
  if (target == &t) return EDEADLK;
  if (target->detached) return EINVAL;
  while (target->st != Thread::State::Done) {
    t.st = Thread::State::Joining;
    t.joining = target;
    give_way(t);
  }
  t.st = Thread::State::Running;
  t.joining = nullptr;
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
        t.st = Thread::State::Joining;
        t.joining = w.get();
        give_way(t);
      }
    }
    t.st = Thread::State::Running;
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
