// The traces, waveforms and launchers of a partitioned run. Under mpirun -np P the torus
// traffic workload's transaction trace (--trace) and waveform (--vcd, with its GTKWave save
// and filter files) are one file each, byte for byte the sequential run's: every partition
// traces its own components and partition 0 merges them. Under srun, a run that Open MPI can
// reach (srun --mpi=pmix) runs partitioned; one it cannot (no PMIx) is refused, saying how to
// start it, before anything is written. A sweep's points of P processes run under mpirun.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "testbench/support/cli_run.h"
#include "testbench/support/mpirun.h"
#include "tlm/trace/vcd_merge.h"

namespace fs = std::filesystem;
using hs::testing::CliResult;
using hs::testing::file_text;
using hs::testing::hybridsim_bin;
using hs::testing::mpirun;
using hs::testing::run_shell;
using hs::testing::temp_path;
using hs::testing::write_temp_file;

namespace {

// A GTKWave save file names its own folder: the same files in another folder read alike.
std::string in_folder(const std::string& text, const std::string& dir) {
  std::string out = text;
  for (size_t at; (at = out.find(dir)) != std::string::npos;) out.replace(at, dir.size(), "DIR");
  return out;
}

// Runs `args` with --trace and --vcd as one process and under mpirun -np P for each P: the
// same trace, waveform, save file and filter file, byte for byte.
void expect_same_outputs(const std::string& args, const std::vector<int>& processes) {
  const std::string seq = temp_path("outputs_seq");
  fs::remove_all(seq);
  fs::create_directories(seq);
  const std::string outputs = " --quiet --trace OUT/run.json --vcd OUT/run.vcd";
  auto with = [&](const std::string& dir) {
    std::string o = outputs;
    for (size_t at; (at = o.find("OUT")) != std::string::npos;) o.replace(at, 3, dir);
    return o;
  };
  const CliResult a = run_shell(hybridsim_bin() + " run " + args + with(seq) + " 2>&1");
  ASSERT_EQ(a.code, 0) << a.output;
  ASSERT_GT(file_text(seq + "/run.json").size(), 1000u);  // the trace holds traffic
  for (int p : processes) {
    SCOPED_TRACE(args + " with " + std::to_string(p) + " processes");
    const std::string par = temp_path("outputs_par" + std::to_string(p));
    fs::remove_all(par);
    fs::create_directories(par);
    const CliResult m =
        run_shell(mpirun(p) + hybridsim_bin() + " run " + args + with(par) + " 2>&1");
    ASSERT_EQ(m.code, 0) << m.output;
    EXPECT_TRUE(file_text(seq + "/run.json") == file_text(par + "/run.json")) << "traces differ";
    EXPECT_TRUE(file_text(seq + "/run.vcd") == file_text(par + "/run.vcd")) << "waveforms differ";
    EXPECT_EQ(in_folder(file_text(seq + "/run.gtkw"), seq),
              in_folder(file_text(par + "/run.gtkw"), par));
    EXPECT_EQ(file_text(seq + "/run.core_state.txt"), file_text(par + "/run.core_state.txt"));
    // Partition 0 alone wrote: nothing else in the folder.
    size_t files = 0;
    for ([[maybe_unused]] const auto& f : fs::directory_iterator(par)) ++files;
    EXPECT_EQ(files, 4u);
  }
}

const std::string kSmall =
    "torus_traffic --set torus.network.x=4 --set torus.network.y=2 --set torus.network.z=3 "
    "--set workload.warmup=300 --set workload.duration=700 --set torus.trace_nodes=all ";

}  // namespace

TEST(ParallelOutputs, TraceAndWaveformOfSlabsAreTheSequentialRuns) {
  expect_same_outputs(kSmall + "--set workload.pattern=uniform", {2, 3, 4});
}

TEST(ParallelOutputs, TraceAndWaveformOfBoxesWithCrcErrorsAreTheSequentialRuns) {
  expect_same_outputs(kSmall +
                          "--set workload.pattern=transpose --set torus.network.y=4 "
                          "--set torus.network.z=2 --set torus.partition.scheme=box "
                          "--set torus.network.link_crc_error_rate=0.2",
                      {2, 4});
}

// Under a heavy load routers arbitrate for the instant they freed a buffer in: actions queued
// for the same instant, whose order no single partition sees whole.
TEST(ParallelOutputs, TraceOfAHeavilyLoadedTorusIsTheSequentialRuns) {
  expect_same_outputs(
      "torus_traffic --set torus.network.x=4 --set torus.network.y=4 --set torus.network.z=4 "
      "--set workload.load=0.8 --set workload.warmup=300 --set workload.duration=900",
      {2, 3});
}

TEST(ParallelOutputs, AWindowedTraceOfSomeTracksIsTheSequentialRuns) {
  expect_same_outputs(kSmall + "--trace-start 200ns --trace-end 600ns --trace-only '*link +x*'",
                      {3});
}

// Partition files of one model: each signal's values come from the partition in which they
// change, each time step in the order the merged header lists the signals (a scope's own
// signals, then its scopes by name); two partitions changing one signal is an error.
TEST(ParallelOutputs, PartitionWaveformsMergeIntoOne) {
  const std::string header =
      "$timescale 1ps $end\n$scope module SystemC $end\n$scope module top $end\n"
      "$scope module a $end\n$var wire 8 aa x $end\n$upscope $end\n"
      "$scope module b $end\n$var wire 8 ab y $end\n$upscope $end\n"
      "$var wire 1 ac z $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n";
  const std::string p0 =
      write_temp_file("p0.sc.vcd", header + "#0\nb0 aa\nb0 ab\n0ac\n#10\nb1 aa\n#30\nb11 aa\n");
  const std::string p1 = write_temp_file(
      "p1.sc.vcd", header + "#0\nb0 aa\nb0 ab\n0ac\n#10\nb101 ab\n1ac\n#20\nb0 ab\n");
  const std::string out = temp_path("partitions.vcd");
  const auto signals = hs::merge_vcd({{p0, "SystemC", true}, {p1, "SystemC", true}}, out);
  ASSERT_EQ(signals.size(), 3u);
  EXPECT_TRUE(signals[0].changes);
  EXPECT_TRUE(signals[1].changes);
  EXPECT_EQ(signals[1].source, 0u);
  const std::string text = file_text(out);
  const std::string body = text.substr(text.find("$enddefinitions"));
  EXPECT_EQ(body,
            "$enddefinitions $end\n#0\n0!\nb0 \"\nb0 #\n#10\n1!\nb1 \"\nb101 #\n#20\nb0 #\n"
            "#30\nb11 \"\n");
  // As one file: the same merge.
  const std::string one = write_temp_file(
      "one.sc.vcd",
      header + "#0\nb0 aa\nb0 ab\n0ac\n#10\nb1 aa\nb101 ab\n1ac\n#20\nb0 ab\n#30\nb11 aa\n");
  const std::string single = temp_path("single.vcd");
  hs::merge_vcd({{one, "SystemC"}}, single);
  EXPECT_EQ(file_text(single), text);

  const std::string clash =
      write_temp_file("p2.sc.vcd", header + "#0\nb0 aa\nb0 ab\n0ac\n#5\nb111 aa\n");
  try {
    hs::merge_vcd({{p0, "SystemC", true}, {clash, "SystemC", true}}, temp_path("clash.vcd"));
    FAIL() << "two partitions changing one signal were merged";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("top.a.x[7:0] changes in two partitions (0 and 1)"),
              std::string::npos)
        << e.what();
  }
}

// What srun sets for a job step of several tasks, without a cluster: with no PMIx server (srun
// --mpi=none or --mpi=pmi2, which Debian's Open MPI cannot use) the run is refused before
// anything is written, naming the command that works; a PMI launcher other than Open MPI's
// likewise.
TEST(ParallelOutputs, SrunWithoutPmixIsRefusedNamingTheCommandThatWorks) {
  const std::string report = write_temp_file("srun_kept.json", "kept\n");
  const std::string step =
      "env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMIX_RANK SLURM_STEP_ID=0 "
      "SLURM_STEP_NUM_TASKS=4 SLURM_PROCID=0 ";
  const std::string run = hybridsim_bin() + " run " + kSmall + "--report " + report + " 2>&1";
  CliResult r = run_shell(step + "SLURM_MPI_TYPE=pmi2 " + run);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("started by srun as 4 processes (this is process 0), but srun started "
                          "it without PMIx (--mpi=pmi2)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("srun --mpi=pmix -n 4 hybridsim run"), std::string::npos) << r.output;
  r = run_shell(step + run);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("without PMIx (no PMIx server in its environment)"), std::string::npos)
      << r.output;
  r = run_shell("env -u OMPI_COMM_WORLD_SIZE -u SLURM_STEP_ID PMI_SIZE=2 PMI_RANK=1 " + run);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("start it with mpirun -np 2"), std::string::npos) << r.output;
  EXPECT_EQ(file_text(report), "kept\n");
}

// A sweep's "processes": P runs each point under mpirun -np P (the local backend), with the
// results of the same sweep run point by point as one process; a value that is not a count,
// or a scenario whose workload does not run partitioned, is refused before anything runs.
TEST(ParallelOutputs, ASweepOfPartitionedPointsGivesTheResultsOfOneProcessPerPoint) {
  const std::string points =
      R"("scenario": "torus_traffic",
         "fixed": {"torus.network.x": 4, "torus.network.y": 2, "torus.network.z": 2,
                   "workload.warmup": 300, "workload.duration": 700},
         "params": {"workload.load": [0.2, 0.6]},
         "stats": ["simulated_time_ns", "results:packets_delivered", "results:mean_latency_ns"])";
  const std::string one = write_temp_file("sweep_one.json", "{" + points + "}");
  const std::string two = write_temp_file("sweep_two.json", "{" + points + R"(, "processes": 2})");
  const std::string out1 = temp_path("sweep_one_out"), out2 = temp_path("sweep_two_out");
  fs::remove_all(out1);
  fs::remove_all(out2);
  const std::string root = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ";
  CliResult r = run_shell(hybridsim_bin() + " sweep " + one + " --quiet --out " + out1 + " 2>&1");
  ASSERT_EQ(r.code, 0) << r.output;
  r = run_shell(root + hybridsim_bin() + " sweep " + two + " --quiet --jobs 1 --out " + out2 +
                " 2>&1");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(file_text(out1 + "/results.csv"), file_text(out2 + "/results.csv"));
  // Each point ran as two partitions.
  size_t partitioned = 0;
  for (const auto& f : fs::recursive_directory_iterator(out2)) {
    if (f.path().extension() == ".json" &&
        file_text(f.path().string()).find("\"partitions\": 2") != std::string::npos) {
      ++partitioned;
    }
  }
  EXPECT_EQ(partitioned, 2u);

  for (const char* bad : {"0", "2.5", "\"4\"", "5000"}) {
    const std::string file =
        write_temp_file("sweep_bad.json", "{" + points + ", \"processes\": " + bad + "}");
    r = run_shell(hybridsim_bin() + " sweep " + file + " --dry-run --out " +
                  temp_path("sweep_bad_out") + " 2>&1");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("'processes' must be a whole number of processes from 1 to 4096"),
              std::string::npos)
        << bad << ": " << r.output;
  }
  const std::string hybrid = write_temp_file(
      "sweep_hybrid.json",
      R"({"scenario": "default", "params": {"node0.pcie0.lanes": [4, 8]}, "processes": 2})");
  r = run_shell(hybridsim_bin() + " sweep " + hybrid + " --dry-run --out " +
                temp_path("sweep_hybrid_out") + " 2>&1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("does not run partitioned over processes"), std::string::npos)
      << r.output;
}
