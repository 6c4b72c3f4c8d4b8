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
#include "testbench/runner/scenario_file.h"
#include "tlm/kernel/kernel_setup.h"

namespace hs::runner {

struct RunOptions {
  std::string scenario = "default";
  std::vector<std::string> sets;      // name=value overrides from the command line
  std::string sets_source = "--set";  // how errors name where `sets` came from
  std::optional<uint64_t> seed;
  std::string report_path, vcd_path, trace_path;
  bool quiet = false;
};

class Simulation {
 public:
  // Loads the scenario, applies overrides, opens traces, builds the model and checks every
  // parameter. Throws InputError (exit code 2) on any bad input; nothing has run yet.
  explicit Simulation(const RunOptions& opts);
  ~Simulation();

  // Runs to completion; prints the report unless quiet. Returns 0, or 1 if a checker or
  // firmware assertion failed or firmware never finished.
  int run(std::ostream& out);

  const nlohmann::json& report() const { return report_; }
  const Scenario& scenario() const { return scenario_; }

 private:
  RunOptions opts_;
  Scenario scenario_;
  uint64_t seed_;
  double time_limit_ns_ = 0;
  std::unique_ptr<Model> model_;
  std::unique_ptr<ThreadReaper> reaper_;
  nlohmann::json report_;
};

}  // namespace hs::runner
