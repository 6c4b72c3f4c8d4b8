// Runs started by a parallel launcher (Open MPI's mpirun, Slurm's srun). A launch of one
// process is the sequential run. Under mpirun -np P the torus traffic workload runs as one
// simulation partitioned over P processes, and writes the sequential run's report (only the
// wall-clock figures under "run" differ) and link CSV, whatever P, the partitioner, the
// pattern, the routing or the link errors. What does not run partitioned yet is refused
// before anything is built or written, so that P copies of a machine never overwrite one
// another's outputs (nor the user's file).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/support/cli_run.h"
#include "testbench/support/mpirun.h"

using Json = nlohmann::json;
using hs::testing::CliResult;
using hs::testing::file_text;
using hs::testing::hybridsim_bin;
using hs::testing::model_part;
using hs::testing::mpirun;
using hs::testing::run_shell;
using hs::testing::temp_path;
using hs::testing::write_temp_file;

namespace {

// Uniform random traffic on a 4x4x4 torus.
const std::string kUniform =
    "torus_traffic --set torus.network.x=4 --set torus.network.y=4 --set torus.network.z=4 "
    "--set workload.pattern=uniform --quiet";

// The part of the report at `path` that must be the sequential run's.
Json model_part_of(const std::string& path) {
  return model_part(Json::parse(file_text(path)));
}

// Runs `args` as one process and under mpirun -np P for each P: the same report and link CSV.
void expect_same_as_sequential(const std::string& args, const std::vector<int>& processes) {
  const std::string seq = temp_path("seq.json"), seq_csv = temp_path("seq.csv");
  const CliResult a = run_shell(hybridsim_bin() + " run " + args + " --quiet --report " + seq +
                                " --link-csv " + seq_csv + " 2>&1");
  ASSERT_EQ(a.code, 0) << a.output;
  const Json expected = model_part_of(seq);
  ASSERT_GT(expected["results"]["packets_delivered"].get<double>(), 0);
  for (int p : processes) {
    SCOPED_TRACE(args + " with " + std::to_string(p) + " processes");
    const std::string par = temp_path("par.json"), par_csv = temp_path("par.csv");
    const CliResult m = run_shell(mpirun(p) + hybridsim_bin() + " run " + args +
                                  " --quiet --report " + par + " --link-csv " + par_csv + " 2>&1");
    ASSERT_EQ(m.code, 0) << m.output;
    const Json r = Json::parse(file_text(par));
    EXPECT_EQ(r["run"]["partitions"], p);
    if (p > 1) {
      EXPECT_GT(r["run"]["parallel"]["cut_messages"].get<double>(), 0);  // traffic crossed cuts
      const Json& each = r["run"]["parallel"]["by_partition"];
      EXPECT_EQ(each.size(), static_cast<size_t>(p));
      double rss = 0;  // every process's own peak memory, and their sum
      for (const Json& q : each) {
        EXPECT_GT(q["peak_rss_MiB"].get<double>(), 1.0);
        rss += q["peak_rss_MiB"].get<double>();
      }
      EXPECT_DOUBLE_EQ(r["run"]["parallel"]["peak_rss_MiB_total"].get<double>(), rss);
    }
    EXPECT_EQ(expected, model_part_of(par)) << "reports differ";
    EXPECT_EQ(file_text(seq_csv), file_text(par_csv)) << "link CSVs differ";
  }
}

const std::string kSmall =
    "torus_traffic --set torus.network.x=4 --set torus.network.y=4 --set torus.network.z=4 "
    "--set workload.warmup=500 --set workload.duration=1500 ";

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
  EXPECT_EQ(model_part_of(alone), model_part_of(launched));
}

// Slabs across z: two partitions cut the wrap-around link (z3 -> z0) as well as z1 -> z2.
TEST(ParallelRun, UniformTrafficPartitionedIsTheSequentialRun) {
  expect_same_as_sequential(kSmall + "--set workload.load=0.9", {2, 3, 4});
}

TEST(ParallelRun, DeterministicRoutingAndBoxesOfEightAreTheSequentialRun) {
  expect_same_as_sequential(kSmall +
                                "--set workload.load=0.9 --set workload.vc=deterministic "
                                "--set torus.partition.scheme=box",
                            {4, 8});
}

TEST(ParallelRun, TransposeTrafficOverUnevenSlabsIsTheSequentialRun) {
  expect_same_as_sequential(kSmall +
                                "--set workload.pattern=transpose --set workload.load=0.8 "
                                "--set torus.partition.axis=x",
                            {3});
}

// CRC errors on every link, and a burst on x1 -> x2, which three slabs across x cut (x0-1 |
// x2 | x3): retransmissions hold the cut link, and the packet crosses once its good copy does.
TEST(ParallelRun, CrcErrorsOnCutLinksAreTheSequentialRun) {
  expect_same_as_sequential(kSmall +
                                "--set workload.load=0.9 --set torus.partition.axis=x "
                                "--set torus.network.link_crc_error_rate=0.01 "
                                "--set torus.network.link_crc_error_at=x1y0z0:+x#2",
                            {3});
}

TEST(ParallelRun, StopAtEndsEveryPartitionWhereTheSequentialRunEnds) {
  expect_same_as_sequential(kSmall + "--set workload.load=0.9 --set sim.stop_at=1234", {2});
}

TEST(ParallelRun, WorkloadsThatDoNotRunPartitionedAreRefusedBeforeAnythingIsWritten) {
  for (int processes : {2, 4}) {
    const std::string report = write_temp_file("kept.json", "the user's own file\n");
    const CliResult m = run_shell(mpirun(processes) + hybridsim_bin() +
                                  " run dma_transfers --quiet --report " + report + " 2>&1");
    EXPECT_NE(m.code, 0) << m.output;
    EXPECT_NE(m.output.find("started by mpirun as " + std::to_string(processes) + " processes"),
              std::string::npos)
        << m.output;
    EXPECT_NE(m.output.find("workload dma_transfers does not run partitioned"), std::string::npos)
        << m.output;
    EXPECT_NE(m.output.find("supports workloads torus_traffic, halo3d"), std::string::npos)
        << m.output;
    EXPECT_NE(m.output.find("run it as one process"), std::string::npos) << m.output;
    EXPECT_EQ(file_text(report), "the user's own file\n");
  }
}

// A partition that dies mid-run ends the whole run (the launcher names it), never a hang.
TEST(ParallelRun, APartitionThatDiesEndsTheRun) {
  const std::string report = write_temp_file("kept.json", "kept\n");
  const CliResult m =
      run_shell("HYBRIDSIM_TEST_PARTITION_EXIT=1:50 " + mpirun(2, "timeout 120 ") +
                hybridsim_bin() + " run " + kSmall + " --quiet --report " + report + " 2>&1");
  EXPECT_NE(m.code, 0) << m.output;
  EXPECT_NE(m.code, 124) << "the run hung: " << m.output;
  EXPECT_NE(m.output.find("partition 1: dying at window 50"), std::string::npos) << m.output;
  EXPECT_EQ(file_text(report), "kept\n");
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
  EXPECT_NE(step.output.find("mpirun -np 3"), std::string::npos) << step.output;
  EXPECT_EQ(file_text(report), "kept\n");
  const CliResult batch = run_shell(
      "env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE SLURM_STEP_ID=batch "
      "SLURM_STEP_NUM_TASKS=3 " +
      hybridsim_bin() + " run " + kUniform + " 2>&1");
  EXPECT_EQ(batch.code, 0) << batch.output;
}
