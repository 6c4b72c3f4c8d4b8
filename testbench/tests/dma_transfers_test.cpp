// SLMPM DMA transfers with the registration cache on the hybrid node: one registration per
// buffer, the no-cache baseline, cache thrash, OS refusal, stale handles caught without the
// safety mode and never produced with it, over random seeds.
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
  Json r = hs::testing::run_scenario("dma_transfers", sets, seed);
  if (r.contains("error")) ADD_FAILURE() << "run failed: " << r["error"];
  return r;
}

const Json& res(const Json& r) {
  return r["results"];
}

}  // namespace

TEST(DmaTransfers, AThousandTransfersOverFourBuffersRegisterEachBufferOnce) {
  const Json r = run({});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(res(r)["os_register_calls"], 4);
  EXPECT_EQ(res(r)["os_deregister_calls"], 0);
  EXPECT_EQ(res(r)["cache"]["hits"], 996);
  EXPECT_TRUE(res(r)["verified"].get<bool>());
}

TEST(DmaTransfers, WithoutTheCacheEveryTransferCostsTwoSystemCallsAndTime) {
  const Json cached = run({}), baseline = run({"workload.cache=none"});
  ASSERT_TRUE(passed(cached)) << violations(cached);
  ASSERT_TRUE(passed(baseline)) << violations(baseline);
  EXPECT_EQ(res(baseline)["os_register_calls"], 1000);
  EXPECT_EQ(res(baseline)["os_deregister_calls"], 1000);
  EXPECT_GT(res(baseline)["os_cycles"].get<uint64_t>(),
            100 * res(cached)["os_cycles"].get<uint64_t>());
  EXPECT_GT(res(baseline)["elapsed_us"].get<double>(), res(cached)["elapsed_us"].get<double>());
}

TEST(DmaTransfers, CacheThrashWithMoreBuffersThanEntriesStaysCorrect) {
  const Json r = run({"workload.transfers=200", "workload.buffers=8",
                      "node0.host.slmpm.cache.max_entries=4", "workload.window=4"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_GT(res(r)["cache"]["evictions"].get<uint64_t>(), 100u);
  EXPECT_TRUE(res(r)["verified"].get<bool>());
}

TEST(DmaTransfers, WithoutSafetyAnEvictedInUseRegistrationIsCaughtAsAStaleHandle) {
  const Json r = run({"workload.transfers=200", "workload.buffers=8",
                      "node0.host.slmpm.cache.max_entries=4", "workload.window=6"});
  ASSERT_FALSE(passed(r));
  EXPECT_NE(violations(r).find("stale registration handle"), std::string::npos) << violations(r);
}

TEST(DmaTransfers, SafetyModeNeverLetsADmaUseAStaleHandle) {
  const Json r =
      run({"workload.transfers=200", "workload.buffers=8", "node0.host.slmpm.cache.max_entries=4",
           "workload.window=6", "node0.host.slmpm.cache.safety=true"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_GT(res(r)["retries"].get<uint64_t>(), 0u);
  EXPECT_EQ(res(r)["unpinned_dma_accesses"], 0);
}

TEST(DmaTransfers, OsRefusalIsAnsweredByEvictionAndRetry) {
  // Room to pin five 64 KiB buffers at most; eight buffers; no size limit on the cache.
  const Json r =
      run({"workload.transfers=100", "workload.buffers=8", "node0.host.slmpm.cache.max_entries=0",
           "node0.host.os.pinnable_memory=327680"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_GT(res(r)["cache"]["evictions"].get<uint64_t>(), 0u);
  EXPECT_TRUE(res(r)["verified"].get<bool>());
}

TEST(DmaTransfers, RandomBuffersWindowsAndLatenciesWithSafetyOverManySeeds) {
  int failures = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const std::vector<std::string> sets = {
        "workload.transfers=" + std::to_string(20 + rng() % 60),
        "workload.buffers=" + std::to_string(1 + rng() % 12),
        "workload.buffer_bytes=" + std::to_string(16 * (1 + rng() % 2048)),
        "workload.window=" + std::to_string(1 + rng() % 8),
        "node0.host.slmpm.cache.max_entries=" + std::to_string(1 + rng() % 6),
        "node0.host.slmpm.cache.safety=true",
        "node0.pcie0.latency=" + std::to_string(50 + rng() % 2000)};
    const Json r = run(sets, seed);
    const bool ok = !r.contains("error") && passed(r) && res(r)["verified"].get<bool>();
    if (!ok) {
      ADD_FAILURE() << "seed " << seed << ": "
                    << (r.contains("error") ? r["error"].dump() : violations(r));
      if (++failures > 3) return;
    }
  }
}

TEST(DmaTransfers, BuffersBeyondTheTransferAreaAreAnInputError) {
  // 2049 buffers of 64 KiB + 16 B take 128 KiB slots each: 256 MiB + 128 KiB, past the area
  // below the SLMPM's shared memory (the last slot would overwrite the message rings).
  const Json r = hs::testing::run_scenario(
      "dma_transfers", {"workload.buffers=2049", "workload.buffer_bytes=65552"}, 1);
  ASSERT_TRUE(r.contains("error"));
  EXPECT_NE(r["error"].get<std::string>().find("workload.buffers = 2049"), std::string::npos)
      << r["error"];
  const Json fits = hs::testing::run_scenario(
      "dma_transfers",
      {"workload.buffers=2048", "workload.buffer_bytes=65552", "workload.transfers=2"}, 1);
  EXPECT_FALSE(fits.contains("error")) << fits["error"];
  EXPECT_TRUE(passed(fits)) << violations(fits);
}
