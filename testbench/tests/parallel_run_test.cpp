// Runs started by a parallel launcher (Open MPI's mpirun, Slurm's srun). hybridsim simulates
// every scenario in one process today: a launch of one process gives the sequential run's
// report (only the wall-clock figures differ), and a launch of several is refused before
// anything is built or written, so that P copies of the whole machine never overwrite one
// another's outputs (nor the user's file).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "testbench/support/cli_run.h"

using Json = nlohmann::json;
using hs::testing::CliResult;
using hs::testing::file_text;
using hs::testing::hybridsim_bin;
using hs::testing::run_shell;
using hs::testing::temp_path;
using hs::testing::write_temp_file;

namespace {

// Uniform random traffic on a 4x4x4 torus: the scenario a first parallel engine runs.
const std::string kUniform =
    "torus_traffic --set torus.network.x=4 --set torus.network.y=4 --set torus.network.z=4 "
    "--set workload.pattern=uniform --quiet";

// Open MPI refuses to start as root unless told it may (CI's containers run as root).
std::string mpirun(int processes) {
  return std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") +
         HYBRIDSIM_MPIEXEC + " --oversubscribe -np " + std::to_string(processes) + " ";
}

// A report without what describes the execution rather than the model (wall time, memory).
Json model_part(const std::string& path) {
  Json r = Json::parse(file_text(path));
  r.erase("run");
  return r;
}

}  // namespace

TEST(ParallelRun, OneProcessUnderMpirunWritesTheSequentialReport) {
  const std::string alone = temp_path("alone.json"), launched = temp_path("launched.json");
  const CliResult a = run_shell(hybridsim_bin() + " run " + kUniform + " --report " + alone);
  ASSERT_EQ(a.code, 0) << a.output;
  const CliResult m =
      run_shell(mpirun(1) + hybridsim_bin() + " run " + kUniform + " --report " + launched);
  ASSERT_EQ(m.code, 0) << m.output;
  const Json r = Json::parse(file_text(launched));
  EXPECT_GT(r["results"]["packets_delivered"].get<double>(), 0);  // the run did simulate traffic
  EXPECT_EQ(model_part(alone), model_part(launched));
}

TEST(ParallelRun, SeveralProcessesUnderMpirunAreRefusedBeforeAnythingIsWritten) {
  for (int processes : {2, 4}) {
    const std::string report = write_temp_file("kept.json", "the user's own file\n");
    const CliResult m = run_shell(mpirun(processes) + hybridsim_bin() + " run " + kUniform +
                                  " --report " + report + " 2>&1");
    EXPECT_NE(m.code, 0) << m.output;
    EXPECT_NE(m.output.find("started by mpirun as " + std::to_string(processes) + " processes"),
              std::string::npos)
        << m.output;
    EXPECT_NE(m.output.find("run it as one process"), std::string::npos) << m.output;
    EXPECT_EQ(file_text(report), "the user's own file\n");
  }
}

// srun sets a job step's task count; the batch script of a job of several tasks is one process.
TEST(ParallelRun, SrunStepOfSeveralTasksIsRefusedAndABatchScriptRuns) {
  const std::string report = write_temp_file("srun.json", "kept\n");
  const CliResult step = run_shell(
      "env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE SLURM_STEP_ID=0 "
      "SLURM_STEP_NUM_TASKS=3 SLURM_PROCID=1 " +
      hybridsim_bin() + " run " + kUniform + " --report " + report + " 2>&1");
  EXPECT_EQ(step.code, 2) << step.output;
  EXPECT_NE(step.output.find("started by srun as 3 processes"), std::string::npos) << step.output;
  EXPECT_EQ(file_text(report), "kept\n");
  const CliResult batch = run_shell(
      "env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE SLURM_STEP_ID=batch "
      "SLURM_STEP_NUM_TASKS=3 " +
      hybridsim_bin() + " run " + kUniform + " 2>&1");
  EXPECT_EQ(batch.code, 0) << batch.output;
}
