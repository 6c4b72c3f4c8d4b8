// The deposit broadcasts (sw/mpi/coll_deposit.cpp): results verified by the MPI checker, twice
// as fast as the binomial tree for 256 KiB and close to the rate a deposit stream can keep on
// the escape VC, and refused before the run for ranks they do not fit. Each run is a forked
// child.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hw/torus/network/network_config.h"
#include "testbench/support/scenario_run.h"

using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;
using nlohmann::json;

namespace {

constexpr double kBytes = 262144;  // testbench/scenarios/programs/bcast.txt

json bcast(int x, int y, int z, const std::string& algorithm, const std::string& mode = "smp") {
  return run_scenario(
      "program_ring",
      {"torus.network.x=" + std::to_string(x), "torus.network.y=" + std::to_string(y),
       "torus.network.z=" + std::to_string(z), "mpi.mode=" + mode,
       "mpi.algorithm.bcast=" + algorithm,
       "workload.program=" HYBRIDSIM_SCENARIO_DIR "/programs/bcast.txt"});
}

double time_ns(const json& r) {
  return r["results"]["time_per_iteration_ns"].get<double>();
}

// The time of a deposit broadcast of kBytes whose lines have `n` nodes, `phases` of them in
// turn (x, then y, then z). A deposit stream rides the bubble escape VC, where an injected
// packet needs its next router's buffer empty (the bubble rule's room plus the injection
// reserve): packets leave one serialisation + wire + transit router + token return apart. Each
// phase after the first starts one pipeline segment (mpi.pipeline_bytes, 16 KiB) later; the
// last packet's head then travels n/2 hops.
double stream_ns(int n, int phases) {
  const hs::torus::NetworkConfig cfg;
  const double period =
      cfg.serialisation_ns(8) + cfg.wire_latency_ns + cfg.router_latency_ns + cfg.credit_latency_ns;
  const double packets = std::ceil(kBytes / cfg.max_payload());
  const double segment = std::ceil(16384.0 / cfg.max_payload());
  return (packets + (phases - 1) * segment) * period + cfg.zero_load_latency_ns(n / 2, 8);
}

void expect_verified(const json& r) {
  ASSERT_TRUE(passed(r)) << violations(r) << r.value("error", std::string());
  EXPECT_GE(r["results"]["collectives_verified"].get<int>(), 1) << r["results"];
}

// Runs `algorithm` and binomial on an x by y by z torus, both verified, the deposit broadcast
// at least twice as fast; returns its time.
double twice_as_fast_as_binomial(int x, int y, int z, const std::string& algorithm) {
  const json dep = bcast(x, y, z, algorithm), bin = bcast(x, y, z, "binomial");
  expect_verified(dep);
  expect_verified(bin);
  EXPECT_LT(time_ns(dep) * 2, time_ns(bin));
  return time_ns(dep);
}

}  // namespace

TEST(MpiDeposit, LineBroadcastOnEightNodesBeatsBinomialAtTheStreamRate) {
  const double t = twice_as_fast_as_binomial(8, 1, 1, "deposit_line");
  EXPECT_NEAR(t, stream_ns(8, 1), 0.1 * stream_ns(8, 1));
}

TEST(MpiDeposit, RectangleBroadcastOnFourByFourBeatsBinomialAtTheStreamRate) {
  const double t = twice_as_fast_as_binomial(4, 4, 1, "deposit_rectangle");
  EXPECT_NEAR(t, stream_ns(4, 2), 0.1 * stream_ns(4, 2));
}

TEST(MpiDeposit, RectangleBroadcastOnFourByFourByFourBeatsBinomialTwice) {
  // The root feeds six line directions here, and its DMA engine (a packet's build and buffer
  // read, about 150 ns) rather than the links sets the pace: no closer bound than the stream.
  EXPECT_GT(twice_as_fast_as_binomial(4, 4, 4, "deposit_rectangle"), stream_ns(4, 3));
}

TEST(MpiDeposit, TheLineAlgorithmIsRefusedForRanksOffOneLine) {
  const json r = bcast(4, 4, 1, "deposit_line");
  ASSERT_FALSE(passed(r));
  const std::string e = r.value("error", std::string());
  EXPECT_NE(e.find("parameter 'mpi.algorithm.bcast': bcast algorithm 'deposit_line' does not fit"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("span 2 torus dimensions"), std::string::npos) << e;
}

TEST(MpiDeposit, BothAlgorithmsAreRefusedForTwoRanksANode) {
  for (const char* a : {"deposit_line", "deposit_rectangle"}) {
    const json r = bcast(4, 1, 1, a, "dual");
    ASSERT_FALSE(passed(r)) << a;
    EXPECT_NE(r.value("error", std::string()).find("one rank per node"), std::string::npos)
        << r.value("error", std::string());
  }
}
