// The Slurm backend against a real single-node Slurm (slurmctld, slurmd, munged from
// Debian's packages on 127.0.0.1): a sweep submitted as a job array gives exactly the
// results of the same sweep run locally; a detached sweep is gathered by `collect`; a
// failing point is recorded; sbatch's refusals are reported. A run started by
// `srun --mpi=pmix -n P` runs partitioned, and a sweep's points of P processes run so.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "testbench/support/cli_run.h"
#include "testbench/support/local_slurm.h"

namespace fs = std::filesystem;
using hs::testing::file_text;
using hs::testing::hybridsim;
using hs::testing::LocalSlurm;
using hs::testing::temp_path;
using hs::testing::write_temp_file;
using Json = nlohmann::json;

namespace {

class SlurmSweep : public ::testing::Test {
 protected:
  void SetUp() override { slurm_ = std::make_unique<LocalSlurm>(); }
  void TearDown() override {
    if (HasFailure()) std::cerr << slurm_->logs();
    slurm_.reset();
  }
  std::unique_ptr<LocalSlurm> slurm_;
};

// Six points: two link widths crossed with three max payload sizes.
const char* kSweep = R"({"scenario": "default",
  "params": {"node0.pcie0.lanes": [4, 8], "node0.pcie0.max_payload": {"from": 128, "to": 512, "factor": 2}},
  "stats": ["simulated_time_ns", "node0.pcie0.down:payload_efficiency",
            "node0.pcie0.up:payload_bytes", "results:accelerators/0/verified"]})";

}  // namespace

TEST_F(SlurmSweep, AJobArrayGivesTheResultsOfTheSameSweepRunLocally) {
  const auto spec = write_temp_file("slurm.json", kSweep);
  const std::string local = temp_path("local_out"), cluster = temp_path("slurm_out");
  auto r = hybridsim("sweep " + spec + " --quiet --out " + local);
  ASSERT_EQ(r.code, 0) << r.output;
  r = hybridsim("sweep " + spec + " --backend slurm --partition " + slurm_->partition() +
                " --time 5 --chunk 4 --poll 0.2 --out " + cluster);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("6/6 done, 0 failed"), std::string::npos) << r.output;
  EXPECT_EQ(file_text(cluster + "/results.csv"), file_text(local + "/results.csv"));

  // Two array tasks (4 + 2 points) ran the script as written, with the options given.
  const std::string script = file_text(cluster + "/slurm/submit-1/job.sh");
  EXPECT_NE(script.find("#SBATCH --array=0-1\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --partition=" + slurm_->partition() + "\n"), std::string::npos);
  EXPECT_NE(script.find("#SBATCH --time=5\n"), std::string::npos);
  EXPECT_NE(file_text(cluster + "/slurm/submit-1/task-0.out").find("4/4 finished, 0 failed"),
            std::string::npos);
  EXPECT_NE(file_text(cluster + "/slurm/submit-1/task-1.out").find("2/2 finished, 0 failed"),
            std::string::npos);
  std::ifstream meta_file(cluster + "/results.json");
  const Json meta = Json::parse(meta_file);
  EXPECT_EQ(meta["backend"], "slurm");
  for (const auto& p : meta["points"]) EXPECT_GT(p["wall_seconds"].get<double>(), 0);

  // Resubmitting finds every point in the results and submits nothing.
  r = hybridsim("sweep " + spec + " --backend slurm --poll 0.2 --out " + cluster);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(fs::exists(cluster + "/slurm/submit-2")) << r.output;
}

TEST_F(SlurmSweep, ADetachedSweepIsGatheredByCollectWithItsFailingPoint) {
  const auto spec = write_temp_file("detach.json", R"({"scenario": "default",
    "params": {"sim.time_limit": [0, "10us", "1s"]}})");
  const std::string out = temp_path("detach_out");
  auto r = hybridsim("sweep " + spec + " --backend slurm --detach --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("collect the results with: hybridsim collect " + out), std::string::npos)
      << r.output;
  r = hybridsim("collect " + out + " --poll 0.2");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("2 passed, 1 failed"), std::string::npos) << r.output;
  const std::string csv = file_text(out + "/results.csv");
  EXPECT_NE(csv.find("\n1,1,10us,failed,,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("sim.time_limit"), std::string::npos) << csv;

  // Resubmitting runs only the failed point, in a new job array of one task.
  r = hybridsim("sweep " + spec + " --backend slurm --poll 0.2 --out " + out);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(file_text(out + "/slurm/submit-2/job.sh").find("--array=0-0\n"), std::string::npos);
  EXPECT_NE(r.output.find("3/3 done, 1 failed, 0 running, 2 already in results"), std::string::npos)
      << r.output;
}

TEST_F(SlurmSweep, SbatchRefusalsAreReportedWithSlurmsMessage) {
  const auto spec = write_temp_file("refused.json", kSweep);
  auto r = hybridsim("sweep " + spec + " --backend slurm --partition nosuchpartition --out " +
                     temp_path("refused_out"));
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("sbatch refused the sweep's job array"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nvalid partition"), std::string::npos) << r.output;
}

TEST_F(SlurmSweep, PointsOfAJobThatEndsWithoutThemAreRecordedAsLostAndRunAgain) {
  // A partition that is down queues the job but never starts it; cancelling it then ends
  // the job with no point recorded.
  const auto admin = [](const std::string& cmd) {
    return std::system((cmd + " > /dev/null 2>&1").c_str());
  };
  ASSERT_EQ(admin("scontrol update PartitionName=" + slurm_->partition() + " State=DOWN"), 0);
  const auto spec = write_temp_file("lost.json", kSweep);
  const std::string out = temp_path("lost_out");
  auto r = hybridsim("sweep " + spec + " --backend slurm --chunk 3 --detach --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream current_file(out + "/slurm/current.json");
  const Json current = Json::parse(current_file);
  ASSERT_EQ(admin("scancel " + current["job_id"].get<std::string>()), 0);
  r = hybridsim("collect " + out + " --poll 0.2");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("0 passed, 6 failed"), std::string::npos) << r.output;
  const std::string csv = file_text(out + "/results.csv");
  EXPECT_NE(csv.find(",lost,"), std::string::npos) << csv;
  EXPECT_NE(
      csv.find("Slurm array task 1 of job " + current["job_id"].get<std::string>() +
               " ended without recording this point; see " + out + "/slurm/submit-1/task-1.out"),
      std::string::npos)
      << csv;

  // With the partition up again, a rerun submits the lost points and they pass.
  ASSERT_EQ(admin("scontrol update PartitionName=" + slurm_->partition() + " State=UP"), 0);
  r = hybridsim("sweep " + spec + " --backend slurm --chunk 3 --poll 0.2 --out " + out);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("6 passed, 0 failed"), std::string::npos) << r.output;
}

namespace {

// A small torus under uniform traffic.
const char* kTorus =
    "torus_traffic --set torus.network.x=4 --set torus.network.y=2 --set torus.network.z=2 "
    "--set workload.warmup=300 --set workload.duration=700 --quiet";

Json without_run(const std::string& path) {
  Json r = Json::parse(file_text(path));
  r.erase("run");
  return r;
}

}  // namespace

TEST_F(SlurmSweep, SrunWithPmixRunsOneSimulationPartitioned) {
  const std::string seq = temp_path("srun_seq.json"), par = temp_path("srun_par.json");
  auto r = hybridsim(std::string("run ") + kTorus + " --report " + seq);
  ASSERT_EQ(r.code, 0) << r.output;
  r = hs::testing::run_shell("timeout 120 srun --mpi=pmix -n 2 " + hs::testing::hybridsim_bin() +
                             " run " + kTorus + " --report " + par + " 2>&1");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(Json::parse(file_text(par))["run"]["partitions"], 2);
  EXPECT_EQ(without_run(seq), without_run(par));
  // Without PMIx Open MPI cannot reach the other task: refused, saying how to start it.
  r = hs::testing::run_shell("timeout 120 srun --mpi=pmi2 -n 2 " + hs::testing::hybridsim_bin() +
                             " run " + kTorus + " 2>&1");
  EXPECT_NE(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("srun --mpi=pmix -n 2 hybridsim run"), std::string::npos) << r.output;
}

TEST_F(SlurmSweep, PointsOfTwoProcessesRunUnderSrunWithTheLocalResults) {
  const auto spec = write_temp_file("slurm_torus.json", R"({"scenario": "torus_traffic",
    "fixed": {"torus.network.x": 4, "torus.network.y": 2, "torus.network.z": 2,
              "workload.warmup": 300, "workload.duration": 700},
    "params": {"workload.load": [0.2, 0.6]}, "processes": 2,
    "stats": ["simulated_time_ns", "results:packets_delivered", "results:mean_latency_ns"]})");
  const std::string local = temp_path("torus_local"), cluster = temp_path("torus_slurm");
  // The local sweep runs each point under mpirun, which refuses root unless told it may.
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  auto r = hybridsim("sweep " + spec + " --quiet --out " + local);
  ASSERT_EQ(r.code, 0) << r.output;
  r = hybridsim("sweep " + spec + " --backend slurm --partition " + slurm_->partition() +
                " --time 5 --poll 0.2 --out " + cluster);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(file_text(cluster + "/results.csv"), file_text(local + "/results.csv"));
  const std::string script = file_text(cluster + "/slurm/submit-1/job.sh");
  EXPECT_NE(script.find("#SBATCH --ntasks=2\n"), std::string::npos) << script;
  size_t partitioned = 0;
  for (const auto& f : fs::recursive_directory_iterator(cluster)) {
    if (f.path().extension() == ".json" &&
        file_text(f.path().string()).find("\"partitions\": 2") != std::string::npos) {
      ++partitioned;
    }
  }
  EXPECT_EQ(partitioned, 2u);
}
