// One running copy of a user program: an MPI rank, an SPU or PPE program, a host program.
// Machine-neutral: whoever runs programs (a workload) gives each instance its core (through the
// HAL), a region of that core's simulated memory and a way to map host windows into it.
//
// Rules an instance keeps:
// - Private as a process: each instance loads its own copy of the module (from an anonymous
//   file), so it has its own global and static variables, its own thread-local variables
//   (the C library gives each loaded copy its own thread-local block), its own argv, its own
//   heap (heap_arena.h) and its own exit handlers; errno, getopt's state and the C++ standard
//   streams are switched with it. Instances share nothing, and the layer keeps no state
//   outside them but one thread-local pointer, the instance whose code runs now (for the
//   crash handler; crash_guard.h).
// - Its memory is host-backed windows of its simulated region (memory_windows.h): code and
//   constants (read-only) and globals at load, its stack and heap when it starts.
// - It runs on its core's fiber, whose stack is its stack (a guarded stack: an overflow is a
//   crash, named). Host code between two calls into the simulator is charged to the core by
//   the compute model (compute_model.h) when the next call begins.
// - Every call into the simulator (an API's function, a service that blocks) goes through
//   call(): it charges the compute before it, shows the call as a span named after it on the
//   core's timeline, and keeps exceptions (the fiber unwinding, a firmware failure) from
//   crossing the program's frames: they resume from run() instead.
// - It ends by returning from main or calling exit (Exited, with the status), by abort or a
//   failed assertion (Aborted), by a signal its own code raised (Crashed: SIGSEGV, SIGBUS,
//   SIGFPE, SIGILL, SIGABRT, a stack overflow), or by terminate() from an API (MPI_Abort).
//   Whatever the end, run() returns to the firmware that called it, and the run goes on to
//   write its report and trace.
#pragma once
#include <csetjmp>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <streambuf>
#include <string>
#include <type_traits>
#include <vector>

#include "sw/hal/hal.h"
#include "sw/user/compute_model.h"
#include "sw/user/heap_arena.h"
#include "sw/user/memory_windows.h"
#include "sw/user/program_image.h"
#include "sw/user/program_output.h"
#include "sw/user/user_abi.h"

namespace hs::user {

// Maps and unmaps host windows in the simulated memory that holds an instance's region.
struct WindowMapper {
  std::function<void(const MemoryWindow&)> map;
  std::function<void(const MemoryWindow&)> unmap;
};

struct InstanceSetup {
  std::string name;               // "rank 3": how messages name the instance
  std::string label;              // "3": its output lines' label
  std::vector<std::string> args;  // argv[1...]; argv[0] is the program's path
  uint64_t region_base = 0;       // its simulated memory: [base, base + bytes)
  uint64_t region_bytes = 0;
  uint64_t stack_bytes = 0;  // its core's fiber stack (the runner sets the core's)
  std::string stack_param;   // the parameter that sets it, named when the stack overflows
  ComputeModel compute;
  ProgramOutput* output = nullptr;
};

class ProgramInstance {
 public:
  enum class End { Running, Exited, Aborted, Crashed };

  // Loads a private copy of `image` and maps its code, constants and globals. Throws
  // std::runtime_error when the copy cannot be loaded or its segments do not fit the region.
  ProgramInstance(std::shared_ptr<const ProgramImage> image, InstanceSetup setup,
                  WindowMapper mapper);
  ~ProgramInstance();
  ProgramInstance(const ProgramInstance&) = delete;
  ProgramInstance& operator=(const ProgramInstance&) = delete;

  // An interface the program may ask for by name (the MPI binding provides "mpi").
  void provide_api(const std::string& name, uint32_t version, const void* table, void* self);

  // From its core's firmware, on the core's fiber: maps the stack and the heap, runs main and
  // returns when the program has ended (end() says how). Rethrows what a blocking point inside
  // a call threw (the fiber unwinding at the end of a run, a firmware failure).
  void run(fw::Hal& hal);

  // A call into the simulator from the program: `body` runs between the two halves of the
  // bookkeeping above; its result is returned to the program. `name` is a literal, shown as
  // the call's span on the core's timeline; nullptr for calls not worth one (MPI_Comm_rank).
  template <class F>
  auto call(const char* name, F&& body) -> decltype(body());
  // Runs at the start of every call, after the program's code is charged, with the calling
  // thread's Hal (what must follow the program's code at once: sw/cell/program/ls_mapping.h).
  void add_call_hook(std::function<void(fw::Hal&)> hook) { call_hooks_.push_back(std::move(hook)); }
  // The program's own code called back from inside a call (an MPI user operation, an error
  // handler): it is charged like any other stretch of the program's code, and a crash in it is
  // the program's.
  void run_program_code(const std::function<void()>& code);
  // From inside call(): the errno the program sees when the call returns (an API that sets
  // errno, as libspe2 does).
  void set_errno(int e) { cur_->program_errno = e; }
  // From inside call(): ends the program now, as exit would (MPI_Abort). Never returns: it
  // leaves the frames between here and the program's start without destroying what they hold,
  // so a caller's own strings leak; the const char* form keeps none in the caller's frame.
  [[noreturn]] void terminate(End how, int status, const std::string& why);
  [[noreturn]] void terminate(End how, int status, const char* why);

  End end() const { return end_; }
  bool ended() const { return end_ != End::Running; }
  int exit_status() const { return status_; }
  // How it ended, in words: "exited with status 3", "crashed: SIGSEGV at address 0x10 (in
  // main at ring.c:42)", "aborted: ring.c:12: main: Assertion `x' failed."
  std::string end_description() const;

  const std::string& name() const { return setup_.name; }
  const ProgramImage& image() const { return *image_; }
  fw::Hal& hal() { return *cur_->hal; }
  bool started() const { return main_.hal != nullptr; }
  const MemoryWindows& windows() const { return windows_; }
  HeapArena& heap() { return *heap_; }
  const HeapArena* heap_if_started() const { return heap_.get(); }
  ProgramOutput::Streams& output() { return streams_; }
  // Where the program's latest call came from: "ring.c:42" when built with -g (resolved by
  // addr2line), else "ring+0x1234". Costs a process start: for error messages only.
  std::string call_site() const;
  // The return address behind call_site(), for resolving later.
  const void* runtime_call_site() const { return runtime_ ? runtime_->call_site : nullptr; }
  std::string describe_code_address(const void* pc) const;
  // Simulated cycles charged for the program's own code so far, and the calls it made.
  uint64_t compute_cycles() const { return compute_cycles_; }
  uint64_t calls() const { return calls_; }
  // Host memory the instance holds: its module copy's segments, its heap's touched part, its
  // stack (for the memory-per-instance figure).
  uint64_t host_bytes() const;

  // A thread of the program besides its main one (a PPE program's pthreads,
  // sw/cell/program/ppe_threads.h): its own Hal (its trace track), stack, calls under way and
  // jump point; memory, output, exit handlers and the program's end are the process's. Threads
  // switch only inside calls, by their scheduler (switch_thread), never in the program's code.
  struct Thread {
    fw::Hal* hal = nullptr;
    int depth = 0;            // calls under way (a user operation's code runs inside one)
    std::vector<bool> spans;  // per call under way: whether it opened a span
    sigjmp_buf jump;          // where exit, a crash or the thread's end resume
    std::exception_ptr escaped;
    int program_errno = 0;
  };
  Thread& main_thread() { return main_; }
  Thread& current_thread() { return *cur_; }
  // From inside a call of the running thread: the scheduler hands the core to `to`, which
  // continues inside a call of its own (or starts, in run_thread).
  void switch_thread(Thread& to) { cur_ = &to; }
  // On `t`'s own stack, `t` being the running thread: runs `start` (the program's thread
  // function, which ends through a call: thread_ended) and returns when the thread has ended,
  // or when the program ended in it (exit, abort, a crash: end() says how). Rethrows what a
  // blocking point inside a call threw (the fiber unwinding).
  void run_thread(Thread& t, fw::Hal& hal, const std::function<void()>& start);
  // From inside a call: the running thread is over (it returned, or called pthread_exit).
  [[noreturn]] void thread_ended();

  // A guarded stack besides the main one (a thread's): a fault in [guard, guard + guard_bytes)
  // is reported as `whose` stack of `stack_bytes` overflowing, naming `param` to raise.
  void add_stack_guard(const void* guard, uint64_t guard_bytes, std::string whose,
                       uint64_t stack_bytes, std::string param);
  void remove_stack_guard(const void* guard);

  // The crash handler's entry (crash_guard.cpp): records the signal and resumes run().
  [[noreturn]] void crashed_by_signal(int sig, const void* fault_address, const void* pc);

 private:
  struct LibcState;  // what is switched with the instance (errno, getopt, C++ streams)
  class StreamBuf;
  void enter(const char* name);
  void back_to_simulator();  // the simulator's errno, getopt state and C++ streams again
  void leave();
  // Charges the program's code since it last resumed (the compute model).
  void charge_program_code();
  [[noreturn]] void escape(std::exception_ptr e);
  [[noreturn]] void jump_out();
  void map_window(const void* host, uint64_t bytes, bool writable, const std::string& what);
  void map_segments();
  void make_services();

  std::shared_ptr<const ProgramImage> image_;
  InstanceSetup setup_;
  WindowMapper mapper_;
  MemoryWindows windows_;
  std::vector<MemoryWindow> mapped_;
  int memfd_ = -1;
  void* handle_ = nullptr;
  uintptr_t load_base_ = 0;
  const hs_user_runtime* runtime_ = nullptr;
  hs_user_services services_{};
  struct Api {
    uint32_t version;
    const void* table;
    void* self;
  };
  std::map<std::string, Api> apis_;
  std::vector<std::function<void(fw::Hal&)>> call_hooks_;
  double core_hz_ = 0;
  std::unique_ptr<HeapArena> heap_;
  void* heap_host_ = nullptr;
  uint64_t heap_bytes_ = 0;
  struct StackGuard {
    const char* guard;  // the inaccessible page(s) below the stack
    uint64_t guard_bytes;
    std::string whose;  // "" for the main thread's, "thread 2"
    uint64_t stack_bytes;
    std::string param;
  };
  std::vector<StackGuard> stack_guards_;  // [0]: the main stack's, once run() began
  std::vector<std::string> argv_strings_;
  std::vector<char*> argv_;
  ProgramOutput::Streams streams_;
  std::unique_ptr<LibcState> libc_;
  std::unique_ptr<StreamBuf> cout_buf_, cerr_buf_;

  End end_ = End::Running;
  int status_ = 0;
  std::string why_;
  int signal_ = 0;
  const void* fault_address_ = nullptr;
  const void* fault_pc_ = nullptr;
  const StackGuard* overflowed_ = nullptr;  // the stack a crash overflowed
  double left_at_ = 0;                      // host CPU time when the program's code last resumed
  uint64_t compute_cycles_ = 0, calls_ = 0;
  Thread main_;
  Thread* cur_ = &main_;  // the thread whose code or call runs now
};

template <class F>
auto ProgramInstance::call(const char* name, F&& body) -> decltype(body()) {
  using R = decltype(body());
  std::exception_ptr escaped;
  if constexpr (std::is_void_v<R>) {
    try {
      enter(name);
      body();
      leave();
    } catch (...) {
      escaped = std::current_exception();
    }
    if (escaped) escape(std::move(escaped));
  } else {
    R result{};
    try {
      enter(name);
      result = body();
      leave();
    } catch (...) {
      escaped = std::current_exception();
    }
    if (escaped) escape(std::move(escaped));
    return result;
  }
}

}  // namespace hs::user
