#include "sw/user/crash_guard.h"

#include <signal.h>
#include <ucontext.h>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "sw/user/program_instance.h"

namespace hs::user {

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kSignalCount = sizeof kSignals / sizeof kSignals[0];
// The handlers before ours, for faults that are not a program's (written once, at install).
struct sigaction g_previous[kSignalCount];

#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kAltStack = 256 * 1024;
#else
constexpr size_t kAltStack = 64 * 1024;
#endif

struct Resolver {
  void* self;
  FaultResolver resolve;
};
std::vector<Resolver>& resolvers() {
  thread_local std::vector<Resolver> r;
  return r;
}

void on_signal(int sig, siginfo_t* info, void* context) {
  if ((sig == SIGSEGV || sig == SIGBUS) && info) {
    for (const Resolver& r : resolvers()) {
      if (r.resolve(r.self, info->si_addr)) return;  // the access runs again, and succeeds
    }
  }
  ProgramInstance* p = running_program();
  if (p) {
    const void* pc = nullptr;
#if defined(__x86_64__)
    pc = reinterpret_cast<const void*>(
        static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#endif
    p->crashed_by_signal(sig, info ? info->si_addr : nullptr, pc);
  }
  // The simulator's own fault: as if we had never been here. Returning re-raises a fault at
  // the same instruction (SIGABRT: abort() raises again with the default action).
  for (int i = 0; i < kSignalCount; ++i) {
    if (kSignals[i] == sig) sigaction(sig, &g_previous[i], nullptr);
  }
}

// This thread's alternate signal stack (a program that overflowed its stack has none left).
void ensure_alt_stack() {
  thread_local bool ready = false;
  if (ready) return;
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) {
    ready = true;  // someone (AddressSanitizer) set one up already
    return;
  }
  stack_t s{};
  s.ss_sp = std::malloc(kAltStack);  // for the thread's life
  s.ss_size = kAltStack;
  if (s.ss_sp && sigaltstack(&s, nullptr) == 0) ready = true;
}

}  // namespace

ProgramInstance*& running_program() {
  thread_local ProgramInstance* running = nullptr;
  return running;
}

void add_fault_resolver(void* self, FaultResolver resolve) {
  install_crash_guard();
  resolvers().push_back({self, resolve});
}

void remove_fault_resolver(void* self) {
  auto& r = resolvers();
  for (auto it = r.begin(); it != r.end(); ++it) {
    if (it->self == self) {
      r.erase(it);
      return;
    }
  }
}

void install_crash_guard() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < kSignalCount; ++i) {
      struct sigaction a {};
      a.sa_sigaction = on_signal;
      a.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&a.sa_mask);
      sigaction(kSignals[i], &a, &g_previous[i]);
    }
  });
  ensure_alt_stack();
}

}  // namespace hs::user
