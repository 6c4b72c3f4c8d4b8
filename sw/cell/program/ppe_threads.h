// A PPE program's POSIX threads on the PPE's two hardware threads, scheduled as its operating
// system schedules them: what lets a Cell program run each SPE context in its own thread
// (spe_context_run blocks its thread until the SPU program stops).
//
// Rules:
// - The PPE is a two-way multithreaded in-order core: up to two threads run at once, one on
//   each hardware thread. Each thread has its own stack (in the program's heap, so in the
//   Cell's memory: a pointer to a thread's local variable is an effective address an SPE can
//   DMA, as the main thread's are) with an inaccessible guard page below it, so an overflow is
//   a crash naming the thread and its stack size; its own Hal (its calls on a trace track of
//   its own; the main thread's on the PPE's) and its own state in the program instance
//   (user::ProgramInstance::Thread).
// - Sharing the core (Smt::share): while both hardware threads compute, each progresses at
//   `share` of the core's rate; one computing alone runs at the full rate. The default, 0.5,
//   follows the PPE's published design: it issues instructions from its two threads
//   alternately, so with both busy each gets every other issue cycle. A memory or register
//   access stalls its own hardware thread for the access's latency while the other computes at
//   the full rate meanwhile (a computation that ends inside the access resumes at its end).
// - The operating system's scheduling: a thread that blocks (waiting for an interrupt: an SPE
//   to stop, a mailbox; joining a thread that has not ended; yielding for a held mutex) leaves
//   its hardware thread; a free hardware thread takes the thread ready longest (preferring,
//   among free ones, the hardware thread it ran on last). With more runnable threads than
//   hardware threads, a thread that has run its time slice (Smt::timeslice_cycles) is preempted
//   at its next access or inside a computation, and goes to the back of the ready queue with
//   the rest of its computation. A hardware thread that starts a thread other than the one it
//   ran last first spends Smt::switch_cycles computing (the context switch, on the core like
//   any computation); each such switch is counted. A yield with no other thread ready costs
//   kYieldCycles (the system call).
// - Threads run their code natively, one at a time; a thread's own code costs no simulated
//   time itself (the compute model charges it at its next call, as a computation on its
//   hardware thread). Interrupts a sleeping thread waits for wake it while others compute.
//   The recovery timeout of an interrupt wait is not armed (as on a core without interrupt
//   faults).
// - The program ends as a process does: when its main thread returns or any thread calls exit
//   (or aborts, or crashes); the other threads are abandoned where they are.
// - Trace: each hardware thread has a track (`PPE.hw_thread0/1`) with a span per thread it ran
//   ("thread N") and per context switch; each thread's own track (`PPE.threadN`, the main
//   thread's too) shows, as async spans, the hardware thread it ran on ("hw thread K").
#pragma once
#include <ucontext.h>

#include <array>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "sw/hal/hal.h"
#include "sw/user/program_instance.h"

namespace hs::fw::cell_program {

class PpeThreads {
 public:
  // The program runtime's start of a thread: calls fn(arg), then ends the thread with its
  // result (a function of the program's module, so its code is the program's).
  using Entry = void (*)(void* (*fn)(void*), void* arg);

  struct Smt {
    double share = 0.5;             // of the core's rate, per hardware thread when both compute
    uint64_t switch_cycles = 0;     // a context switch, in PPE cycles
    uint64_t timeslice_cycles = 0;  // 0: a thread runs until it blocks
  };
  static constexpr int kHardwareThreads = 2;
  static constexpr uint64_t kYieldCycles = 200;

  // `core`: the PPE's Hal; `stack_bytes`: each new thread's stack (`stack_param` sets it).
  PpeThreads(Hal& core, user::ProgramInstance& program, uint64_t stack_bytes,
             std::string stack_param, Smt smt);
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

  // Threads made so far (the main one included), and context switches, for the report.
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

  // A hardware thread: the thread on it and what it does now.
  struct HwThread {
    enum class Does { Idle, Switching, Computing, Code };  // Code: the thread's code may run
    int index = 0;
    Thread* thread = nullptr;
    Thread* last = nullptr;  // the thread it ran last (no switch to run it again)
    Does does = Does::Idle;
    double work = 0;           // cycles left of the switch or computation, at the full rate
    uint64_t slice_start = 0;  // cycles: when its thread's slice began
    sc_core::sc_time since, switch_start;  // when its thread came on, its switch began
    int track = -1;
  };

  // The running thread's operations.
  void compute(Thread& t, uint64_t cycles);
  template <class Access>
  auto access(Thread& t, Access&& a) -> decltype(a());
  uint32_t wait_irq(Thread& t, uint32_t mask, uint64_t cycles);
  void maybe_preempt(Thread& t);

  // The scheduler. Returns when `t` is on a hardware thread with its code to run.
  void run_until(Thread& t);
  void dispatch();  // free hardware threads take ready threads
  void put_on(HwThread& h, Thread& t);
  void take_off(Thread& t);  // `t` leaves its hardware thread (blocked, preempted, ended)
  void make_ready(Thread& t);
  void finish_work(HwThread& h);  // its switch or computation is done
  void credit(const HwThread* except, double cycles, double rate);  // time passed for the busy
  void advance();  // lets time pass until something changes
  void wake(uint32_t lines);
  Thread* code_ready(const Thread& except);
  void switch_to(Thread& next);
  void after_switch();  // in the thread switched back to: the program's end, an unwinding
  // First thing on the stack switched to: tells AddressSanitizer the switch is done (`fake_stack`:
  // the arriving thread's, null on a new stack).
  void arrived(void* fake_stack);
  static void start(unsigned hi, unsigned lo);
  void thread_body(Thread& t);
  Thread* find(unsigned long id) const;
  uint32_t waiting_lines() const;

  Hal& core_;
  user::ProgramInstance& program_;
  uint64_t stack_bytes_;
  std::string stack_param_;
  Smt smt_;
  std::vector<std::unique_ptr<Thread>> threads_;  // [0]: main
  std::array<HwThread, kHardwareThreads> hw_;
  std::deque<Thread*> ready_;
  Thread* running_ = nullptr;        // whose code or call runs on the host now
  Thread* switched_from_ = nullptr;  // the thread the last switch left
  std::unique_ptr<RunningHal> running_hal_;
  uint64_t switches_ = 0;
  bool program_ended_ = false;    // in a thread other than main
  std::exception_ptr unwinding_;  // an unwinding that began in another thread's stack
};

}  // namespace hs::fw::cell_program
