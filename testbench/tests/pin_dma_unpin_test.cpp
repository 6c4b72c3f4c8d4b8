// Pin/DMA/unpin: the spec's testable behaviours on the hybrid node, the literal
// rules' failures, and randomized interleavings and PCIe delays over many seeds.
#include <gtest/gtest.h>

#include <random>

#include "testbench/runner/simulation.h"
#include "testbench/support/child_process.h"
#include "testbench/support/scenario_run.h"

using Json = nlohmann::json;

namespace {

using hs::testing::passed;
using hs::testing::violations;

Json run(const std::vector<std::string>& sets, uint64_t seed = 1) {
  Json r = hs::testing::run_scenario("pin_dma_unpin", sets, seed);
  if (r.contains("error")) ADD_FAILURE() << "run failed: " << r["error"];
  return r;
}

const Json& res(const Json& r) {
  return r["results"];
}

// Transfers long enough that requests for region 0 are queued when P unpins it.
const std::vector<std::string> kHeavy = {"workload.max_bytes=65536"};

// A short request to region 0, then 256 KiB to region 1 on the same engine, unpin meanwhile.
const std::vector<std::string> kUnrelated = {"workload.unrelated_bytes=262144",
                                             "workload.region_bytes=262144",
                                             "workload.unpin_after_cycles=20000"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST(PinDmaUnpin, NoEngineTouchesARegionAfterItsUnpinInEitherEmbodiment) {
  for (const char* emb : {"A", "B"}) {
    const Json r = run(with(kHeavy, {std::string("workload.embodiment=") + emb}));
    ASSERT_TRUE(passed(r)) << emb << ": " << violations(r);
    EXPECT_EQ(res(r)["late_dma_writes"], 0) << emb;
  }
}

TEST(PinDmaUnpin, InjectorsThatSeeInvalidEnqueueNothingAndLeaveEntranceEqualToExit) {
  const Json r = run({});
  ASSERT_TRUE(passed(r)) << violations(r);
  uint64_t rejected = 0;
  for (const auto& a : res(r)["applications"]) {
    rejected += a["rejected"].get<uint64_t>();
    EXPECT_EQ(a["entrance"], a["exit"]);
    EXPECT_EQ(a["entrance"].get<uint64_t>(),
              a["issued"].get<uint64_t>() + a["rejected"].get<uint64_t>());
  }
  EXPECT_GT(rejected, 0u) << "some injections must meet the unpinned region";
}

TEST(PinDmaUnpin, EveryRequestEndsWithExactlyOneCompletionWriteInSequence) {
  // Completion values are checked as they land: per engine they advance by exactly one (A).
  const Json r = run(kHeavy);
  ASSERT_TRUE(passed(r)) << violations(r);
  uint64_t issued = 0;
  for (const auto& a : res(r)["applications"]) issued += a["issued"].get<uint64_t>();
  EXPECT_EQ(res(r)["completion_writes"].get<uint64_t>(), issued);
}

TEST(PinDmaUnpin, RequestSlotsAreNotRewrittenWhileAnEngineWithADeeperQueueHoldsThem) {
  // Engines with 200 request slots, applications with 64 request areas and back-to-back
  // injections: a request area is rewritten only after the request in it has completed, so
  // every completion still arrives in sequence, once.
  const Json r =
      run({"node0.host.dma.queue=200", "node0.acc0.dma.queue=200", "workload.injections=300",
           "workload.max_gap_cycles=0", "workload.max_bytes=65536", "workload.unpin_regions=0"});
  ASSERT_TRUE(passed(r)) << violations(r);
  uint64_t issued = 0;
  for (const auto& a : res(r)["applications"]) issued += a["issued"].get<uint64_t>();
  EXPECT_EQ(issued, 600u);
  EXPECT_EQ(res(r)["completion_writes"].get<uint64_t>(), issued);
}

TEST(PinDmaUnpin, UnsafeUnpinLetsADmaWriteIntoAReusedRegion) {
  const Json r = run(with(kHeavy, {"workload.rule=unsafe"}));
  ASSERT_FALSE(passed(r));
  EXPECT_NE(violations(r).find("after it was unpinned"), std::string::npos) << violations(r);
}

TEST(PinDmaUnpin, TheSourcesLiteralRulesForEmbodimentAUnpinWithoutWaiting) {
  const Json r = run(with(kHeavy, {"workload.rule=literal", "workload.embodiment=A"}));
  ASSERT_FALSE(passed(r));
  EXPECT_NE(violations(r).find("after it was unpinned"), std::string::npos) << violations(r);
}

TEST(PinDmaUnpin, TheSourcesLiteralRuleForEmbodimentBWaitsForever) {
  const Json r = run(with(kUnrelated, {"workload.rule=literal", "workload.embodiment=B",
                                       "workload.stall_cycles=2000000"}));
  ASSERT_FALSE(passed(r));
  EXPECT_NE(violations(r).find("unpin stalled: literal region 0"), std::string::npos)
      << violations(r);
}

TEST(PinDmaUnpin, EmbodimentBUnpinIsNotDelayedByAnUnrelatedLongTransfer) {
  const Json a = run(with(kUnrelated, {"workload.embodiment=A"}));
  const Json b = run(with(kUnrelated, {"workload.embodiment=B"}));
  ASSERT_TRUE(passed(a)) << violations(a);
  ASSERT_TRUE(passed(b)) << violations(b);
  const double ua = res(a)["unpin_ns"][0].get<double>(), ub = res(b)["unpin_ns"][0].get<double>();
  // A waits for the 256 KiB transfer (~130 us on gen1 x8); B only for region 0's own request.
  EXPECT_GT(ua, 100'000.0);
  EXPECT_LT(ub, 20'000.0);
}

TEST(PinDmaUnpin, ARejectedInjectionOnOneRegionDoesNotBlockUnpinningAnother) {
  const Json r = run({"workload.unpin_regions=2", "workload.unpin_after_cycles=60000"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(res(r)["unpin_ns"].size(), 2u);
}

TEST(PinDmaUnpin, DataPWritesAfterUnpinIsNeverOverwritten) {
  const Json r =
      run(with(kHeavy, {"workload.unpin_regions=2", "workload.unpin_after_cycles=60000"}));
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_TRUE(res(r)["reuse_intact"].get<bool>());
}

TEST(PinDmaUnpin, RandomInterleavingsAndPcieDelaysOverManySeeds) {
  int failures = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    std::mt19937_64 rng(seed);
    const std::vector<std::string> sets = {
        "node0.pcie0.latency=" + std::to_string(50 + rng() % 3000),
        std::string("workload.embodiment=") + (rng() % 2 ? "A" : "B"),
        "workload.max_bytes=" + std::to_string(16 * (1 + rng() % 4096)),
        "workload.max_gap_cycles=" + std::to_string(rng() % 20000),
        "workload.injections=" + std::to_string(10 + rng() % 60),
        "workload.unpin_after_cycles=" + std::to_string(rng() % 200000),
        "workload.unpin_regions=" + std::to_string(rng() % 3)};
    const Json r = run(sets, seed);
    bool ok = !r.contains("error") && passed(r) && res(r)["late_dma_writes"] == 0;
    for (const auto& a : ok ? res(r)["applications"] : Json::array())
      ok &= a["entrance"] == a["exit"];
    if (!ok) {
      ADD_FAILURE() << "seed " << seed << ": "
                    << (r.contains("error") ? r["error"].dump() : violations(r));
      if (++failures > 3) return;
    }
  }
}
