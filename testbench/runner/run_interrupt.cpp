#include "testbench/runner/run_interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace hs::runner {

namespace {

volatile std::sig_atomic_t g_signal = 0;
int g_wake_fd = -1;  // write end of the current RunInterrupt's pipe
struct sigaction g_old_int {
}, g_old_term{};

extern "C" void on_stop_signal(int sig) {
  const int saved = errno;
  g_signal = sig;
  const char byte = 's';
  if (g_wake_fd >= 0) (void)!write(g_wake_fd, &byte, 1);
  errno = saved;
}

}  // namespace

RunInterrupt::RunInterrupt() : sc_prim_channel("run_interrupt") {}

RunInterrupt::~RunInterrupt() {
  if (!armed_) return;
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
  g_wake_fd = -1;
  const char quit = 'q';
  (void)!write(pipe_[1], &quit, 1);
  watcher_.join();
  close(pipe_[0]);
  close(pipe_[1]);
}

void RunInterrupt::arm() {
  if (armed_) return;
  if (pipe2(pipe_, O_CLOEXEC) != 0) return;  // without a pipe a signal keeps its usual effect
  armed_ = true;
  g_signal = 0;
  g_wake_fd = pipe_[1];
  // The watcher must not take the signals itself: they interrupt the simulation's thread.
  sigset_t stop_signals, previous;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);
  watcher_ = std::thread([this] { watch(); });
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
  // A signal ignored on the way in (SIGINT in a shell's background job, nohup) stays ignored.
  if (g_old_int.sa_handler == SIG_IGN) sigaction(SIGINT, &g_old_int, nullptr);
  if (g_old_term.sa_handler == SIG_IGN) sigaction(SIGTERM, &g_old_term, nullptr);
}

int RunInterrupt::signal() const {
  return g_signal;
}

void RunInterrupt::watch() {
  for (;;) {
    char byte = 0;
    const ssize_t n = read(pipe_[0], &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || byte == 'q') return;
    async_request_update();  // the one kernel call that is safe from another thread
    {
      std::lock_guard<std::mutex> lock(mutex_);
      requested_ = true;
    }
    requested_cv_.notify_all();
  }
}

void RunInterrupt::wait_for_stop_request() {
  std::unique_lock<std::mutex> lock(mutex_);
  requested_cv_.wait(lock, [this] { return requested_; });
}

void RunInterrupt::update() {
  // Between delta cycles: every process has yielded, so the run can end here and report.
  sc_core::sc_pause();
}

}  // namespace hs::runner
