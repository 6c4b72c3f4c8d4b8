// A user-level execution context with its own stack, for firmware that blocks (waits for
// time, an interrupt, a bus access) on a machine too large for a kernel thread per core.
// A fiber is resumed by a method process and yields back to it at each blocking point, so
// a 73,728-node torus needs no SystemC thread per core.
//
// Why not threads: the kernel gives each thread stack a protected red-zone page, which
// costs two memory mappings per thread, and Linux allows 65,530 mappings by default.
// Fiber stacks come from a shared pool of large mappings without a guard page each;
// instead a canary at each stack's far end is checked every time its fiber yields, and an
// overflow stops the run naming the fiber and its stack size.
//
// Rules:
// - resume() only from outside any fiber (a method process); yield() only from inside the
//   running fiber.
// - An exception that escapes the body ends the fiber and is rethrown by resume(); the
//   body must let Fiber::Unwind pass (catch it first wherever it catches everything).
// - A fiber suspended when the run ends is unwound with unwind_all(): its yield() throws
//   Unwind, so the objects on its stack are destroyed. While unwinding, blocking points
//   return at once instead of yielding (see unwinding()).
// - A guarded fiber (user programs, whose stack use nobody bounds) has an inaccessible page
//   below its stack: an overflow faults at once, where a signal handler can name it, instead
//   of writing into the next stack. It costs two more memory mappings.
#pragma once
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace hs {

class Fiber {
 public:
  struct Unwind {};  // thrown at yield() when the fiber is unwound
  struct StackOverflow : std::runtime_error {
    using std::runtime_error::runtime_error;
  };

  Fiber(std::string name, std::size_t stack_bytes, std::function<void()> body,
        bool guarded = false);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Runs the fiber until it yields or its body returns. Throws StackOverflow, naming the
  // fiber, when its stack overflowed.
  void resume();
  // From inside the fiber: back to the resume() that ran it.
  void yield();

  bool started() const { return started_; }
  bool finished() const { return finished_; }
  bool unwinding() const { return unwinding_; }
  std::size_t stack_bytes() const { return stack_bytes_; }
  // The stack's lowest usable byte (the canary's), and its guard page (guarded fibers).
  char* stack() const { return stack_; }
  char* guard_page() const { return guarded_ ? stack_ - kGuardBytes : nullptr; }
  static constexpr std::size_t kGuardBytes = 4096;
  const std::string& name() const { return name_; }

  // The fiber running now, or null outside any fiber.
  static Fiber* current();
  // Unwinds every started, unfinished fiber (the end of a run).
  static void unwind_all();

 private:
  struct Context;
  static void entry(unsigned hi, unsigned lo);  // ucontext's start, unpacking the fiber

 public:
  static void run(Fiber* f);  // the fiber's first frame (called by the switch; not for users)

 private:
  void check_canary() const;
  void switch_in();   // from the resumer into the fiber
  void switch_out();  // from the fiber back to the resumer

  std::string name_;
  std::size_t stack_bytes_;
  bool guarded_;
  std::function<void()> body_;
  char* stack_;
  std::unique_ptr<Context> ctx_;
  bool started_ = false;
  bool finished_ = false;
  bool unwinding_ = false;
  std::exception_ptr escaped_;
  Fiber* prev_ = nullptr;  // every live fiber, in a list, for unwind_all()
  Fiber* next_ = nullptr;
};

}  // namespace hs
