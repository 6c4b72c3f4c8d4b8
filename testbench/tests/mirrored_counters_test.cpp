// Mirrored packet counters: the spec's testable behaviours, each a named test, on
// the hybrid node through the mirrored_counters workload; and randomized runs over many seeds
// with random PCIe latency, firmware timing, ring sizes and publication policies.
#include <gtest/gtest.h>

#include <random>

#include "hw/hybrid/address_map.h"
#include "sw/slmpm/shared_memory.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/simulation.h"
#include "testbench/support/child_process.h"
#include "testbench/support/scenario_run.h"
#include "tlm/check/checker.h"
#include "tlm/params/param_registry.h"

using hs::runner::RunOptions;
using hs::runner::Simulation;
using Json = nlohmann::json;

namespace {

using hs::testing::passed;
using hs::testing::violations;

Json run(const std::vector<std::string>& sets, uint64_t seed = 1) {
  Json r = hs::testing::run_scenario("mirrored_counters", sets, seed);
  if (r.contains("error")) ADD_FAILURE() << "run failed: " << r["error"];
  return r;
}

const Json& pair0(const Json& r) {
  return r["results"]["pairs"][0];
}

}  // namespace

TEST(MirroredCounters, NoSideIssuesAnyRemoteRead) {
  const Json r = run({});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(pair0(r)["pcie_mrd"], 0);
  EXPECT_EQ(pair0(r)["host"]["remote_reads"], 0);
  EXPECT_EQ(pair0(r)["accelerator"]["remote_reads"], 0);
}

TEST(MirroredCounters, CopiesEqualTheirOwnersOnceTrafficStops) {
  // Monotonic counters and copies never ahead are checked as the firmware runs; equality of
  // every pair (J, K, L, M) and of the mirrored values after traffic is the workload's verdict.
  const Json r = run({"workload.publish=lazy"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_TRUE(pair0(r)["verified"].get<bool>());
}

TEST(MirroredCounters, AFullRingHoldsPacketsAndLosesNone) {
  // Two segments and a writer far faster than the reader polls: the ring fills again and
  // again, yet every packet arrives, in order, once.
  const Json r = run({"workload.segments=2", "workload.threshold=1", "workload.gap_cycles=0"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_GT(pair0(r)["accelerator"]["ring_full_polls"].get<uint64_t>(), 0u);
  EXPECT_EQ(pair0(r)["host"]["received"], 500);
  EXPECT_EQ(pair0(r)["accelerator"]["received"], 500);
  EXPECT_TRUE(pair0(r)["verified"].get<bool>());
}

TEST(MirroredCounters, WriterWaitsOnlyWhenTheRingIsFull) {
  // More segments than packets: the ring can never fill, so the writer never waits.
  const Json r = run({"workload.segments=1024", "workload.updates=500", "workload.gap_cycles=0"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(pair0(r)["host"]["ring_full_polls"], 0);
  EXPECT_EQ(pair0(r)["accelerator"]["ring_full_polls"], 0);
}

TEST(MirroredCounters, EagerPublishesOncePerReadBatch) {
  // A read batch is one poll that finds packets; eager publication writes K once after each,
  // never after a poll that finds none. Updates with no gap let the host's reader find several
  // packets per poll; slower accelerator memory does the same for the accelerator's reader,
  // so publishing per packet is told apart from publishing per batch on both sides.
  const Json host_batches = run({"workload.publish=eager", "workload.gap_cycles=0"});
  const Json acc_batches =
      run({"workload.publish=eager", "workload.gap_cycles=0", "node0.acc0.dram.latency=300"});
  for (const auto& [r, batching_side] :
       {std::pair<const Json&, const char*>{host_batches, "host"}, {acc_batches, "accelerator"}}) {
    ASSERT_TRUE(passed(r)) << violations(r);
    for (const char* side : {"host", "accelerator"}) {
      const auto& s = pair0(r)[side];
      EXPECT_EQ(s["received"], 500) << side;
      EXPECT_EQ(s["publications"].get<uint64_t>(), s["read_batches"].get<uint64_t>()) << side;
    }
    EXPECT_LT(pair0(r)[batching_side]["read_batches"].get<uint64_t>(), 500u)
        << batching_side << ": no poll found more than one packet";
  }
}

TEST(MirroredCounters, LazyPublishesFewerCounterWritesAndDoesNotDeadlock) {
  const std::vector<std::string> fast = {"workload.gap_cycles=100", "workload.segments=16",
                                         "workload.threshold=8"};
  auto lazy_sets = fast;
  lazy_sets.push_back("workload.publish=lazy");
  const Json eager = run(fast), lazy = run(lazy_sets);
  ASSERT_TRUE(passed(eager)) << violations(eager);
  ASSERT_TRUE(passed(lazy)) << violations(lazy);
  const auto pubs = [](const Json& r) {
    return pair0(r)["host"]["publications"].get<uint64_t>() +
           pair0(r)["accelerator"]["publications"].get<uint64_t>();
  };
  EXPECT_LT(pubs(lazy), pubs(eager));
  EXPECT_LT(pair0(lazy)["pcie_mwr"].get<uint64_t>(), pair0(eager)["pcie_mwr"].get<uint64_t>());
  EXPECT_TRUE(pair0(lazy)["verified"].get<bool>());
}

TEST(MirroredCounters, TheSourcesLiteralLazyRuleStallsForever) {
  const Json r = run({"workload.publish=lazy_literal", "workload.threshold=12",
                      "workload.gap_cycles=200", "workload.stall_cycles=2000000"});
  ASSERT_FALSE(passed(r));
  EXPECT_NE(violations(r).find("ring stalled"), std::string::npos) << violations(r);
}

TEST(MirroredCounters, BothDirectionsAndSeveralAcceleratorsAreIndependent) {
  const Json r = run({"workload.accelerators=4"});
  ASSERT_TRUE(passed(r)) << violations(r);
  ASSERT_EQ(r["results"]["pairs"].size(), 4u);
  for (const auto& p : r["results"]["pairs"]) {
    EXPECT_TRUE(p["verified"].get<bool>());
    EXPECT_EQ(p["host"]["received"], 500);
    EXPECT_EQ(p["accelerator"]["received"], 500);
    EXPECT_EQ(p["pcie_mrd"], 0);
  }
}

TEST(MirroredCounters, BaselineReadsAcrossPcieAndIsSlowerPerUpdate) {
  const Json mirrored = run({}), baseline = run({"workload.mode=baseline"});
  ASSERT_TRUE(passed(mirrored)) << violations(mirrored);
  ASSERT_TRUE(passed(baseline)) << violations(baseline);
  EXPECT_EQ(pair0(mirrored)["pcie_mrd"], 0);
  EXPECT_GT(pair0(baseline)["pcie_mrd"].get<uint64_t>(), 500u);
  for (const char* side : {"host", "accelerator"}) {
    EXPECT_LT(pair0(mirrored)[side]["mean_latency_ns"].get<double>(),
              pair0(baseline)[side]["mean_latency_ns"].get<double>())
        << side;
  }
}

TEST(MirroredCounters, RandomLatencyTimingAndSizesOverManySeeds) {
  int failures = 0;
  for (uint64_t seed = 1; seed <= 160; ++seed) {
    std::mt19937_64 rng(seed);
    const uint32_t segments = 1 + rng() % 24;
    std::vector<std::string> sets = {
        "node0.pcie0.latency=" + std::to_string(50 + rng() % 3000),
        "workload.segments=" + std::to_string(segments),
        "workload.threshold=" + std::to_string(1 + rng() % segments),
        "workload.gap_cycles=" + std::to_string(rng() % 5000),
        "workload.updates=" + std::to_string(50 + rng() % 200),
        std::string("workload.publish=") + (rng() % 2 ? "lazy" : "eager"),
        std::string("workload.mode=") + (rng() % 4 == 0 ? "baseline" : "mirrored"),
        std::string("workload.directions=") + (rng() % 3 == 0 ? "acc_to_host" : "both"),
        "workload.accelerators=" + std::to_string(1 + rng() % 4),
        "node0.accelerators_per_core=" + std::to_string(1 + rng() % 2)};
    const Json r = run(sets, seed);
    bool ok = !r.contains("error") && passed(r);
    for (const auto& p : ok ? r["results"]["pairs"] : Json::array())
      ok &= p["verified"].get<bool>();
    if (!ok) {
      ADD_FAILURE() << "seed " << seed << ": "
                    << (r.contains("error") ? r["error"].dump() : violations(r));
      if (++failures > 3) return;
    }
  }
}

TEST(MirroredCounters, TheAlwaysOnCheckerFlagsAnyRemoteReadOfARingOrCounterCopy) {
  const Json r = hs::testing::run_in_child([] {
    hs::runner::HybridModel model;
    hs::ParamRegistry::instance().finalize();
    // Firmware that breaks the rule: the accelerator reads the host's ring across PCIe.
    model.node.accelerators[0]->ppe->set_firmware([](hs::fw::Hal& hal) {
      hal.load<uint64_t>(hs::hybrid::amap::host_via_pcie(0) + hs::fw::slmpm::shm::host_region(0) +
                         hs::fw::slmpm::shm::kRing);
    });
    sc_core::sc_start();
    return hs::CheckRegistry::instance().to_json();
  });
  ASSERT_FALSE(r["passed"].get<bool>());
  EXPECT_NE(r["violations"].dump().find("remote read of the host's SLMPM ring"), std::string::npos)
      << r["violations"];
}
