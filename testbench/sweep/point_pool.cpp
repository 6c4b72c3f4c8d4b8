#include "testbench/sweep/point_pool.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

#include "testbench/sweep/build_info.h"
#include "testbench/sweep/external_command.h"
#include "tlm/common/errors.h"

namespace hs::sweep {

using Clock = std::chrono::steady_clock;

namespace {

struct Running {
  const SweepPoint* point;
  Clock::time_point started;
};

pid_t start_point(const SweepSpec& spec, const SweepPoint& p, const PointStore& store,
                  const std::string& self) {
  std::vector<std::string> args = {self,          "run",
                                   spec.scenario, "--quiet",
                                   "--seed",      std::to_string(p.seed),
                                   "--report",    store.report_path(p.key)};
  for (const auto& a : p.assignments(spec)) {
    args.push_back("--set");
    args.push_back(a);
  }
  std::remove(store.report_path(p.key).c_str());  // a stale report must not pass for this run
  return start_logged(args, store.log_path(p.key), {"SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"});
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
                const std::function<void(const PoolStatus&)>& on_change) {
  std::map<pid_t, Running> running;
  PoolStatus status;
  size_t next = 0;
  while (next < points.size() || !running.empty()) {
    while (next < points.size() && running.size() < static_cast<size_t>(jobs)) {
      const pid_t pid = start_point(spec, points[next], store, self);
      running[pid] = Running{&points[next], Clock::now()};
      ++next;
    }
    status.running = running.size();
    on_change(status);
    int ws = 0;
    const pid_t pid = waitpid(-1, &ws, 0);
    if (pid < 0) throw ToolError("waitpid failed while running sweep points");
    const auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    const double wall = std::chrono::duration<double>(Clock::now() - it->second.started).count();
    const PointRecord r = finish_point(spec, *it->second.point, store, ws, wall);
    store.write(r);
    running.erase(it);
    ++status.done;
    if (!r.passed()) ++status.failed;
    status.running = running.size();
    on_change(status);
  }
}

}  // namespace hs::sweep
