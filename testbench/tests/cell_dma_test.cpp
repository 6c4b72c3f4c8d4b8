// The cell_dma scenario: SPE DMA streams across the EIB against its published limits (the
// command bus's 204.8 GB/s, 25.6 GB/s per ramp and at the MIC), placement on the rings, and
// its workload parameters refused before the run.
#include <gtest/gtest.h>

#include "testbench/support/scenario_run.h"

using Json = nlohmann::json;
using hs::testing::passed;
using hs::testing::violations;

namespace {

constexpr double kCommandBus = 204.8;  // GB/s: 128 B per command, one command per bus cycle
constexpr double kPort = 25.6;         // GB/s: a ramp, or the MIC

Json run(const std::vector<std::string>& sets) {
  Json r = hs::testing::run_scenario("cell_dma", sets);
  if (r.contains("error")) ADD_FAILURE() << "run failed: " << r["error"];
  return r;
}

double aggregate(const Json& r) {
  return r["results"]["aggregate_GBps"].get<double>();
}

// The EIB's commands never outnumber the bus cycles of the run.
void expect_command_bus_within_its_cycles(const Json& r) {
  const Json& eib = r["stats"]["node0.acc0.eib"];
  const double cycles = r["simulated_time_ns"].get<double>() * 1.6;
  EXPECT_LE(eib["commands"].get<double>(), cycles);
  EXPECT_LE(eib["command_bus_utilisation"].get<double>(), 1.0);
}

}  // namespace

TEST(CellDma, EightSpesInNearPairsReachNinetyPercentOfTheCommandBus) {
  const Json r = run({});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_GE(aggregate(r), 0.9 * kCommandBus);
  EXPECT_LE(aggregate(r), kCommandBus * 1.0001);
  ASSERT_EQ(r["results"]["per_spe_GBps"].size(), 8u);
  for (const Json& s : r["results"]["per_spe_GBps"]) EXPECT_LE(s.get<double>(), kPort * 1.0001);
  EXPECT_GT(r["results"]["mean_command_latency_ns"].get<double>(), 0.0);
  expect_command_bus_within_its_cycles(r);
}

TEST(CellDma, FarPairsWhosePathsOverlapGetMeasurablyLessThanNearPairs) {
  const Json near = run({}), far = run({"workload.placement=far"});
  ASSERT_TRUE(passed(near)) << violations(near);
  ASSERT_TRUE(passed(far)) << violations(far);
  EXPECT_LT(aggregate(far), 0.9 * aggregate(near));
  expect_command_bus_within_its_cycles(far);
}

TEST(CellDma, TheEibNeverCarriesMoreThanItsCommandBusAllows) {
  for (const std::vector<std::string>& sets :
       {std::vector<std::string>{"workload.direction=get"},
        {"workload.placement=far", "workload.direction=get"},
        {"workload.command_bytes=128", "workload.bytes_per_spe=1MiB"}}) {
    const Json r = run(sets);
    ASSERT_TRUE(passed(r)) << violations(r);
    EXPECT_LE(aggregate(r), kCommandBus * 1.0001) << r["params"].dump();
    expect_command_bus_within_its_cycles(r);
  }
}

TEST(CellDma, TheCommandBusCapsTheEibWhenRampsAndLocalStoresCouldCarryMore) {
  // 32 B ramps (51.2 GB/s each way) and local stores that keep up: only the command bus,
  // 128 B per bus cycle, holds eight SPEs to 204.8 GB/s.
  const Json r = run({"node0.acc0.eib.ring_width=32", "node0.acc0.spe*.local_store.bandwidth=409.6",
                      "node0.acc0.spe*.mfc.outstanding=16"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_LE(aggregate(r), kCommandBus * 1.0001);
  EXPECT_GE(aggregate(r), 0.9 * kCommandBus);
  EXPECT_NEAR(r["stats"]["node0.acc0.eib"]["command_bus_utilisation"].get<double>(), 1.0, 0.1);
}

TEST(CellDma, MemoryStreamsRunAtTheMicsPort) {
  for (const char* dir : {"get", "put"}) {
    const Json r = run({"workload.target=memory", std::string("workload.direction=") + dir,
                        "workload.bytes_per_spe=1MiB"});
    ASSERT_TRUE(passed(r)) << violations(r);
    EXPECT_NEAR(aggregate(r), kPort, kPort * 0.01) << dir;
    EXPECT_LE(aggregate(r), kPort * 1.0001) << dir;
  }
}

TEST(CellDma, LocalStorePairsNeedAnEvenNumberOfSpes) {
  const Json r = hs::testing::run_scenario("cell_dma", {"workload.spes=3"});
  ASSERT_TRUE(r.contains("error")) << r.dump();
  const std::string e = r["error"].get<std::string>();
  EXPECT_NE(e.find("workload.spes = 3"), std::string::npos) << e;
  EXPECT_NE(e.find("even"), std::string::npos) << e;
}

TEST(CellDma, StreamsTooShortForASteadyStateAreRefused) {
  const Json r = hs::testing::run_scenario("cell_dma", {"workload.bytes_per_spe=65536"});
  ASSERT_TRUE(r.contains("error")) << r.dump();
  const std::string e = r["error"].get<std::string>();
  EXPECT_NE(e.find("workload.bytes_per_spe = 65536"), std::string::npos) << e;
  EXPECT_NE(e.find("workload.command_bytes"), std::string::npos) << e;
}

TEST(CellDma, CommandSizesOffTheMfcsSixteenByteGrainAreRefused) {
  const Json r = hs::testing::run_scenario("cell_dma", {"workload.command_bytes=100"});
  ASSERT_TRUE(r.contains("error")) << r.dump();
  EXPECT_NE(r["error"].get<std::string>().find("workload.command_bytes = 100"), std::string::npos)
      << r["error"];
}
