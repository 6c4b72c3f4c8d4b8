// SIGINT and SIGTERM during a run stop the simulation at a safe point, so the run can still
// write its report and close its traces. The handler only records the signal and writes a
// byte to a pipe (both async-signal-safe); a watcher thread turns that byte into an
// asynchronous update request, and the kernel's next update phase pauses the simulation.
#pragma once
#include <condition_variable>
#include <mutex>
#include <systemc>
#include <thread>

namespace hs::runner {

class RunInterrupt : public sc_core::sc_prim_channel {
 public:
  // Create during elaboration; it catches nothing until arm().
  RunInterrupt();
  ~RunInterrupt() override;
  RunInterrupt(const RunInterrupt&) = delete;
  RunInterrupt& operator=(const RunInterrupt&) = delete;

  // Installs the handlers (a second signal of the same kind then has its usual effect).
  void arm();
  // The signal that asked for the stop, or 0.
  int signal() const;
  // Blocks until a signal has been passed to the kernel as a stop request.
  void wait_for_stop_request();

 private:
  void update() override;
  void watch();
  int pipe_[2] = {-1, -1};
  bool armed_ = false;
  std::thread watcher_;
  std::mutex mutex_;
  std::condition_variable requested_cv_;
  bool requested_ = false;
};

}  // namespace hs::runner
