#include "testbench/runner/simulation.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "testbench/runner/parallel_outputs.h"
#include "testbench/runner/parallel_run.h"
#include "testbench/runner/report_rows.h"
#include "testbench/runner/report_text.h"
#include "testbench/runner/run_loop.h"
#include "testbench/runner/stats_csv.h"
#include "tlm/check/checker.h"
#include "tlm/check/physical_limits.h"
#include "tlm/common/errors.h"
#include "tlm/common/memory_budget.h"
#include "tlm/common/output_file.h"
#include "tlm/fault/fault_injector.h"
#include "tlm/kernel/kernel_setup.h"
#include "tlm/parallel/launcher.h"
#include "tlm/parallel/process_group.h"
#include "tlm/params/param_registry.h"
#include "tlm/params/quantity.h"
#include "tlm/stats/statistics.h"
#include "tlm/trace/firmware_log.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::runner {

using Json = nlohmann::json;

namespace {

const char* describe(Core::State s) {
  switch (s) {
    case Core::State::Idle:
      return "idle";
    case Core::State::Compute:
      return "running";
    case Core::State::MemoryStall:
      return "stalled on a bus access";
    case Core::State::WaitIrq:
      return "waiting for an interrupt";
    case Core::State::Done:
      return "done";
  }
  return "?";
}

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

// A test hook, named by HYBRIDSIM_TEST_HOLD="NS:PATH": at NS nanoseconds of simulated time
// the run writes "held" into PATH (a FIFO the test reads) and waits until SIGINT or SIGTERM
// has asked it to stop, so a test can interrupt it at a known point without racing it.
class TestHold : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TestHold);
  TestHold(sc_core::sc_module_name name, double at_ns, std::string fifo, RunInterrupt& interrupt)
      : sc_module(name), at_(at_ns, sc_core::SC_NS), fifo_(std::move(fifo)), interrupt_(interrupt) {
    SC_THREAD(hold);
  }

 private:
  void hold() {
    wait(at_);
    std::ofstream(fifo_) << "held\n";  // opening a FIFO waits for its reader
    interrupt_.wait_for_stop_request();
  }
  sc_core::sc_time at_;
  std::string fifo_;
  RunInterrupt& interrupt_;
};

std::unique_ptr<sc_core::sc_module> make_test_hold(RunInterrupt& interrupt) {
  const char* spec = std::getenv("HYBRIDSIM_TEST_HOLD");
  if (!spec) return nullptr;
  const std::string text = spec;
  const auto colon = text.find(':');
  char* rest = nullptr;
  const double ns = std::strtod(text.c_str(), &rest);
  if (colon == std::string::npos || rest != text.c_str() + colon || ns < 0) {
    throw InputError(fmt::format("HYBRIDSIM_TEST_HOLD must be NS:PATH, got '{}'", text));
  }
  return std::make_unique<TestHold>("test_hold", ns, text.substr(colon + 1), interrupt);
}

}  // namespace

namespace {

// --trace-start, --trace-end, --trace-only and --trace-limit, checked before anything runs.
TraceLimits trace_limits(const RunOptions& opts) {
  TraceLimits l;
  auto quantity = [](const std::string& option, const std::string& text, const char* unit) {
    // A bare number is in the base unit (ns, B); otherwise a suffix ("20us", "512MiB").
    const std::optional<double> v = parse_quantity(text, unit);
    if (!v || *v < 0) {
      const std::string why = v ? "is negative" : quantity_error(text, unit);
      throw InputError(fmt::format("{} '{}': {}; it expects a {} such as {}", option, text, why,
                                   std::string(unit) == "ns" ? "time" : "size",
                                   std::string(unit) == "ns" ? "'20us'" : "'512MiB'"));
    }
    return *v;
  };
  if (!opts.trace_start.empty()) l.start_ns = quantity("--trace-start", opts.trace_start, "ns");
  if (!opts.trace_end.empty()) l.end_ns = quantity("--trace-end", opts.trace_end, "ns");
  if (l.end_ns > 0 && l.end_ns <= l.start_ns) {
    throw InputError(fmt::format("--trace-end '{}' is not after --trace-start '{}'", opts.trace_end,
                                 opts.trace_start));
  }
  l.only = opts.trace_only;
  l.max_bytes = static_cast<uint64_t>(quantity("--trace-limit", opts.trace_limit, "B"));
  return l;
}

}  // namespace

Simulation::DropUnfinishedOutputs::~DropUnfinishedOutputs() {
  TransactionTrace::instance().abandon();
  SignalTrace::instance().abandon();
}

Simulation::Simulation(const RunOptions& opts) : opts_(opts) {
  // Several processes started together run one simulation partitioned over them
  // (parallel_run.h), through MPI; what cannot run so is refused before anything is built or
  // written, since each process would otherwise run the whole machine and overwrite the
  // others' outputs.
  const Launch launch = launched();
  if (launch.processes > 1 && !launch.unreachable.empty()) {
    throw InputError(fmt::format("{}: started by {} as {} processes (this is process {}), but {}",
                                 opts.scenario, launch.launcher, launch.processes, launch.rank,
                                 launch.unreachable));
  }
  // --quiet prints nothing but errors: the kernel's warnings (W505 and the like) included.
  if (opts.quiet) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  }
  FirmwareLog::instance().set_echo(!opts.quiet);
  // Output names first: a mistake there must not cost the user a model build to find out.
  // "-" is standard output, which one output can have (and then the text report gives way).
  std::vector<std::string> to_stdout;
  for (const auto& [option, path] : {std::pair{"--report", &opts.report_path},
                                     {"--stats-csv", &opts.stats_csv_path},
                                     {"--link-csv", &opts.link_csv_path},
                                     {"--trace", &opts.trace_path}}) {
    if (*path == kStandardOutput) to_stdout.push_back(option);
  }
  if (to_stdout.size() > 1) {
    throw InputError(
        fmt::format("{} {} ask for standard output ('-'); give all but one of them a file name",
                    fmt::join(to_stdout, " and "), to_stdout.size() == 2 ? "both" : "all"));
  }
  if (!opts.report_path.empty()) check_output_path("--report", opts.report_path);
  if (!opts.link_csv_path.empty()) check_output_path("--link-csv", opts.link_csv_path);
  if (!opts.stats_csv_path.empty()) check_output_path("--stats-csv", opts.stats_csv_path);
  if (!opts.trace_path.empty()) {
    TransactionTrace::instance().open(opts.trace_path, trace_limits(opts));
  }
  // A partitioned run's traces: each partition traces its own, partition 0 writes the files.
  if (!opts.vcd_path.empty() && launch.rank == 0) SignalTrace::instance().open(opts.vcd_path);
  if (launch.processes > 1) {
    open_partition_traces(launch.rank, !opts.trace_path.empty(), !opts.vcd_path.empty());
  }
  scenario_ = load_scenario(resolve_scenario(opts.scenario));
  auto& params = ParamRegistry::instance();
  for (const auto& [name, value] : scenario_.params.items()) {
    params.set_override(
        name, value,
        {fmt::format("{}:{}", scenario_.path, scenario_.param_lines[name].get<int>()), 1});
  }
  for (const auto& s : opts.sets) params.set_from_assignment(s, opts.sets_source + " " + s);
  if (launch.processes > 1) {
    require_partitionable(scenario_.path, scenario_.workload, launch.launcher, launch.processes);
    group_ = join_process_group();
    if (group_->size() != launch.processes) {
      throw InputError(fmt::format("{}: {} started {} processes but MPI sees {}", opts.scenario,
                                   launch.launcher, launch.processes, group_->size()));
    }
    run_processes() = {group_->rank(), group_->size()};
  }
  seed_ = opts.seed.value_or(scenario_.seed);
  set_run_seed(seed_);  // every component's random streams (fault injection) derive from it
  time_limit_ns_ = ParamScope("sim").real(
      "time_limit", 0, "ns",
      "a watchdog: fail the run if work is left at this simulated time (0: none); a run that "
      "finishes before it reports exactly what it would without it",
      Range::between(0, 1e15));
  stop_at_ns_ = ParamScope("sim").real(
      "stop_at", 0, "ns",
      "end the run cleanly at this simulated time if its work is still in progress, reporting "
      "[0, stop_at] with figures over unreached windows marked (0: run until idle); work in "
      "progress is not a failure",
      Range::between(0, 1e15));
  MemoryBudget::instance().set_limit(static_cast<double>(ParamScope("sim").integer(
      "memory_limit", 0, "B",
      "the memory a machine may need, estimated before it is built; a larger one is refused "
      "(0: what this host has available when the run starts; set it higher to run anyway)",
      Range::at_least(0))));
  try {
    model_ = build_model(scenario_.machine, scenario_.workload, seed_);
  } catch (const InputError& e) {
    // A value refused while the model was built (it then reads as its default) is the
    // likelier cause of a workload's refusal: list it first.
    InputProblems problems;
    for (const auto& v : params.value_errors()) problems.add(v);
    problems.add(name_scenario(scenario_.path, e.what()));
    problems.throw_if_any();
  }
  if (!opts.link_csv_path.empty() && !model_->has_links()) {
    throw InputError(fmt::format("--link-csv: the {} machine ({}) has no network of links",
                                 scenario_.machine, scenario_.path));
  }
  reaper_ = std::make_unique<ThreadReaper>("reaper");
  interrupt_ = std::make_unique<RunInterrupt>();
  test_hold_ = make_test_hold(*interrupt_);
  params.finalize();
}

// The scenario chose the machine and the workload, so a refusal of either, or of what the
// workload needs of the machine, names the file, as refusals of its parameters do. Lines
// that already name the file, a --set argument or the parameter at fault are left as they are.
std::string Simulation::name_scenario(const std::string& path, const std::string& message) {
  std::istringstream lines(message);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    const bool named = line.find(path) != std::string::npos || line.rfind("--set", 0) == 0 ||
                       line.rfind("parameter '", 0) == 0;
    out += (out.empty() ? "" : "\n") + (named ? line : path + ": " + line);
  }
  return out;
}

Simulation::~Simulation() = default;

// The first few unfinished cores by name, with what each was doing; a whole machine's worth
// would bury them. Empty when every core with firmware finished. A parallel run: every
// partition calls it, and partition 0 lists every partition's, in the machine's order.
std::string Simulation::unfinished_cores() const {
  constexpr size_t kNamed = 16;
  PartitionedModel* partitioned = parallel() ? model_->partitioned() : nullptr;
  const std::vector<Core*> cores = model_->cores();
  const std::vector<uint64_t> places =
      partitioned ? partitioned->core_places() : std::vector<uint64_t>{};
  // (place, description) of the first kNamed here, and how many in all.
  std::vector<std::pair<uint64_t, std::string>> first;
  uint64_t stuck = 0;
  for (size_t i = 0; i < cores.size(); ++i) {
    const Core* c = cores[i];
    if (!c->has_firmware() || c->finished()) continue;
    if (++stuck > kNamed) continue;
    const std::string in = c->open_phases();
    const std::string note = model_->core_note(c);
    first.emplace_back(partitioned ? places.at(i) : i,
                       fmt::format("{} ({}{}{}{}{})", c->name(), describe(c->state()),
                                   in.empty() ? "" : ", in ", in, note.empty() ? "" : "; ", note));
  }
  if (partitioned) {
    ByteWriter w;
    w.put(stuck);
    w.put(static_cast<uint64_t>(first.size()));
    for (const auto& [place, text] : first) {
      w.put(place);
      w.put_string(text);
    }
    const std::vector<Bytes> all = group_->gather(w.take());
    first.clear();
    stuck = 0;
    for (const Bytes& b : all) {  // partition 0 only: the others get nothing
      ByteReader r(b);
      stuck += r.get<uint64_t>();
      for (auto n = r.get<uint64_t>(); n > 0; --n) {
        const auto place = r.get<uint64_t>();
        first.emplace_back(place, r.get_string());
      }
    }
    std::sort(first.begin(), first.end());
    if (first.size() > kNamed) first.resize(kNamed);
  }
  Json named = Json::array();
  for (const auto& entry : first) named.push_back(entry.second);
  if (stuck == 0) return "";
  return fmt::format("{} core(s) never finished their firmware: {}{}", stuck, named.dump(),
                     stuck > kNamed ? fmt::format(" and {} more", stuck - kNamed) : "");
}

namespace {
// Ends in the trace, at the run's end, the open phases of every core whose firmware never
// finished.
void trace_unfinished_phases(const Model& model) {
  const sc_core::sc_time end = sc_core::sc_time_stamp();
  for (const Core* c : model.cores()) {
    if (c->has_firmware() && !c->finished()) c->trace_open_phases(end);
  }
}
}  // namespace

int Simulation::run(std::ostream& out) {
  TransactionTrace::instance().start();
  interrupt_->arm();
  const auto wall0 = std::chrono::steady_clock::now();
  ProgressOptions progress;
  progress.terminal = !opts_.quiet && isatty(STDERR_FILENO);
  // Not on a terminal (a log, a batch job): a plain line now and then, more often on request.
  if (opts_.progress) {
    progress.terminal = false;
    progress.every_s = opts_.progress_every_s;
  } else if (!progress.terminal && !opts_.quiet) {
    progress.every_s = 60;
  }
  const RunLimits limits{stop_at_ns_, time_limit_ns_, model_->planned_end_ns};
  PartitionedModel* partitioned = parallel() ? model_->partitioned() : nullptr;
  if (parallel() && !partitioned) {
    throw ModelError(scenario_.workload + " is listed as running partitioned but is not");
  }
  PartitionTimes times;
  const RunEnd ran = partitioned
                         ? run_partitioned(limits, *interrupt_, *group_, *partitioned, times)
                         : run_kernel(limits, *interrupt_, progress);
  auto& checks = CheckRegistry::instance();
  checks.set_cut_short(ran.reason != RunEndReason::Finished);
  if (!ran.kernel_error.empty()) {
    checks.fail("simulation kernel: no error or exception", "kernel", ran.kernel_error);
  }
  std::vector<PartitionTimes> partitions;
  std::string unfinished;
  if (partitioned) {
    // Partition 0 reports for the machine; the others hand it their figures and are done.
    // Each first names its unfinished firmware, traces its open phases and unwinds it, as the
    // sequential run does before it reports: what a user's program prints as it unwinds (its
    // buffered output) is among the figures handed over.
    unfinished = unfinished_cores();
    trace_unfinished_phases(*model_);
    reaper_->unwind();
    partitions = merge_partitions(*group_, *partitioned, times);
    gather_partition_traces(*group_, !opts_.trace_path.empty(), !opts_.vcd_path.empty());
    if (group_->rank() != 0) {
      report_ = {{"results", Json::object()}};  // partition 0's report has them all
      return 0;
    }
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const sc_core::sc_time end = sc_core::sc_time_stamp();
  const int stop_signal = interrupt_->signal();

  if (!partitioned) unfinished = unfinished_cores();
  if (ran.reason == RunEndReason::TimeLimit) {
    checks.fail("watchdog: the run finishes before sim.time_limit", "sim",
                fmt::format("work was left at sim.time_limit ({}){}", human_time(time_limit_ns_),
                            unfinished.empty() ? "" : ": " + unfinished));
  } else if (ran.reason == RunEndReason::Finished && !unfinished.empty()) {
    // The model went idle with firmware still waiting: nothing will ever wake it.
    checks.fail("firmware: every core finishes its program", "firmware",
                unfinished + " (deadlock)");
  }
  // Over the window the run covered, a time-limited or interrupted one included.
  check_physical_limits(end);
  // Every output is attempted even if one fails; the failures are reported together.
  InputProblems unwritten;
  if (!partitioned) trace_unfinished_phases(*model_);
  unwritten.attempt([] { TransactionTrace::instance().close(); });
  unwritten.attempt([] { SignalTrace::instance().close(); });
  // Threads still suspended (firmware stopped early, engines waiting for work) are unwound so
  // their stacks release what they hold; the figures above were read before (a parallel run
  // has unwound them above).
  if (!partitioned) reaper_->unwind();

  // Workloads check their results (data integrity) here, so this precedes the verdict.
  Json results = model_->workload_results();
  // Every result is declared with its unit and description (a workload's own mistake otherwise).
  const auto undeclared = model_->results_declared.undeclared(results);
  if (!undeclared.empty()) {
    checks.fail("report: every result is declared with a unit and description", "workload",
                fmt::format("results not declared by workload {}: {}", scenario_.workload,
                            Json(undeclared).dump()));
  }
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  report_ = {
      {"hybridsim", HYBRIDSIM_VERSION},
      {"scenario", scenario_.path},
      {"description", scenario_.description},
      {"summary", model_->summary},
      {"overrides", opts_.sets},
      {"machine", scenario_.machine},
      {"workload", scenario_.workload},
      {"seed", seed_},
      {"status", stop_signal   ? "interrupted"
                 : checks.ok() ? "passed"
                               : "failed"},
      {"interrupted", stop_signal != 0},
      // How the run ended, and whether its work was done (cut short: figures cover [0, end]).
      {"end", {{"reason", to_string(ran.reason)}, {"cut_short", ran.cut_short()}}},
      {"stopped_at_ns",
       ran.reason == RunEndReason::StopAt ? Json(end.to_seconds() * 1e9) : Json(nullptr)},
      {"simulated_time_ns", end.to_seconds() * 1e9},
      {"results", std::move(results)},
      {"checks", checks.to_json()},
      {"params", ParamRegistry::instance().values_json()},
      {"stats", StatsRegistry::instance().to_json(end)},
      // Everything under "run" describes this execution, not the model: it varies run to run.
      {"run",
       {{"wall_seconds", wall},
        {"simulated_per_wall_second", wall > 0 ? end.to_seconds() / wall : 0.0},
        {"peak_rss_MiB", ru.ru_maxrss / 1024.0},
        {"pss_at_end_MiB", pss_mib()},
        {"partitions", parallel() ? group_->size() : 1}}},
  };
  if (partitioned)
    report_["run"]["parallel"] = parallel_json(*partitioned, times, partitions, wall);
  if (stop_signal) report_["interrupted_by"] = signal_name(stop_signal);
  if (opts_.report_path == kStandardOutput) {
    out << report_.dump(2) << "\n";  // the JSON takes standard output: no text report
  } else if (!opts_.report_path.empty()) {
    unwritten.attempt(
        [&] { write_output_file("--report", opts_.report_path, report_.dump(2) + "\n"); });
  }
  if (!opts_.stats_csv_path.empty()) {
    unwritten.attempt([&] {
      write_output_file("--stats-csv", opts_.stats_csv_path,
                        stats_csv(report_["stats"], report_["results"], model_->results_declared));
    });
  }
  if (!opts_.link_csv_path.empty()) {
    unwritten.attempt(
        [&] { write_output_file("--link-csv", opts_.link_csv_path, *model_->link_csv()); });
  }
  if (!opts_.quiet && !output_to_stdout())
    write_text_report(report_, out, &model_->results_declared);
  // Whatever --quiet says, and wherever the report went, a failure says why on standard error.
  if (!checks.ok()) std::cerr << "hybridsim: " << failure_summary(report_) << "\n";
  unwritten.throw_if_any();
  if (stop_signal) return kInterruptedExit;
  return checks.ok() ? 0 : 1;
}

}  // namespace hs::runner
