// The checkers that watch the whole machine at once (the MPI checker, the AMI checker) in a
// partitioned run: the reporting partition replays every partition's events at each window's
// end, before the vote, so a violation they find mid-run stops the run at the end of the
// window in which it happened, as the sequential run stops at the violation: the report names
// the sequential run's violation (check, component, message, time), and the run ends at most
// one window (the lookahead) after it rather than going on to its natural end. The violations
// are provoked honestly: a user's MPI program whose ranks disagree on a reduction's operator
// (testbench/mpi_programs/errors.c, mode "mismatch"), and an AMI stream whose receiver's DMA
// engine reports one direct put twice (the HYBRIDSIM_TEST_AMI_PUT_TWICE hook, ami_checker.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "testbench/checkers/ami_checker.h"
#include "testbench/checkers/mpi_checker.h"
#include "testbench/support/cli_run.h"
#include "testbench/support/mpirun.h"

using Json = nlohmann::json;

namespace {

using namespace hs::testing;  // cli_run.h and mpirun.h: starting runs and reading their files

struct Outcome {
  int code = 0;
  std::string output;
  Json report;
};

// `prefix` hybridsim COMMAND ARGS with a report.
Outcome run(const std::string& prefix, const std::string& command, const std::string& args) {
  const std::string report = temp_path("report.json");
  std::remove(report.c_str());
  const std::string quiet = command == "run" ? " --quiet" : "";
  const CliResult c = run_shell(prefix + hybridsim_bin() + " " + command + quiet + " --report " +
                                report + " " + args + " 2>&1");
  Outcome r;
  r.code = c.code;
  r.output = c.output;
  r.report = Json::parse(file_text(report));
  return r;
}

double ns(const Json& v) {
  return v.get<double>();
}

// The run fails on `rule` in the sequential run, stopping at the violation; partitioned over 2
// processes (`env` set in both), it fails on the same first violation and stops within one
// window of it. Returns the violation's time.
double expect_stopped_at_the_violation(const std::string& env, const std::string& command,
                                       const std::string& args, const std::string& rule) {
  const Outcome seq = run(env + " ", command, args);
  EXPECT_EQ(seq.report["status"], "failed") << seq.output;
  if (seq.report["checks"]["violations"].empty()) {
    ADD_FAILURE() << "no violation: " << seq.output;
    return 0;
  }
  const Json first = seq.report["checks"]["violations"][0];
  EXPECT_EQ(first["check"], rule) << seq.output;
  const double at = ns(first["time_ns"]);
  EXPECT_EQ(ns(seq.report["simulated_time_ns"]), at);

  const Outcome par = run(env + " " + mpirun(2, "timeout 300 "), command, args);
  EXPECT_EQ(par.code, seq.code) << par.output;
  EXPECT_EQ(par.report["run"]["partitions"], 2);
  EXPECT_EQ(par.report["status"], "failed") << par.output;
  EXPECT_EQ(par.report["end"]["reason"], seq.report["end"]["reason"]);
  const Json& found = par.report["checks"]["violations"];
  EXPECT_EQ(found.empty() ? Json() : found[0], first) << par.output;
  // Stopped at the end of the window in which the violation happened (windows are never longer
  // than the lookahead), not at the run's natural end.
  const double lookahead = ns(par.report["run"]["parallel"]["lookahead_ns"]);
  const double end = ns(par.report["simulated_time_ns"]);
  EXPECT_GE(end, at);
  EXPECT_LE(end, at + lookahead) << "the partitioned run went on past the violation's window";
  return at;
}

// 16 nodes in slabs across z (2 planes a partition under mpirun -np 2): rank 15 lives in
// partition 1, the checker in partition 0.
const std::string kTorus =
    " --set torus.network.x=2 --set torus.network.y=2 --set torus.network.z=4"
    " --set program.compute=fixed";

std::string program(const std::string& name) {
  return std::string(HYBRIDSIM_MPI_PROGRAMS) + "/" + name;
}

// A 4x2x2 torus with the receiver 2 hops along x (x2y0z0): under mpirun -np 2 the sender and
// the receiver (whose engine receives the direct puts of variant B's GETs) are in different
// partitions, and the checker in the sender's.
const std::string kStream =
    "torus_ami --set torus.network.x=4 --set torus.network.y=2 --set torus.network.z=2"
    " --set workload.hops=2 --set workload.bytes=32768 --set workload.messages=6"
    " --set workload.ami.protocol=B --set workload.receive=late";

}  // namespace

// The last rank reduces with MPI_MAX, the others with MPI_SUM: the checker finds the ranks'
// calls differ when the last of them enters the allreduce (in partition 1, seen by partition
// 0's replay), and the run stops there rather than running its 50 barriers.
TEST(ParallelCheckers, AnMpiCheckerViolationStopsThePartitionedRunAtItsWindow) {
  expect_stopped_at_the_violation("", "mpirun",
                                  "-n 16" + kTorus + " " + program("errors") + " mismatch",
                                  hs::checkers::mpi_rules::kSameCall);
}

// The receiver's engine reports the first direct put of the first message's GET twice: the
// checker finds bytes committed twice (in the receiver's partition's log, replayed in the
// sender's), and the run stops there rather than streaming the other messages.
TEST(ParallelCheckers, AnAmiCheckerViolationStopsThePartitionedRunAtItsWindow) {
  const Outcome natural = run("", "run", kStream);
  ASSERT_EQ(natural.report["status"], "passed") << natural.output;
  ASSERT_GT(natural.report["results"]["rdma_bytes"].get<double>(), 0);
  const double at = expect_stopped_at_the_violation("HYBRIDSIM_TEST_AMI_PUT_TWICE=1", "run",
                                                    kStream, hs::checkers::ami_rules::kNoByteTwice);
  // The fault comes early: without it the stream goes on far longer.
  EXPECT_LT(at, ns(natural.report["simulated_time_ns"]) / 2);
}
