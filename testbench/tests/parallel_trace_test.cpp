// The transaction trace of a partitioned run with firmware: what a core's firmware traces from
// its own process (its MPI calls as spans, its phases, its log lines), outside the timeline's
// dispatch, is merged by where the core's activation stands in the sequential kernel's order
// (hw/cpu/core_activation.h), so the cores' tracks are byte for byte the sequential run's,
// ranks in different partitions acting at one instant included. So are the whole trace's
// other tracks: the DMA engines' (descriptors, FIFOs, counters), whose injection engines and
// completions run outside the dispatch too, woken by an alarm's ringing or by a delta
// notification whose notifier's place they take (tlm/timing/timeline.h, WakeKey). The
// sequential run's file is the reference; each case fails when such calls are merged in
// partition order.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "testbench/support/cli_run.h"
#include "testbench/support/mpirun.h"

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

using namespace hs::testing;  // cli_run.h and mpirun.h: starting runs and reading their files

// The cores' tracks: each rank's MPI calls, the firmware's phases and log lines.
const std::string kCores = " --quiet --trace-only '*core0'";

// 16 nodes, slabs across z; and 8 nodes as boxes of one node each.
const std::string kSlabs =
    " --set torus.network.x=2 --set torus.network.y=2 --set torus.network.z=4"
    " --set program.compute=fixed";
const std::string kBoxes =
    " --set torus.network.x=2 --set torus.network.y=2 --set torus.network.z=2"
    " --set program.compute=fixed --set torus.partition.scheme=box";

// A user's MPI program as the mpirun launcher runs it, with `ranks` ranks.
std::string user_program(const std::string& name, int ranks) {
  return "mpirun --set workload.program=" + std::string(HYBRIDSIM_MPI_PROGRAMS) + "/" + name +
         " --set mpi.ranks=" + std::to_string(ranks) + " --set program.labels=true";
}

// The most trace processes (nodes) with an event at one time: ranks acting at one instant.
size_t most_nodes_at_one_time(const std::string& trace) {
  std::map<double, std::set<int>> nodes;
  const Json file = Json::parse(trace);
  for (const Json& e : file["traceEvents"]) {
    if (e["ph"] != "M") nodes[e["ts"].get<double>()].insert(e["pid"].get<int>());
  }
  size_t most = 0;
  for (const auto& [ts, pids] : nodes) most = std::max(most, pids.size());
  return most;
}

// Runs `hybridsim run ARGS` with a trace as one process, then under mpirun -np P for each P:
// the same trace, byte for byte. Returns the sequential run's trace.
std::string expect_same_trace(const std::string& args, const std::vector<int>& processes) {
  const std::string seq = temp_path("trace_seq.json");
  fs::remove(seq);
  const CliResult a = run_shell(hybridsim_bin() + " run " + args + " --trace " + seq + " 2>&1");
  EXPECT_EQ(a.code, 0) << a.output;
  const std::string reference = file_text(seq);
  for (int p : processes) {
    SCOPED_TRACE(args + " with " + std::to_string(p) + " processes");
    const std::string par = temp_path("trace_par" + std::to_string(p) + ".json");
    fs::remove(par);
    const CliResult m = run_shell(mpirun(p, "timeout 300 ") + hybridsim_bin() + " run " + args +
                                  " --trace " + par + " 2>&1");
    EXPECT_EQ(m.code, 0) << m.output;
    EXPECT_TRUE(file_text(par) == reference) << "traces differ: diff " << seq << " " << par;
  }
  return reference;
}

}  // namespace

// rank_ends: every rank prints at one instant, exchanges a message with its neighbours (woken
// by the interrupt), joins an allreduce and a barrier: same-time MPI calls and log lines of
// ranks in every partition.
TEST(ParallelTrace, UserProgramCoresAreTheSequentialRunsAtEveryProcessCount) {
  const std::string trace =
      expect_same_trace(user_program("rank_ends", 16) + kSlabs + kCores, {2, 3, 4});
  // Every node acts at some one instant: the test orders events of different partitions.
  EXPECT_EQ(most_nodes_at_one_time(trace), 16u);
}

TEST(ParallelTrace, UserProgramCoresOnEightBoxesAreTheSequentialRuns) {
  const std::string trace = expect_same_trace(user_program("rank_ends", 8) + kBoxes + kCores, {8});
  EXPECT_EQ(most_nodes_at_one_time(trace), 8u);
}

// The built-in firmware workloads trace their MPI layer's calls from the cores alike.
TEST(ParallelTrace, FirmwareWorkloadsCoresAreTheSequentialRuns) {
  const std::string torus =
      " --set torus.network.x=4 --set torus.network.y=4 --set torus.network.z=4";
  EXPECT_GT(most_nodes_at_one_time(expect_same_trace("halo3d" + torus + kCores, {2, 3})), 32u);
  EXPECT_GT(most_nodes_at_one_time(expect_same_trace("allreduce" + torus + kCores, {2})), 32u);
  EXPECT_GT(most_nodes_at_one_time(expect_same_trace("program_halo" + torus + kCores, {4})), 32u);
}

// The whole trace (no --trace-only): DMA engines of nodes in different partitions inject and
// complete packets at one instant, woken by their step's ringing, by a core's register write
// or by a completion.
size_t dma_spans(const std::string& trace) {
  size_t n = 0;
  const Json file = Json::parse(trace);
  for (const Json& e : file["traceEvents"]) {
    if (e["ph"] == "M" && e["args"].value("name", "").rfind("dma.injection fifo", 0) == 0) ++n;
  }
  return n;
}

TEST(ParallelTrace, UserProgramWholeTraceIsTheSequentialRunsAtEveryProcessCount) {
  const std::string trace =
      expect_same_trace(user_program("rank_ends", 16) + kSlabs + " --quiet", {2, 3, 4});
  EXPECT_EQ(most_nodes_at_one_time(trace), 16u);
  EXPECT_GE(dma_spans(trace), 16u);  // every node's engine injected
}

TEST(ParallelTrace, UserProgramWholeTraceOnEightBoxesIsTheSequentialRuns) {
  const std::string trace =
      expect_same_trace(user_program("rank_ends", 8) + kBoxes + " --quiet", {8});
  EXPECT_EQ(most_nodes_at_one_time(trace), 8u);
  EXPECT_GE(dma_spans(trace), 8u);
}

TEST(ParallelTrace, FirmwareWorkloadsWholeTraceIsTheSequentialRuns) {
  const std::string slabs =
      " --set torus.network.x=2 --set torus.network.y=2 --set torus.network.z=4 --quiet"
      " --set workload.iterations=1 --set workload.warmup=0";
  EXPECT_GE(dma_spans(expect_same_trace("halo3d" + slabs, {2, 3})), 16u);
  // Every pair ping-pongs at once over the firmware's MPI layer: neighbours in different
  // partitions send and receive at one instant.
  EXPECT_GE(dma_spans(expect_same_trace(
                "pingpong_pairs" + slabs + " --set workload.pairing=neighbour", {2, 4})),
            16u);
}
