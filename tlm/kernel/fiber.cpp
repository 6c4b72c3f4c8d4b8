#include "tlm/kernel/fiber.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#define HS_FIBER_ASAN 1
#endif

namespace hs {

namespace {

constexpr std::size_t kCanaryBytes = 64;
constexpr unsigned char kCanary = 0xFB;
constexpr std::size_t kSpare = std::size_t{1} << 20;

// Stacks carved from large anonymous mappings, reused when a fiber ends: a machine's
// stacks cost a few mappings in all, and only the pages a fiber touches become resident.
class StackPool {
 public:
  // Never destroyed: a fiber may be destroyed during static destruction (a model held in a
  // static), after a pool constructed later would be gone.
  static StackPool& instance() {
    static StackPool* pool = new StackPool;
    return *pool;
  }
  // A stack of `bytes`; a guarded one has an inaccessible page below it (the pointer is
  // the usable bottom, above the guard).
  char* take(std::size_t bytes, bool guarded) {
    auto& free = free_[{bytes, guarded}];
    if (!free.empty()) {
      char* s = free.back();
      free.pop_back();
      return s;
    }
    if (guarded) {
      char* s = carve(bytes + Fiber::kGuardBytes);
      if (mprotect(s, Fiber::kGuardBytes, PROT_NONE) != 0) throw std::bad_alloc();
      return s + Fiber::kGuardBytes;
    }
    return carve(bytes);
  }
  void give(char* stack, std::size_t bytes, bool guarded) {
    free_[{bytes, guarded}].push_back(stack);
  }

 private:
  char* carve(std::size_t bytes) {
    if (left_ < bytes) {
      const std::size_t chunk = std::max<std::size_t>(bytes * 256, std::size_t{64} << 20) + kSpare;
      void* p = mmap(nullptr, chunk, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
#if defined(HS_FIBER_ASAN)
      __lsan_register_root_region(p, chunk);  // what a suspended fiber holds is not leaked
#endif
      // The chunk starts with a spare 1 MiB (address space only): an overflow of any stack
      // lands in memory the pool owns (the stack below, or the spare), where the canary
      // check finds it.
      cursor_ = static_cast<char*>(p) + kSpare;
      left_ = chunk - kSpare;
    }
    char* s = cursor_;
    cursor_ += bytes;
    left_ -= bytes;
    return s;
  }
  std::map<std::pair<std::size_t, bool>, std::vector<char*>> free_;
  char* cursor_ = nullptr;
  std::size_t left_ = 0;
};

Fiber* g_current = nullptr;
Fiber* g_fibers = nullptr;  // head of the list of live fibers

}  // namespace

// The switch itself. On x86-64 a dozen instructions save the callee-saved registers and the
// floating-point control words on one stack and restore them from the other (the C library's
// swapcontext also saves the signal mask, a system call on every switch). Elsewhere,
// ucontext.
#if defined(__x86_64__)
extern "C" {
void hs_fiber_switch(void** save_sp, void* load_sp);
void hs_fiber_start();
void hs_fiber_entry(void* fiber);
}
asm(R"(
  .text
  .globl hs_fiber_switch
  .hidden hs_fiber_switch
  .type hs_fiber_switch, @function
hs_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size hs_fiber_switch, .-hs_fiber_switch

  .globl hs_fiber_start
  .hidden hs_fiber_start
  .type hs_fiber_start, @function
hs_fiber_start:
  movq %rbx, %rdi
  call hs_fiber_entry
  ud2
  .size hs_fiber_start, .-hs_fiber_start
)");
#endif

struct Fiber::Context {
#if defined(__x86_64__)
  void* fiber_sp = nullptr;
  void* resumer_sp = nullptr;
  void to_fiber() {
    hs_fiber_switch(&resumer_sp, fiber_sp);
  }
  void to_resumer() {
    hs_fiber_switch(&fiber_sp, resumer_sp);
  }
#else
  ucontext_t fiber;
  ucontext_t resumer;
  void to_fiber() {
    swapcontext(&resumer, &fiber);
  }
  void to_resumer() {
    swapcontext(&fiber, &resumer);
  }
#endif
#if defined(HS_FIBER_ASAN)
  void* fake_stack = nullptr;
  const void* resumer_bottom = nullptr;
  std::size_t resumer_size = 0;
#endif
};

Fiber::Fiber(std::string name, std::size_t stack_bytes, std::function<void()> body, bool guarded)
    : name_(std::move(name)),
      stack_bytes_((stack_bytes + 4095) / 4096 * 4096),
      guarded_(guarded),
      body_(std::move(body)),
      stack_(StackPool::instance().take(stack_bytes_, guarded)),
      ctx_(std::make_unique<Context>()) {
  std::memset(stack_, kCanary, kCanaryBytes);
#if defined(__x86_64__)
  // A frame as hs_fiber_switch leaves one, whose return goes to hs_fiber_start with this
  // fiber in rbx; hs_fiber_start's call then finds the stack 16-byte aligned, as the ABI asks.
  auto* top = reinterpret_cast<std::uint64_t*>(stack_ + stack_bytes_);
  std::uint64_t* sp = top - 10;
  sp[0] = 0x037f'00001f80ull;                     // MXCSR and x87 control word at their defaults
  sp[1] = sp[2] = sp[3] = sp[4] = 0;              // r15 r14 r13 r12
  sp[5] = reinterpret_cast<std::uint64_t>(this);  // rbx
  sp[6] = 0;                                      // rbp
  sp[7] = reinterpret_cast<std::uint64_t>(&hs_fiber_start);
  ctx_->fiber_sp = sp;
#else
  if (getcontext(&ctx_->fiber) != 0) throw std::runtime_error("getcontext failed");
  ctx_->fiber.uc_stack.ss_sp = stack_;
  ctx_->fiber.uc_stack.ss_size = stack_bytes_;
  ctx_->fiber.uc_link = nullptr;
  const auto self = reinterpret_cast<std::uintptr_t>(this);
  makecontext(&ctx_->fiber, reinterpret_cast<void (*)()>(&Fiber::entry), 2,
              static_cast<unsigned>(self >> 32), static_cast<unsigned>(self & 0xffffffffu));
#endif
  next_ = g_fibers;
  if (g_fibers) g_fibers->prev_ = this;
  g_fibers = this;
}

Fiber::~Fiber() {
  if (prev_) prev_->next_ = next_;
  if (next_) next_->prev_ = prev_;
  if (g_fibers == this) g_fibers = next_;
  // A fiber still suspended here was not unwound: its stack objects are abandoned, as the
  // kernel abandons a thread's; its stack is not reused (something may still point into it).
  if (!started_ || finished_) StackPool::instance().give(stack_, stack_bytes_, guarded_);
}

Fiber* Fiber::current() {
  return g_current;
}

#if defined(__x86_64__)
extern "C" void hs_fiber_entry(void* fiber) {
  Fiber::run(static_cast<Fiber*>(fiber));
}
#else
void Fiber::entry(unsigned hi, unsigned lo) {
  run(reinterpret_cast<Fiber*>((static_cast<std::uintptr_t>(hi) << 32) | lo));
}
#endif

void Fiber::run(Fiber* f) {
#if defined(HS_FIBER_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, &f->ctx_->resumer_bottom, &f->ctx_->resumer_size);
#endif
  try {
    f->body_();
  } catch (const Unwind&) {
    // unwound at the end of a run: the stack's objects are destroyed
  } catch (...) {
    f->escaped_ = std::current_exception();  // rethrown by resume(), outside the fiber
  }
  f->finished_ = true;
#if defined(HS_FIBER_ASAN)
  // The fiber's stack is done with: no fake stack to keep.
  __sanitizer_start_switch_fiber(nullptr, f->ctx_->resumer_bottom, f->ctx_->resumer_size);
#endif
  f->ctx_->to_resumer();  // never resumed again
}

void Fiber::switch_in() {
  Fiber* const outer = g_current;
  g_current = this;
#if defined(HS_FIBER_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, stack_, stack_bytes_);
#endif
  ctx_->to_fiber();
#if defined(HS_FIBER_ASAN)
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  g_current = outer;
}

void Fiber::switch_out() {
#if defined(HS_FIBER_ASAN)
  __sanitizer_start_switch_fiber(&ctx_->fake_stack, ctx_->resumer_bottom, ctx_->resumer_size);
#endif
  ctx_->to_resumer();
#if defined(HS_FIBER_ASAN)
  __sanitizer_finish_switch_fiber(ctx_->fake_stack, &ctx_->resumer_bottom, &ctx_->resumer_size);
#endif
}

void Fiber::resume() {
  if (g_current) throw std::logic_error(fmt::format("fiber {} resumed from inside a fiber", name_));
  if (finished_) return;
  started_ = true;
  switch_in();
  check_canary();
  if (escaped_) std::rethrow_exception(std::exchange(escaped_, nullptr));
}

void Fiber::yield() {
  if (g_current != this) {
    throw std::logic_error(fmt::format("fiber {} yielded from outside itself", name_));
  }
  switch_out();
  if (unwinding_) throw Unwind{};
}

void Fiber::check_canary() const {
  for (std::size_t i = 0; i < kCanaryBytes; ++i) {
    if (static_cast<unsigned char>(stack_[i]) != kCanary) {
      throw StackOverflow(
          fmt::format("{}: the firmware overflowed its {} KiB stack", name_, stack_bytes_ / 1024));
    }
  }
}

void Fiber::unwind_all() {
  for (Fiber* f = g_fibers; f; f = f->next_) {
    if (!f->started_ || f->finished_) continue;
    f->unwinding_ = true;
    f->resume();
  }
}

}  // namespace hs
