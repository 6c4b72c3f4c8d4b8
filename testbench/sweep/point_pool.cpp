#include "testbench/sweep/point_pool.h"

#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <csignal>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

#include "testbench/runner/simulation.h"
#include "testbench/sweep/build_info.h"
#include "testbench/sweep/external_command.h"
#include "tlm/common/errors.h"

namespace hs::sweep {

using Clock = std::chrono::steady_clock;

namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void request_stop(int) {
  g_stop = 1;
}

// SIGINT (Ctrl-C) and SIGTERM (kill, or Slurm at a task's time limit) end a pool cleanly:
// no new point starts, the points in flight are stopped, every finished point stays recorded.
class StopOnSignals {
 public:
  StopOnSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = request_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR so the pool sees the request
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopOnSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

struct Running {
  const SweepPoint* point;
  Clock::time_point started;
};

pid_t start_point(const SweepSpec& spec, const SweepPoint& p, const PointStore& store,
                  const std::string& self, PointLauncher launcher) {
  std::vector<std::string> args = {self,          "run",
                                   spec.scenario, "--quiet",
                                   "--seed",      std::to_string(p.seed),
                                   "--report",    store.report_path(p.key)};
  for (const auto& a : p.assignments(spec)) {
    args.push_back("--set");
    args.push_back(a);
  }
  std::remove(store.report_path(p.key).c_str());  // a stale report must not pass for this run
  store.mark_started(p.key);
  StartOptions options;
  options.env = {"SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"};
  return start_logged(point_command(spec.processes, launcher, std::move(args)),
                      store.log_path(p.key), options);
}

PointRecord finish_point(const SweepSpec& spec, const SweepPoint& p, const PointStore& store,
                         int wait_status, double wall) {
  PointRecord r;
  r.key = p.key;
  r.point = p.index;
  r.params = p.params(spec);
  r.seed = p.seed;
  const bool signalled = WIFSIGNALED(wait_status);
  r.exit_code = signalled ? 128 + WTERMSIG(wait_status) : WEXITSTATUS(wait_status);
  r.status = status_of_exit(r.exit_code, signalled);
  r.wall_seconds = wall;
  r.host = host_name();
  r.git_revision = git_revision();
  if (auto report = store.read_report(p.key)) {
    r.sim_wall_seconds = report->value("/run/wall_seconds"_json_pointer, 0.0);
    if (!r.passed() && report->contains("checks")) {
      const auto& v = (*report)["checks"].value("violations", nlohmann::json::array());
      if (!v.empty()) {
        r.error = v.front().value("component", "") + ": " + v.front().value("message", "");
      }
    }
  }
  if (!r.passed() && r.error.empty()) r.error = first_error_line(store.log_path(p.key));
  if (signalled && r.error.empty())
    r.error = "killed by signal " + std::to_string(WTERMSIG(wait_status));
  if (!r.passed() && r.error.empty()) r.error = "exit code " + std::to_string(r.exit_code);
  return r;
}

}  // namespace

std::vector<std::string> point_command(int processes, PointLauncher launcher,
                                       std::vector<std::string> run_args) {
  if (processes <= 1) return run_args;
  const std::string n = std::to_string(processes);
  // Several points may run at once: mpirun must not pin each one's processes to the same
  // first cores, and srun's steps share the allocation's CPUs (--exact) rather than each
  // waiting for all of them.
  std::vector<std::string> cmd =
      launcher == PointLauncher::Slurm
          ? std::vector<std::string>{"srun", "--ntasks=" + n, "--mpi=pmix", "--exact"}
          : std::vector<std::string>{"mpirun", "-np", n, "--bind-to", "none"};
  cmd.insert(cmd.end(), run_args.begin(), run_args.end());
  return cmd;
}

std::string first_error_line(const std::string& log_path) {
  std::ifstream in(log_path);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.rfind("hybridsim: ", 0) == 0) return line.substr(11);
    if (!line.empty()) last = line;
  }
  return last;
}

void run_points(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                const PointStore& store, const std::string& self, int jobs,
                const std::function<void(const PoolStatus&)>& on_change, PointLauncher launcher) {
  StopOnSignals stop_guard;
  std::map<pid_t, Running> running;
  PoolStatus status;
  size_t next = 0;
  bool children_stopped = false;
  while ((next < points.size() && !g_stop) || !running.empty()) {
    while (next < points.size() && !g_stop && running.size() < static_cast<size_t>(jobs)) {
      const pid_t pid = start_point(spec, points[next], store, self, launcher);
      running[pid] = Running{&points[next], Clock::now()};
      ++next;
    }
    status.running = running.size();
    on_change(status);
    if (g_stop && !children_stopped) {
      // Interrupted: stop the points in flight; they are not recorded, so they run again.
      for (const auto& [pid, _] : running) kill(pid, SIGTERM);
      children_stopped = true;
    }
    int ws = 0;
    const pid_t pid = waitpid(-1, &ws, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) throw ToolError("waitpid failed while running sweep points");
    const auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    // A point stopped with the sweep exits interrupted (or, stopped before its run began, by
    // the signal): it is not recorded, so a rerun runs it.
    const bool killed_by_stop =
        g_stop &&
        (WIFSIGNALED(ws) || (WIFEXITED(ws) && WEXITSTATUS(ws) == runner::kInterruptedExit));
    if (!killed_by_stop) {
      const double wall = std::chrono::duration<double>(Clock::now() - it->second.started).count();
      const PointRecord r = finish_point(spec, *it->second.point, store, ws, wall);
      store.write(r);
      ++status.done;
      if (!r.passed()) ++status.failed;
    }
    running.erase(it);
    status.running = running.size();
    on_change(status);
  }
  status.interrupted = g_stop != 0;
  on_change(status);
}

}  // namespace hs::sweep
