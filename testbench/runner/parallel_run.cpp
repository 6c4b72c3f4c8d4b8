#include "testbench/runner/parallel_run.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "testbench/checkers/partition_log.h"
#include "tlm/check/checker.h"
#include "tlm/check/physical_limits.h"
#include "tlm/common/errors.h"
#include "tlm/stats/statistics.h"

namespace hs::runner {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

constexpr uint64_t kNone = UINT64_MAX;

// Why a partition wants the run to stop, the most serious first when several do.
enum Stop : uint64_t { kGoOn = 0, kViolation = 1, kSignal = 2, kKernelError = 3 };

uint64_t next_event_ps() {
  // Before the first window the kernel has not started its processes (firmware threads
  // included): they run at time 0.
  if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) return 0;
  if (!sc_core::sc_pending_activity()) return kNone;
  return sc_core::sc_time_stamp().value() + sc_core::sc_time_to_pending_activity().value();
}

// Runs this partition's events before `until_ps` (never past its own last one).
void run_until(uint64_t until_ps) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (until_ps > now) {
    sc_core::sc_start(sc_core::sc_time::from_value(until_ps - now), sc_core::SC_EXIT_ON_STARVATION);
  }
}

// Moves time on to `at_ps` (no event lies before it).
void advance_to(uint64_t at_ps) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (at_ps > now) {
    sc_core::sc_start(sc_core::sc_time::from_value(at_ps - now), sc_core::SC_RUN_TO_TIME);
  }
}

// A test hook, HYBRIDSIM_TEST_PARTITION_EXIT="P:W" in the environment: partition P dies
// (exit status 3, without a word to the others) at the end of its W-th window, so a test can
// prove that the launcher then ends the whole run rather than letting it hang.
void test_partition_exit(int rank, uint64_t window) {
  static const char* spec = std::getenv("HYBRIDSIM_TEST_PARTITION_EXIT");
  if (!spec) return;
  int p = -1;
  unsigned long long w = 0;
  if (std::sscanf(spec, "%d:%llu", &p, &w) == 2 && p == rank && w == window) {
    std::fprintf(stderr, "hybridsim: partition %d: dying at window %llu (test hook)\n", p, w);
    std::_Exit(3);
  }
}

double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

uint64_t ps(double ns) {
  return static_cast<uint64_t>(ns * 1e3 + 0.5);
}

}  // namespace

double pss_mib() {
  std::FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  if (!f) return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (std::sscanf(line, "Pss: %llu kB", &kib) == 1) break;
  }
  std::fclose(f);
  return static_cast<double>(kib) / 1024.0;
}

const std::vector<std::string>& partitionable_workloads() {
  static const std::vector<std::string> names{
      "torus_traffic",      "halo3d",     "allreduce", "sweep3d",         "pingpong_pairs",
      "random_permutation", "transpose",  "program",   "mpi_conformance", "torus_pingpong",
      "torus_ami",          "mpi_program"};
  return names;
}

void require_partitionable(const std::string& scenario, const std::string& workload,
                           const std::string& launcher, int processes) {
  const auto& ok = partitionable_workloads();
  if (std::find(ok.begin(), ok.end(), workload) != ok.end()) return;
  throw InputError(fmt::format(
      "{}: started by {} as {} processes, but workload {} does not run partitioned over "
      "processes yet; a parallel run supports workload{} {}: run it as one process",
      scenario, launcher, processes, workload, ok.size() == 1 ? "" : "s", fmt::join(ok, ", ")));
}

RunEnd run_partitioned(const RunLimits& limits, RunInterrupt& interrupt, ProcessGroup& group,
                       PartitionedModel& model, PartitionTimes& times) {
  RunEnd end;
  const uint64_t lookahead = model.lookahead_ps();
  if (lookahead == 0) {
    group.abort("the model has no lookahead (a message crosses the cut with no delay)");
  }
  uint64_t limit_ps = kNone;
  for (double ns : {limits.stop_at_ns, limits.time_limit_ns}) {
    if (ns > 0) limit_ps = std::min(limit_ps, ps(ns));
  }
  const std::vector<int> peers = model.neighbours();
  uint64_t stop = kGoOn;
  while (true) {
    // The window's end: exchange cut traffic, then vote on what comes next.
    const auto sync0 = Clock::now();
    try {
      const std::vector<Bytes> in = group.exchange(peers, model.take_cut_messages());
      for (const Bytes& b : in) model.receive_cut_messages(b);
    } catch (const std::exception& e) {  // the others wait for this one: end them all
      group.abort(std::string("cut traffic: ") + e.what());
    }
    if (model.replays_each_window()) {
      try {
        const std::vector<Bytes> logs = group.gather(model.take_window_log());
        if (group.rank() == 0) model.replay_window_logs(logs);
      } catch (const std::exception& e) {  // the others wait for this one: end them all
        group.abort(std::string("the checkers' logs: ") + e.what());
      }
    }
    if (stop == kGoOn && interrupt.signal()) stop = kSignal;
    if (stop == kGoOn && !CheckRegistry::instance().ok()) stop = kViolation;
    Vote v;
    v.min = {next_event_ps(), checkers::earliest_violation_ps()};
    v.max = {stop, sc_core::sc_time_stamp().value()};
    v.sum = model.window_sums();
    group.vote(v);
    if (model.shows_each_window()) {
      try {
        model.show_window_records(group.gather(model.take_window_records()));
      } catch (const std::exception& e) {  // the others wait for this one: end them all
        group.abort(std::string("what the run shows: ") + e.what());
      }
    }
    times.sync_s += seconds_since(sync0);
    const uint64_t next = v.min[0], reached = v.max[1];
    if (v.max[0] == kGoOn && model.stop_on(v.sum)) {
      advance_to(reached);
      end.reason = RunEndReason::Violation;
      break;
    }
    if (v.max[0] != kGoOn) {
      // A partition behind the earliest violation (found in another partition, or in the
      // replay of one's log) moves on to it: no run ends before the failure it reports.
      if (v.max[0] == kViolation && v.min[1] != kNone) advance_to(v.min[1]);
      end.reason = v.max[0] == kSignal      ? RunEndReason::Signal
                   : v.max[0] == kViolation ? RunEndReason::Violation
                                            : RunEndReason::KernelError;
      break;
    }
    if (next == kNone) {  // no event anywhere: the run ends at the last one
      advance_to(reached);
      end.reason = RunEndReason::Finished;
      break;
    }
    if (next >= limit_ps) {
      advance_to(limit_ps);
      end.reason = limits.stop_at_ns > 0 && limit_ps >= ps(limits.stop_at_ns)
                       ? RunEndReason::StopAt
                       : RunEndReason::TimeLimit;
      break;
    }
    const auto work0 = Clock::now();
    try {
      run_until(std::min(next + lookahead, limit_ps));
    } catch (const sc_core::sc_report& r) {
      end.kernel_error = r.what();
      stop = kKernelError;
    } catch (const std::exception& e) {
      end.kernel_error = e.what();
      stop = kKernelError;
    }
    times.work_s += seconds_since(work0);
    test_partition_exit(group.rank(), ++times.windows);
  }
  times.cut_messages = model.cut_messages_sent();
  return end;
}

std::vector<PartitionTimes> merge_partitions(ProcessGroup& group, PartitionedModel& model,
                                             const PartitionTimes& mine) {
  PartitionTimes sent = mine;
  sent.nodes_built = model.nodes_built();
  sent.peak_rss_mib = peak_rss_mib();
  sent.pss_at_end_mib = pss_mib();
  ByteWriter t;
  t.put(sent);
  // The limits of the groups only this partition built are checked here; partition 0 checks
  // the machine's, merged (check_physical_limits).
  if (group.rank() != 0) check_physical_limits(sc_core::sc_time_stamp(), true);
  const std::vector<Bytes> stats = group.gather(StatsRegistry::instance().save());
  const std::vector<Bytes> checks = group.gather(CheckRegistry::instance().save());
  const std::vector<Bytes> figures = group.gather(model.save_partition());
  const std::vector<Bytes> partition_times = group.gather(t.take());
  std::vector<PartitionTimes> out;
  if (group.rank() != 0) return out;
  try {
    for (size_t p = 1; p < stats.size(); ++p) {
      StatsRegistry::instance().merge(stats[p]);
      CheckRegistry::instance().merge(checks[p]);
      model.merge_partition(figures[p]);
    }
  } catch (const std::exception& e) {
    group.abort(std::string("merging the partitions' figures: ") + e.what());
  }
  for (const Bytes& b : partition_times) {
    ByteReader r(b);
    out.push_back(r.get<PartitionTimes>());
  }
  return out;
}

nlohmann::json parallel_json(const PartitionedModel& model, const PartitionTimes& mine,
                             const std::vector<PartitionTimes>& partitions, double wall_s) {
  nlohmann::json each = nlohmann::json::array();
  double work_max = 0, work_sum = 0, sync_sum = 0, rss_sum = 0, pss_sum = 0;
  uint64_t cut = 0;
  for (const PartitionTimes& p : partitions) {
    each.push_back({{"work_seconds", p.work_s},
                    {"sync_seconds", p.sync_s},
                    {"cut_messages_sent", p.cut_messages},
                    {"nodes_built", p.nodes_built},
                    {"peak_rss_MiB", p.peak_rss_mib},
                    {"pss_at_end_MiB", p.pss_at_end_mib}});
    rss_sum += p.peak_rss_mib;
    pss_sum += p.pss_at_end_mib;
    work_max = std::max(work_max, p.work_s);
    work_sum += p.work_s;
    sync_sum += p.sync_s;
    cut += p.cut_messages;
  }
  const double n = static_cast<double>(partitions.size());
  return {{"partitioning", model.partitioning()},
          {"lookahead_ns", static_cast<double>(model.lookahead_ps()) / 1e3},
          {"windows", mine.windows},
          {"cut_messages", cut},
          // The busiest partition's work over the mean: 1 is a perfect balance.
          {"imbalance", work_sum > 0 ? work_max / (work_sum / n) : 1.0},
          // Of the partitions' wall time, the share spent exchanging and voting.
          {"sync_share", wall_s > 0 ? sync_sum / (n * wall_s) : 0.0},
          // Every process's peak resident memory added: the run's memory in all.
          {"peak_rss_MiB_total", rss_sum},
          // The same at the run's end with shared pages counted once (proportional set sizes):
          // the figure to hold against the sequential run's memory.
          {"pss_at_end_MiB_total", pss_sum},
          {"by_partition", std::move(each)}};
}

}  // namespace hs::runner
