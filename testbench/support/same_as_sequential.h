// The check every test of a partitioned workload makes: a scenario run as one process, then
// under mpirun -np P for each P, writes the same report (all but the wall-clock figures under
// "run") and the same link CSV.
#pragma once
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/support/cli_run.h"
#include "testbench/support/mpirun.h"

namespace hs::testing {

struct SequentialRun {
  CliResult run;
  nlohmann::json report;
  std::string csv;
};

inline SequentialRun run_sequential(const std::string& args) {
  const std::string report = temp_path("seq.json"), csv = temp_path("seq.csv");
  SequentialRun s;
  s.run = run_shell(hybridsim_bin() + " run " + args + " --quiet --report " + report +
                    " --link-csv " + csv + " 2>&1");
  s.report = nlohmann::json::parse(file_text(report));
  s.csv = file_text(csv);
  return s;
}

// Runs `args` as one process, then under mpirun -np P for each P: the same report and link
// CSV. P = 8 runs as 2x2x2 boxes (4 planes take at most 4 slabs), against a sequential run
// given the same partitioner. `status` is the verdict the runs must reach ("failed" for a
// run that must fail); `crosses_cuts`: the nodes of one partition talk to another's when
// P > 1 (a workload on one node does not). Returns the sequential run's report.
inline nlohmann::json expect_same_as_sequential(const std::string& args,
                                                const std::vector<int>& processes,
                                                const std::string& status = "passed",
                                                bool crosses_cuts = true) {
  const SequentialRun slabs = run_sequential(args);
  EXPECT_EQ(slabs.report["status"], status) << slabs.run.output;
  EXPECT_EQ(slabs.run.code, status == "passed" ? 0 : 1) << slabs.run.output;
  for (int p : processes) {
    SCOPED_TRACE(args + " with " + std::to_string(p) + " processes");
    const std::string boxes = p == 8 ? " --set torus.partition.scheme=box" : "";
    const SequentialRun s = boxes.empty() ? slabs : run_sequential(args + boxes);
    const std::string par = temp_path("par.json"), par_csv = temp_path("par.csv");
    const CliResult m =
        run_shell(mpirun(p, "timeout 300 ") + hybridsim_bin() + " run " + args + boxes +
                  " --quiet --report " + par + " --link-csv " + par_csv + " 2>&1");
    EXPECT_EQ(m.code, s.run.code) << m.output;
    if (m.code != s.run.code) continue;
    const nlohmann::json r = nlohmann::json::parse(file_text(par));
    EXPECT_EQ(r["run"]["partitions"], p);
    if (p > 1 && crosses_cuts) {
      EXPECT_GT(r["run"]["parallel"]["cut_messages"].get<double>(), 0);
    }
    EXPECT_EQ(model_part(s.report), model_part(r)) << "reports differ";
    EXPECT_EQ(s.csv, file_text(par_csv)) << "link CSVs differ";
  }
  return slabs.report;
}

}  // namespace hs::testing
