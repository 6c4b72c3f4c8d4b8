// One simulation run: scenario + overrides -> model -> run -> report.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "testbench/runner/model.h"
#include "testbench/runner/run_interrupt.h"
#include "testbench/runner/scenario_file.h"
#include "tlm/kernel/kernel_setup.h"
#include "tlm/parallel/process_group.h"

namespace hs::runner {

struct RunOptions {
  std::string scenario = "default";
  std::vector<std::string> sets;      // name=value overrides from the command line
  std::string sets_source = "--set";  // how errors name where `sets` came from
  std::optional<uint64_t> seed;
  std::string report_path, vcd_path, trace_path;  // report "-": the JSON on standard output
  std::string link_csv_path;                      // per-link utilisation (torus machines)
  std::string stats_csv_path;                     // every statistic, one row each
  std::string trace_start, trace_end, trace_only, trace_limit = "2GiB";  // what --trace keeps
  bool quiet = false;
  // Plain progress lines on standard error every progress_every_s wall seconds, even when quiet
  // or not a terminal (without it: a line rewritten in place on a terminal, unless quiet, and
  // a plain line a minute otherwise).
  bool progress = false;
  double progress_every_s = 10;
};

// Exit code of a run stopped by SIGINT or SIGTERM (128 + SIGINT, as a shell reports it).
constexpr int kInterruptedExit = 130;

class Simulation {
 public:
  // Loads the scenario, applies overrides, prepares traces, builds the model and checks every
  // parameter. Throws InputError (exit code 2) on any bad input; nothing has run, and no file
  // has been created, truncated or removed.
  explicit Simulation(const RunOptions& opts);
  ~Simulation();

  // Runs to completion, or until SIGINT or SIGTERM; writes the report and traces (each renamed
  // into place once complete) and prints the report unless quiet. Returns 0; 1 if a checker or
  // firmware assertion failed or firmware never finished; kInterruptedExit if interrupted (the
  // report says "interrupted": true). Throws InputError naming any output it could not write.
  int run(std::ostream& out);

  const nlohmann::json& report() const { return report_; }
  const Scenario& scenario() const { return scenario_; }
  const Model& model() const { return *model_; }

 private:
  static std::string name_scenario(const std::string& path, const std::string& message);
  std::string unfinished_cores() const;
  // True if an output file is "-": it has standard output, and the text report gives way.
  bool output_to_stdout() const {
    for (const auto* p :
         {&opts_.report_path, &opts_.stats_csv_path, &opts_.link_csv_path, &opts_.trace_path}) {
      if (*p == "-") return true;
    }
    return false;
  }
  // Outputs not finished by run() (bad input, an exception) are dropped: declared first, so
  // it also acts when the constructor throws.
  struct DropUnfinishedOutputs {
    ~DropUnfinishedOutputs();
  } drop_unfinished_outputs_;
  RunOptions opts_;
  Scenario scenario_;
  uint64_t seed_;
  double time_limit_ns_ = 0, stop_at_ns_ = 0;
  std::unique_ptr<Model> model_;
  std::unique_ptr<ThreadReaper> reaper_;
  std::unique_ptr<RunInterrupt> interrupt_;
  std::unique_ptr<sc_core::sc_module> test_hold_;
  // The processes of a parallel run (null for one process); before the model, gone after it.
  std::unique_ptr<ProcessGroup> group_;
  bool parallel() const { return group_ && group_->size() > 1; }
  nlohmann::json report_;
};

}  // namespace hs::runner
