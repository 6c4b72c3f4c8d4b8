// One's own sc_main against an installed hybridsim, using its runner: it registers a workload
// of its own (spe_scale.cpp), then runs a scenario file as `hybridsim run` would, with the
// parameters, report, trace and waveform options the command line has.
//   own_workload SCENARIO.json [--set NAME=VALUE ...]
// Writes own_report.json, own_trace.json and own.vcd in the current directory, prints the
// text report, and exits as `hybridsim run` does (0 passed, 1 a check failed, 2 bad input).
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <systemc>

#include "testbench/runner/simulation.h"
#include "tlm/common/errors.h"

void hs_register_workload_spe_scale();  // defined by HYBRIDSIM_WORKLOAD in spe_scale.cpp

int sc_main(int argc, char* argv[]) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: own_workload SCENARIO.json [--set NAME=VALUE ...]\n");
    return 2;
  }
  hs_register_workload_spe_scale();
  hs::runner::RunOptions opts;
  opts.scenario = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) != "--set") {
      std::fprintf(stderr, "own_workload: unexpected '%s' (only --set NAME=VALUE)\n", argv[i]);
      return 2;
    }
    opts.sets.push_back(argv[i + 1]);
  }
  opts.report_path = "own_report.json";
  opts.trace_path = "own_trace.json";
  opts.vcd_path = "own.vcd";
  try {
    hs::runner::Simulation sim(opts);
    return sim.run(std::cout);
  } catch (const hs::InputError& e) {
    std::fprintf(stderr, "own_workload: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "own_workload: %s\n", e.what());
    return 1;
  }
}
