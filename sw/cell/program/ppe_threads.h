// A PPE program's POSIX threads, scheduled on the PPE's hardware thread as its operating system
// schedules them: what lets a Cell program run each SPE context in its own thread
// (spe_context_run blocks its thread until the SPU program stops).
//
// Rules:
// - One thread runs at a time, on the PPE core; each has its own stack (in the program's heap,
//   so in the Cell's memory: a pointer to a thread's local variable is an effective address an
//   SPE can DMA, as the main thread's are) with an inaccessible guard page below it, so an
//   overflow is a crash naming the thread and its stack size; its own Hal (a trace track of its own beside the
//   PPE's, which the main thread uses) and its own state in the program instance
//   (user::ProgramInstance::Thread).
// - A thread gives the core up only inside a call into the simulator: when it waits for an
//   interrupt (an SPE to stop, an outbound-interrupt mailbox), when it joins a thread that has
//   not ended, when a mutex it wants is held, and when its time slice (ppe_timeslice) is over
//   at one of its register or memory accesses and another thread is ready, so a thread polling
//   a mailbox does not starve the others. The next thread is the ready one after it in creation
//   order (round robin). When none is ready, the core sleeps until an interrupt a waiting
//   thread waits for, and wakes every thread waiting for it.
// - The program ends as a process does: when its main thread returns or any thread calls exit
//   (or aborts, or crashes); the other threads are abandoned where they are.
// - Switching threads takes no simulated time of its own (the PPE's context switch is not
//   modelled); the time slice is the operating system's.
#pragma once
#include <ucontext.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "sw/hal/hal.h"
#include "sw/user/program_instance.h"

namespace hs::fw::cell_program {

class PpeThreads {
 public:
  // The program runtime's start of a thread: calls fn(arg), then ends the thread with its
  // result (a function of the program's module, so its code is the program's).
  using Entry = void (*)(void* (*fn)(void*), void* arg);

  // `core`: the PPE's Hal; `stack_bytes`: each new thread's stack (`stack_param` sets it);
  // `timeslice_cycles`: how long a thread runs before a ready one may take the core.
  PpeThreads(Hal& core, user::ProgramInstance& program, uint64_t stack_bytes,
             std::string stack_param, uint64_t timeslice_cycles);
  ~PpeThreads();
  PpeThreads(const PpeThreads&) = delete;
  PpeThreads& operator=(const PpeThreads&) = delete;

  // The main thread's Hal: the program runs with it (user::ProgramInstance::run).
  Hal& main_hal();
  // The running thread's, whichever it is: for code that serves every thread (libspe2).
  Hal& running_hal();

  // pthread_create, pthread_join, pthread_self, pthread_exit, sched_yield; errors as POSIX's
  // (returned, not in errno).
  int create(unsigned long* id, Entry entry, void* (*fn)(void*), void* arg);
  int join(unsigned long id, void** result);
  int detach(unsigned long id);
  unsigned long self() const;
  // From the program's code: the running thread ends with `result` (the main thread waits for
  // the others, then the program exits with 0, as pthread_exit in main does).
  [[noreturn]] void exit(void* result);
  void yield();

  // The table the program's thread forwarders call (hs_ppe_thread_table).
  static const void* table();
  // Offers the table to `program` under its interface's name (its forwarders find it there).
  void provide_to(user::ProgramInstance& program);

  // Threads made so far (the main one included), for the report.
  int threads_created() const { return static_cast<int>(threads_.size()); }
  uint64_t switches() const { return switches_; }

  // Thrown in a thread the program's end interrupts (another thread called exit or crashed).
  struct ProgramEnded {};

 private:
  class ThreadHal;
  class RunningHal;
  struct Thread;
  friend class ThreadHal;
  friend class RunningHal;

  // Blocking points of the running thread.
  uint32_t wait_irq(Thread& t, uint32_t mask, uint64_t timeout_cycles);
  void maybe_preempt(Thread& t);
  // Hands the core to the next ready thread after `t`; returns when `t` runs again. Without a
  // ready thread, sleeps until an interrupt wakes one (`t` may be it) or, with a timeout,
  // until it passes (returns false then).
  bool give_way(Thread& t, uint64_t timeout_cycles = 0);
  Thread* next_ready(const Thread& after);
  void switch_to(Thread& next);
  void after_switch();  // in the thread switched back to: the program's end, an unwinding
  static void start(unsigned hi, unsigned lo);
  void thread_body(Thread& t);
  Thread* find(unsigned long id) const;

  Hal& core_;
  user::ProgramInstance& program_;
  uint64_t stack_bytes_;
  std::string stack_param_;
  uint64_t timeslice_;
  std::vector<std::unique_ptr<Thread>> threads_;  // [0]: main
  Thread* running_ = nullptr;
  std::unique_ptr<RunningHal> running_hal_;
  uint64_t slice_start_ = 0;
  uint64_t switches_ = 0;
  bool program_ended_ = false;    // in a thread other than main
  std::exception_ptr unwinding_;  // an unwinding that began in another thread's stack
};

}  // namespace hs::fw::cell_program
