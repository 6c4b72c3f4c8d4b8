// The AMI stream (torus_ami) run partitioned under mpirun -np P: the sender (node 0) and the
// receiver each run in their node's partition, the AMI checker replays both partitions' logs
// at each window's end, and the report (results, statistics, checks: all but the wall-clock
// figures under "run") and the link CSV are the sequential run's for every variant, P = 1, 2,
// 3, 4 and 8. The torus is 4x2x2 with the receiver 2 hops along x (x2y0z0): slabs across x (the
// longest axis) put the two ends in different partitions whenever P > 1 and cut the wrap-around
// link (x3 -> x0), which the stream's packets take one way and the receiver's replies the other; P
// = 8 runs as boxes. Two messages of 32 KiB keep each run short (some 30,000 windows).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "testbench/support/same_as_sequential.h"

using Json = nlohmann::json;
using hs::testing::expect_same_as_sequential;

namespace {

const std::string kStream =
    "torus_ami --set torus.network.x=4 --set torus.network.y=2 --set torus.network.z=2"
    " --set workload.hops=2 --set workload.bytes=32768 --set workload.messages=2";
const std::vector<int> kProcesses{1, 2, 3, 4, 8};

std::string variant(const std::string& protocol, const std::string& receive) {
  return kStream + " --set workload.ami.protocol=" + protocol +
         " --set workload.receive=" + receive;
}

// Every message arrived intact, and the checker (fed by the partitions' logs in a parallel
// run) followed each one to its end without a violation.
void expect_whole_stream(const Json& report) {
  const Json& r = report["results"];
  EXPECT_EQ(r["data_verified"], true) << r.dump();
  EXPECT_EQ(r["checker_violations"], 0) << r.dump();
  ASSERT_EQ(r["protocol_trace"].size(), r["messages"].get<size_t>()) << r.dump();
  for (const Json& m : r["protocol_trace"]) {
    EXPECT_TRUE(m["receive_done"].get<bool>() && m["send_done"].get<bool>()) << m.dump();
  }
}

}  // namespace

// A: the receiver STOPs the eager stream (its core is busy), discards what still arrives and
// pulls the rest.
TEST(ParallelAmi, VariantAIsTheSequentialRun) {
  const Json r = expect_same_as_sequential(variant("A", "delayed"), kProcesses);
  expect_whole_stream(r);
  EXPECT_GT(r["results"]["eager_bytes_discarded"].get<double>(), 0);
  EXPECT_NE(r["results"]["protocol_trace"][0]["stop"], "none");
}

// B: the CTS carries the sender's E (sender's partition) to the receiver's final GET.
TEST(ParallelAmi, VariantBIsTheSequentialRun) {
  const Json r = expect_same_as_sequential(variant("B", "late"), kProcesses);
  expect_whole_stream(r);
  EXPECT_GE(r["results"]["protocol_trace"][0]["cts"].get<double>(), 0);
  EXPECT_GT(r["results"]["rdma_bytes"].get<double>(), 0);
}

// C: the sender PUTs [E, size) into the receiver's buffer, the receiver's DMA engine commits it.
TEST(ParallelAmi, VariantCIsTheSequentialRun) {
  const Json r = expect_same_as_sequential(variant("C", "late"), kProcesses);
  expect_whole_stream(r);
  EXPECT_GE(r["results"]["protocol_trace"][0]["put"][0].get<double>(), 0);
}

// The eager baseline: messages within the eager limit, staged in temporary space until their
// RECEIVE is posted, against the receiver's credits.
TEST(ParallelAmi, EagerBaselineIsTheSequentialRun) {
  const Json r = expect_same_as_sequential(variant("eager", "late") + " --set workload.bytes=4096",
                                           kProcesses);
  expect_whole_stream(r);
  EXPECT_GT(r["results"]["staged_bytes"].get<double>(), 0);
}

TEST(ParallelAmi, RendezvousBaselineIsTheSequentialRun) {
  expect_whole_stream(expect_same_as_sequential(
      variant("rendezvous", "random") + " --set workload.receive_delay=3000", kProcesses));
}

// Sizes and receive times drawn per message, several in flight, a receiver busy computing,
// CRC errors (retransmissions across the cuts), the receiver 3 hops away (across x and y).
TEST(ParallelAmi, RandomStreamWithCrcErrorsIsTheSequentialRun) {
  expect_whole_stream(expect_same_as_sequential(
      variant("B", "random") +
          " --set workload.hops=3 --set workload.random_sizes=true --set workload.window=4"
          " --set workload.messages=8 --set workload.receive_delay=3000"
          " --set workload.receiver_load=0.5 --set torus.network.link_crc_error_rate=0.001",
      kProcesses));
}

// Both ends on node 0's two cores, over the shared-memory adapter: one partition runs the
// stream, the others have nothing to do, and nothing crosses a cut.
TEST(ParallelAmi, SharedMemoryStreamIsTheSequentialRun) {
  const Json r = expect_same_as_sequential(
      variant("B", "late") + " --set workload.hops=0 --set torus.node.cores=2", kProcesses,
      "passed", false);
  expect_whole_stream(r);
  EXPECT_EQ(r["results"]["adapter"], "shared_memory");
}

// A run stopped mid-stream (sim.stop_at): the same figures of the unfinished stream.
TEST(ParallelAmi, AStreamStoppedMidwayIsTheSequentialRun) {
  const Json r =
      expect_same_as_sequential(variant("C", "late") + " --set sim.stop_at=60000", {2, 3});
  EXPECT_EQ(r["end"]["reason"], "stopped at sim.stop_at");
  EXPECT_EQ(r["results"]["data_verified"], false);
}

// The transaction trace and the waveform of a partitioned stream are the sequential run's,
// byte for byte: the endpoints' cores and DMA engines traced where they live, merged at the end.
TEST(ParallelAmi, TraceAndWaveformAreTheSequentialRuns) {
  using hs::testing::file_text;
  using hs::testing::hybridsim_bin;
  using hs::testing::run_shell;
  using hs::testing::temp_path;
  const std::string args = variant("C", "late") + " --set workload.hops=3 --quiet";
  const auto outputs = [](const std::string& name) {
    return " --trace " + temp_path(name + ".json") + " --vcd " + temp_path(name + ".vcd") + " 2>&1";
  };
  const auto seq = run_shell(hybridsim_bin() + " run " + args + outputs("seq"));
  ASSERT_EQ(seq.code, 0) << seq.output;
  const auto par = run_shell(hs::testing::mpirun(3, "timeout 300 ") + hybridsim_bin() + " run " +
                             args + outputs("par"));
  ASSERT_EQ(par.code, 0) << par.output;
  const std::string trace = file_text(temp_path("seq.json"));
  EXPECT_NE(trace.find("traceEvents"), std::string::npos);
  EXPECT_EQ(trace, file_text(temp_path("par.json")));
  EXPECT_EQ(file_text(temp_path("seq.vcd")), file_text(temp_path("par.vcd")));
}
