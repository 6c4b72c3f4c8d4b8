// Users' MPI programs (hybridsim-mpicc, the mpi_program workload) run partitioned under
// mpirun -np P: each process runs only its own nodes' ranks, and what the run says about the
// program is the sequential run's: the report (results, statistics, checks: all but "run"), the
// link CSV, the process's exit status, and every rank's output, each line once, on standard
// output or error, in the order the sequential run prints it (lines of ranks at the same
// simulated time included), from partition 0 alone. Abnormal ends (MPI_Abort, a nonzero exit,
// a crash, a deadlock) in any partition end the run as they end the sequential one. The jobs
// are small (2x2x4 and 2x2x2 tori) so that CI's two cores run each test in a few seconds.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/support/cli_run.h"
#include "testbench/support/mpirun.h"

using Json = nlohmann::json;

namespace {

using namespace hs::testing;  // cli_run.h and mpirun.h: starting runs and reading their files

// 16 nodes: slabs across z cut 4 planes into 2, 3 (uneven) or 4, the wrap-around link among
// the cuts.
const std::string kTorus =
    " --set torus.network.x=2 --set torus.network.y=2 --set torus.network.z=4"
    " --set program.compute=fixed";
// 8 nodes as 2x2x2 boxes of one node each, for 8 processes (and its sequential run).
const std::string kBoxes =
    " --set torus.network.x=2 --set torus.network.y=2 --set torus.network.z=2"
    " --set program.compute=fixed --set torus.partition.scheme=box";

std::string program(const std::string& name) {
  return std::string(HYBRIDSIM_MPI_PROGRAMS) + "/" + name;
}

struct Outcome {
  int code = 0;
  std::string out, err, csv;
  Json report;
};

// `hybridsim mpirun ARGS` (or `hybridsim run ARGS`, with a link CSV, when `command` says so)
// with a report, its standard output and error apart; `prefix` starts it under mpirun.
Outcome run(const std::string& prefix, const std::string& args, const std::string& command) {
  const std::string report = temp_path("report.json"), csv = temp_path("links.csv"),
                    out = temp_path("out.txt"), err = temp_path("err.txt");
  std::remove(report.c_str());
  std::remove(csv.c_str());
  const std::string links = command == "run" ? " --link-csv " + csv : "";
  const CliResult c = run_shell(prefix + hybridsim_bin() + " " + command + " --report " + report +
                                links + " " + args + " > " + out + " 2> " + err);
  Outcome r;
  r.code = c.code;
  r.out = file_text(out);
  r.err = file_text(err);
  // Open MPI's own notice of a process that ended with a nonzero status follows a rule.
  const auto notice = r.err.find("\n-----");
  if (notice != std::string::npos) r.err.erase(notice + 1);
  if (!links.empty()) r.csv = file_text(csv);
  r.report = Json::parse(file_text(report));
  return r;
}

// Runs ARGS as one process, then under mpirun -np P for each P (8: as the boxes of `args`):
// the same exit status, output, report and link CSV. Returns the sequential run.
Outcome expect_same_as_sequential(const std::string& args, const std::vector<int>& processes,
                                  const std::string& command = "mpirun") {
  const Outcome seq = run("", args, command);
  for (int p : processes) {
    SCOPED_TRACE(command + " " + args + " with " + std::to_string(p) + " processes");
    const Outcome par = run(mpirun(p, "timeout 300 "), args, command);
    EXPECT_EQ(par.code, seq.code) << par.err;
    EXPECT_EQ(par.report["run"]["partitions"], p);
    EXPECT_EQ(par.out, seq.out) << "standard output differs";
    EXPECT_EQ(par.err, seq.err) << "standard error differs";
    EXPECT_EQ(model_part(par.report), model_part(seq.report)) << "reports differ";
    EXPECT_EQ(par.csv, seq.csv) << "link CSVs differ";
  }
  return seq;
}

// Each line of `text` that contains `part`, counted.
int lines_with(const std::string& text, const std::string& part) {
  int n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

// Every rank prints at once (16 lines at one simulated time, in the order the kernel runs
// their cores), after a message from its neighbour (woken by the interrupt), after an
// allreduce, and a last line without a newline.
TEST(ParallelMpiProgram, EveryRanksOutputComesOnceInTheSequentialOrder) {
  const Outcome r =
      expect_same_as_sequential("-n 16 -l" + kTorus + " " + program("rank_ends"), {1, 2, 3, 4});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines_with(r.out, ": hello\n"), 16) << r.out;
  EXPECT_EQ(lines_with(r.out, ": bye\n"), 16) << r.out;
  EXPECT_EQ(lines_with(r.err, "to standard error\n"), 16) << r.err;
  EXPECT_NE(r.out.find("[13] rank 13: got 12 from rank 12\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.report["results"]["ranks_finished"], 16);
}

TEST(ParallelMpiProgram, EveryRanksOutputOnEightBoxesAndInVirtualNodeMode) {
  expect_same_as_sequential("-n 8 -l" + kBoxes + " " + program("rank_ends"), {8});
  expect_same_as_sequential("-n 40 -l --set mpi.mode=vn" + kTorus + " " + program("rank_ends"),
                            {2, 3});
}

// The output comes as the run goes on, not at its end: when partition 1 dies mid-run (a test
// hook, at the end of its 600th of about 1200 windows), partition 0 has already printed the
// lines every partition reached, a proper start of the sequential run's output.
TEST(ParallelMpiProgram, OutputComesAsTheRunGoesOn) {
  const std::string args = "-n 16 -l" + kTorus + " " + program("rank_ends");
  const Outcome seq = run("", args, "mpirun");
  const std::string out = temp_path("cut.txt");
  const CliResult cut =
      run_shell("HYBRIDSIM_TEST_PARTITION_EXIT=1:600 " + mpirun(2, "timeout 300 ") +
                hybridsim_bin() + " mpirun " + args + " > " + out + " 2> /dev/null");
  EXPECT_NE(cut.code, 0);
  const std::string printed = file_text(out);
  EXPECT_GE(lines_with(printed, "\n"), 16) << printed;
  EXPECT_LT(printed.size(), seq.out.size()) << printed;
  EXPECT_EQ(seq.out.compare(0, printed.size(), printed), 0) << printed;
}

// The rank that aborts runs in the last partition; the other ranks wait in the barrier, some
// with a partial line, and do nothing more in the rest of the window: even the figures match.
TEST(ParallelMpiProgram, MpiAbortInAnotherPartitionEndsTheRunAsSequentially) {
  const Outcome r = expect_same_as_sequential(
      "-n 16" + kTorus + " " + program("rank_ends") + " abort 14 9", {2, 3, 4});
  EXPECT_EQ(r.code, 9);
  EXPECT_EQ(r.report["status"], "failed");
  EXPECT_EQ(r.report["results"]["exit_status"], 9);
  ASSERT_EQ(r.report["results"]["abnormal_ends"].size(), 1u);
  EXPECT_NE(r.err.find("rank 14 called MPI_Abort(MPI_COMM_WORLD, 9)"), std::string::npos) << r.err;
  EXPECT_EQ(lines_with(r.out, ": bye"), 0) << r.out;
  // The partial lines of the ranks waiting in the barrier, written as they are unwound after
  // the run, the machine's last core first.
  EXPECT_GT(lines_with(r.out, ": at the barrier\n"), 0) << r.out;
}

// Four ranks a node, still busy in the barrier when rank 37 aborts: the other partitions run
// to the window's end, so their figures may cover more than the sequential run's (a failed
// check, docs/parallel.md's limits); how the run ends, the exit status and the output do not.
TEST(ParallelMpiProgram, MpiAbortWhileOthersWorkEndsTheRunAsSequentially) {
  const std::string args =
      "-n 64 -l --set mpi.mode=vn" + kTorus + " " + program("rank_ends") + " abort 37 9";
  const Outcome seq = run("", args, "mpirun");
  EXPECT_EQ(seq.code, 9);
  for (int p : {2, 3}) {
    SCOPED_TRACE(std::to_string(p) + " processes");
    const Outcome par = run(mpirun(p, "timeout 300 "), args, "mpirun");
    EXPECT_EQ(par.code, seq.code) << par.err;
    EXPECT_EQ(par.out, seq.out);
    EXPECT_EQ(par.err, seq.err);
    for (const char* key : {"status", "end"}) EXPECT_EQ(par.report[key], seq.report[key]);
    for (const char* key : {"exit_status", "abnormal_ends", "program"}) {
      EXPECT_EQ(par.report["results"][key], seq.report["results"][key]) << key;
    }
    EXPECT_EQ(par.report["checks"]["violations"], seq.report["checks"]["violations"]);
  }
}

TEST(ParallelMpiProgram, MpiAbortInPartitionZeroEndsTheRunAsSequentially) {
  const Outcome r = expect_same_as_sequential(
      "-n 16" + kTorus + " " + program("rank_ends") + " abort 1 3", {2, 4});
  EXPECT_EQ(r.code, 3);
}

// The rank exits with status 4 after a partial line, which is written when it ends.
TEST(ParallelMpiProgram, ANonzeroExitIsTheJobsStatus) {
  const Outcome r = expect_same_as_sequential(
      "-n 16 -l" + kTorus + " " + program("rank_ends") + " exit 11 4", {2, 3, 4});
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(r.report["results"]["exit_status"], 4);
  EXPECT_NE(r.out.find("[11] rank 11: exiting with 4\n"), std::string::npos) << r.out;
}

// Rank 9 waits for a message nobody sends; every other rank waits in the barrier. The deadlock
// is found when no partition has an event left, naming the first 16 cores of the machine (all
// partitions') with each rank's call.
TEST(ParallelMpiProgram, ADeadlockNamesEveryPartitionsRanks) {
  const Outcome r = expect_same_as_sequential(
      "-n 16" + kTorus + " " + program("rank_ends") + " hang 9", {2, 3, 4});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("16 core(s) never finished"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rank 9: MPI_Recv(peer MPI_ANY_SOURCE, tag 99"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rank 15: MPI_Barrier"), std::string::npos) << r.err;
}

// A time limit reached with work left names the unfinished ranks the same way.
TEST(ParallelMpiProgram, ATimeLimitEndsTheRunAsSequentially) {
  const Outcome r = expect_same_as_sequential(
      "-n 16" + kTorus + " --set sim.time_limit=9us " + program("rank_ends"), {2, 3});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.report["end"]["reason"], "stopped by sim.time_limit");
}

// The conformance programs, each checking its own results, as the examples users start from.
TEST(ParallelMpiProgram, RingAndHaloConformanceProgramsAreTheSequentialRun) {
  expect_same_as_sequential("-n 8 -l" + kTorus + " " + program("ring"), {2, 3, 4});
  expect_same_as_sequential("-n 12" + kTorus + " " + program("halo_cart"), {2, 4});
}

TEST(ParallelMpiProgram, CollectiveConformanceProgramsAreTheSequentialRun) {
  expect_same_as_sequential("-n 6" + kTorus + " " + program("collectives"), {3});
  expect_same_as_sequential("-n 8" + kBoxes + " " + program("alltoallv"), {8});
  expect_same_as_sequential("-n 6" + kTorus + " " + program("private_ranks") + " alpha beta", {2});
}

// A crash (SIGSEGV in rank 1, on the other half of a 2-node torus) and an MPI error.
TEST(ParallelMpiProgram, ACrashAndAnMpiErrorEndTheRunAsSequentially) {
  const std::string two = " --set torus.network.z=2 --set program.compute=fixed ";
  const Outcome segv = expect_same_as_sequential("-n 2" + two + program("errors") + " segv", {2});
  EXPECT_EQ(segv.code, 139);
  const Outcome tag = expect_same_as_sequential("-n 2" + two + program("errors") + " tag", {2});
  EXPECT_EQ(tag.code, 1);
  EXPECT_NE(tag.err.find("MPI_Send: invalid tag -3"), std::string::npos) << tag.err;
}

// `hybridsim run mpirun ...`: the launcher's scenario run as any other (exit status 1 on a
// failed rank), with torus traffic of its own across the cuts.
TEST(ParallelMpiProgram, RunCommandIsTheSequentialRun) {
  const Outcome r = expect_same_as_sequential(
      "mpirun --quiet --set mpi.ranks=16 --set workload.program=" + program("rank_ends") +
          " --set 'workload.args=[\"exit\", \"12\", \"6\"]'" + kTorus,
      {2, 4}, "run");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.report["results"]["exit_status"], 6);
}
