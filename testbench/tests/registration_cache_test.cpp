// Registration cache: every testable behaviour of the spec, plus randomized
// register/deregister streams over many seeds checking the invariants after each call.
#include <gtest/gtest.h>

#include <random>

#include "sw/os/os_model.h"
#include "sw/slmpm/registration_cache.h"
#include "testbench/support/cycle_hal.h"

using namespace hs::fw;
using slmpm::CacheConfig;
using slmpm::RegistrationCache;

namespace {

using hs::testing::CycleHal;

constexpr uint64_t kPage = 4096;

struct Fixture {
  CycleHal hal;
  os::OsModel os;
  RegistrationCache cache;
  std::string error;
  explicit Fixture(size_t max_entries, bool safety = false, os::OsConfig oc = os::OsConfig{})
      : os(oc), cache(os, CacheConfig{max_entries, safety}) {}
  slmpm::Registration reg(uint64_t lo, uint64_t hi) {
    auto r = cache.register_range(hal, lo, hi, error);
    EXPECT_TRUE(r.has_value()) << error;
    return r.value_or(slmpm::Registration{});
  }
  void dereg(uint64_t lo, uint64_t hi) {
    EXPECT_TRUE(cache.deregister(hal, lo, hi, error)) << error;
  }
  uint64_t os_registers() const { return os.counters().register_calls; }
  uint64_t os_deregisters() const { return os.counters().deregister_calls; }
};

// Invariants that hold after every call: size bound, OS pinned set = cached entries.
void check_invariants(const Fixture& f, size_t max_entries) {
  if (max_entries) {
    ASSERT_LE(f.cache.entries().size(), max_entries);
  }
  for (const auto& e : f.cache.entries()) {
    ASSERT_TRUE(f.os.live(e.handle)) << "cached handle not pinned";
    ASSERT_GE(e.counter, 0);
  }
  uint64_t pinned = 0;
  for (const auto& e : f.cache.entries()) pinned += f.os.pinned_size(e.lo, e.hi);
  ASSERT_EQ(pinned, f.os.pinned_bytes()) << "OS pins something no entry holds";
}

}  // namespace

TEST(RegistrationCache, RegisterWithinACachedRangeIsAHitWithoutAnOsCall) {
  Fixture f(64);
  auto first = f.reg(0x10000, 0x20000);
  auto inner = f.reg(0x11000, 0x12000);
  EXPECT_EQ(f.os_registers(), 1u);
  EXPECT_TRUE(inner.hit);
  EXPECT_EQ(inner.handle, first.handle);
  EXPECT_EQ(inner.offset, 0x1000u);
  EXPECT_EQ(f.cache.entries().front().counter, 2);
}

TEST(RegistrationCache, MissWithRoomRegistersOnceAndInsertsOnTop) {
  Fixture f(64);
  f.reg(0x10000, 0x20000);
  auto r = f.reg(0x40000, 0x50000);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(f.os_registers(), 2u);
  const auto& top = f.cache.entries().front();
  EXPECT_EQ(top.lo, 0x40000u);
  EXPECT_EQ(top.handle, r.handle);
  EXPECT_EQ(top.counter, 1);
}

TEST(RegistrationCache, DeregisterHitDecrementsWithoutAnOsCallAndTheEntryStays) {
  Fixture f(64);
  f.reg(0x10000, 0x20000);
  f.dereg(0x10000, 0x20000);
  EXPECT_EQ(f.os_deregisters(), 0u);
  ASSERT_EQ(f.cache.entries().size(), 1u);
  EXPECT_EQ(f.cache.entries().front().counter, 0);
  EXPECT_TRUE(f.os.live(f.cache.entries().front().handle)) << "pages stay pinned";
}

TEST(RegistrationCache, RegisterDeregisterRegisterCostsOneRegistrationAndKeepsTheHandle) {
  Fixture f(64);
  auto a = f.reg(0x10000, 0x20000);
  f.dereg(0x10000, 0x20000);
  auto b = f.reg(0x10000, 0x20000);
  EXPECT_EQ(f.os_registers(), 1u);
  EXPECT_EQ(f.os_deregisters(), 0u);
  EXPECT_EQ(a.handle, b.handle);
}

TEST(RegistrationCache, MissOnAFullCacheDeregistersTheVictimThenRegisters) {
  Fixture f(2);
  f.reg(0x10000, 0x20000);
  f.reg(0x30000, 0x40000);
  f.reg(0x50000, 0x60000);
  EXPECT_EQ(f.os_deregisters(), 1u);
  EXPECT_EQ(f.os_registers(), 3u);
  EXPECT_EQ(f.cache.entries().size(), 2u);
}

TEST(RegistrationCache, VictimIsTheLowestCounterOldestOnTies) {
  Fixture f(4);
  // Planted counters, oldest first: A=2, B=1, C=1, D=3.
  auto a = f.reg(0x10000, 0x11000), b = f.reg(0x20000, 0x21000), c = f.reg(0x30000, 0x31000),
       d = f.reg(0x40000, 0x41000);
  f.reg(0x10000, 0x11000);
  f.reg(0x40000, 0x41000);
  f.reg(0x40000, 0x41000);
  f.reg(0x50000, 0x51000);  // full: evicts B (counter 1, older than C)
  EXPECT_TRUE(f.cache.evicted(b.handle));
  EXPECT_FALSE(f.cache.evicted(a.handle));
  EXPECT_FALSE(f.cache.evicted(c.handle));
  f.reg(0x60000, 0x61000);  // next: C (counter 1)
  EXPECT_TRUE(f.cache.evicted(c.handle));
  EXPECT_FALSE(f.cache.evicted(d.handle));
}

TEST(RegistrationCache, OsRefusalEvictsDeregistersAndRetriesWithoutASizeLimit) {
  os::OsConfig oc;
  oc.memory_bytes = 64 * kPage;
  oc.refuse_below_bytes = 16 * kPage;  // at most 48 pages pinned
  Fixture f(0, false, oc);
  f.reg(0, 20 * kPage);
  f.reg(0x100000, 0x100000 + 20 * kPage);
  auto r = f.reg(0x200000, 0x200000 + 20 * kPage);  // would pin 60: refused, evict, retry
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(f.os.counters().refusals, 1u);
  EXPECT_EQ(f.os_deregisters(), 1u);
  EXPECT_EQ(f.os_registers(), 4u);
  EXPECT_EQ(f.cache.entries().size(), 2u);
  EXPECT_LE(f.os.pinned_bytes(), 48 * kPage);
}

TEST(RegistrationCache, OsRefusalEvictsAndRetriesWithASizeLimit) {
  os::OsConfig oc;
  oc.memory_bytes = 64 * kPage;
  oc.refuse_below_bytes = 16 * kPage;
  Fixture f(8, false, oc);
  f.reg(0, 30 * kPage);
  f.reg(0x200000, 0x200000 + 30 * kPage);
  EXPECT_EQ(f.os.counters().refusals, 1u);
  EXPECT_EQ(f.cache.entries().size(), 1u);
}

TEST(RegistrationCache, RefusalWithNothingEvictableIsAClearError) {
  os::OsConfig oc;
  oc.memory_bytes = 16 * kPage;
  Fixture f(0, true, oc);
  f.reg(0, 10 * kPage);  // in use: safety mode will not evict it
  auto r = f.cache.register_range(f.hal, 0x100000, 0x100000 + 10 * kPage, f.error);
  EXPECT_FALSE(r.has_value());
  EXPECT_NE(f.error.find("refuses to pin"), std::string::npos) << f.error;
}

TEST(RegistrationCache, PartialOverlapIsAMissAndCreatesANewEntry) {
  Fixture f(64);
  f.reg(0x10000, 0x20000);
  auto r = f.reg(0x18000, 0x28000);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(f.cache.entries().size(), 2u);
  EXPECT_EQ(f.os_registers(), 2u);
}

TEST(RegistrationCache, KPairsOnOneBufferCostOneRegistration) {
  Fixture f(64), baseline(0);
  constexpr int kPairs = 1000;
  for (int k = 0; k < kPairs; ++k) {
    f.reg(0x10000, 0x20000);
    f.dereg(0x10000, 0x20000);
  }
  EXPECT_EQ(f.os_registers(), 1u);
  EXPECT_EQ(f.os_deregisters(), 0u);
  // The no-cache baseline: every call is a system call.
  for (int k = 0; k < kPairs; ++k) {
    auto h = baseline.os.register_range(baseline.hal, 0x10000, 0x20000);
    baseline.os.deregister(baseline.hal, *h);
  }
  EXPECT_EQ(baseline.os_registers(), static_cast<uint64_t>(kPairs));
  EXPECT_GT(baseline.hal.spent, 500 * f.hal.spent);
}

TEST(RegistrationCache, ThousandTransfersOverFourBuffersRegisterEachBufferOnce) {
  Fixture f(64);
  for (int t = 0; t < 1000; ++t) {
    const uint64_t base = 0x100000 * static_cast<uint64_t>(1 + t % 4);
    f.reg(base, base + 64 * 1024);
    f.dereg(base, base + 64 * 1024);
  }
  EXPECT_EQ(f.os_registers(), 4u);
  EXPECT_EQ(f.os_deregisters(), 0u);
}

TEST(RegistrationCache, DeregisterMissPassesThroughToTheOs) {
  Fixture f(64);
  auto h = f.os.register_range(f.hal, 0x70000, 0x80000);  // pinned outside the cache
  f.dereg(0x70000, 0x80000);
  EXPECT_FALSE(f.os.live(*h));
  EXPECT_EQ(f.cache.counters().deregister_passthrough, 1u);
}

TEST(RegistrationCache, DeregisterWithoutRegisterIsAnError) {
  Fixture f(64);
  EXPECT_FALSE(f.cache.deregister(f.hal, 0x70000, 0x80000, f.error));
  EXPECT_NE(f.error.find("not registered"), std::string::npos);
  f.reg(0x10000, 0x20000);
  f.dereg(0x10000, 0x20000);
  EXPECT_FALSE(f.cache.deregister(f.hal, 0x10000, 0x20000, f.error));
  EXPECT_NE(f.error.find("without a matching register"), std::string::npos);
}

TEST(RegistrationCache, WithoutSafetyAnInUseEntryCanBeEvictedLeavingAStaleHandle) {
  Fixture f(1);
  auto a = f.reg(0x10000, 0x20000);  // in use: counter 1
  f.reg(0x30000, 0x40000);           // evicts it anyway
  EXPECT_TRUE(f.cache.evicted(a.handle)) << "the checker can see the stale handle";
  EXPECT_FALSE(f.os.live(a.handle));
}

TEST(RegistrationCache, SafetyModeRefusesRatherThanEvictAnInUseEntry) {
  Fixture f(1, true);
  auto a = f.reg(0x10000, 0x20000);
  auto r = f.cache.register_range(f.hal, 0x30000, 0x40000, f.error);
  EXPECT_FALSE(r.has_value());
  EXPECT_NE(f.error.find("all in use"), std::string::npos) << f.error;
  EXPECT_FALSE(f.cache.evicted(a.handle));
  f.dereg(0x10000, 0x20000);
  EXPECT_TRUE(f.cache.register_range(f.hal, 0x30000, 0x40000, f.error).has_value());
}

TEST(RegistrationCache, DeregisterWithItsHandleCountsDownTheEntryItsRegisterCounted) {
  // A small range, then a larger one over it (a miss: a newer entry that also contains the
  // small one), both in use. Each deregister must count down its own entry: by range alone
  // the small one's would count down the newer entry, leaving it at 0 while its DMA runs.
  Fixture f(64);
  const auto small = f.reg(0x10000, 0x11000);
  const auto large = f.reg(0x10000, 0x20000);
  ASSERT_NE(small.handle, large.handle);
  ASSERT_TRUE(f.cache.deregister(f.hal, 0x10000, 0x11000, small.handle, f.error)) << f.error;
  const auto counter = [&](hs::fw::os::Handle h) {
    for (const auto& e : f.cache.entries())
      if (e.handle == h) return e.counter;
    return int64_t{-1};
  };
  EXPECT_EQ(counter(small.handle), 0);
  EXPECT_EQ(counter(large.handle), 1) << "the larger range is still in use";
  ASSERT_TRUE(f.cache.deregister(f.hal, 0x10000, 0x20000, large.handle, f.error)) << f.error;
  EXPECT_EQ(counter(large.handle), 0);
  EXPECT_EQ(f.cache.counters().deregister_hits, 2u);
  EXPECT_EQ(f.os_deregisters(), 0u);
}

TEST(RegistrationCache, DeregisterWithAnEvictedHandleHasNothingLeftToCountDown) {
  Fixture f(1);
  const auto a = f.reg(0x10000, 0x20000);
  const auto b = f.reg(0x10000, 0x30000);  // evicts a while in use (no safety)
  ASSERT_TRUE(f.cache.evicted(a.handle));
  ASSERT_TRUE(f.cache.deregister(f.hal, 0x10000, 0x20000, a.handle, f.error)) << f.error;
  EXPECT_EQ(f.cache.entries().front().handle, b.handle);
  EXPECT_EQ(f.cache.entries().front().counter, 1) << "b's own register is still counted";
  EXPECT_EQ(f.cache.counters().deregister_evicted, 1u);
}

TEST(RegistrationCache, DeregisterWithAnotherRangesHandleIsAnError) {
  Fixture f(64);
  const auto a = f.reg(0x10000, 0x20000);
  EXPECT_FALSE(f.cache.deregister(f.hal, 0x10000, 0x30000, a.handle, f.error));
  EXPECT_NE(f.error.find("with the handle of"), std::string::npos) << f.error;
}

// Random register/deregister streams with more buffers than entries, OS pressure, and the
// invariants checked after every call; in safety mode no handle in use is ever evicted.
class RandomStreams : public ::testing::TestWithParam<bool> {};

TEST_P(RandomStreams, InvariantsHoldAcrossManySeeds) {
  const bool safety = GetParam();
  uint64_t evictions = 0, refusals = 0, retries = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    os::OsConfig oc;
    oc.memory_bytes = 256 * kPage;
    oc.refuse_below_bytes = (rng() % 64) * kPage;
    const size_t max_entries = rng() % 3 == 0 ? 0 : 1 + rng() % 6;
    Fixture f(max_entries, safety, oc);
    struct Held {
      uint64_t lo, hi;
      os::Handle handle;
    };
    std::vector<Held> held;  // ranges registered, not yet deregistered
    for (int step = 0; step < 200; ++step) {
      if (held.empty() || rng() % 3 != 0) {
        const uint64_t buf = rng() % 10;
        const uint64_t lo = buf * 64 * kPage + (rng() % 4) * kPage;
        const uint64_t hi = lo + (1 + rng() % 16) * kPage;
        std::string err;
        if (auto r = f.cache.register_range(f.hal, lo, hi, err))
          held.push_back({lo, hi, r->handle});
      } else {
        const size_t i = rng() % held.size();
        const Held h = held[i];
        held.erase(held.begin() + static_cast<long>(i));
        std::string err;
        // With its handle, a deregister counts down the entry its register counted (or finds
        // it evicted): never an error, whatever newer overlapping entries exist.
        ASSERT_TRUE(f.cache.deregister(f.hal, h.lo, h.hi, h.handle, err))
            << err << ", seed " << seed;
      }
      check_invariants(f, max_entries);
      if (safety) {
        for (const auto& e : f.cache.entries()) ASSERT_FALSE(f.cache.evicted(e.handle));
      }
    }
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "seed " << seed;
      return;
    }
    evictions += f.cache.counters().evictions;
    refusals += f.os.counters().refusals;
    retries += f.cache.counters().os_refusals_retried;
  }
  // The streams must reach the hard paths, or the invariants above prove little.
  EXPECT_GT(evictions, 1000u);
  EXPECT_GT(refusals, 100u);
  EXPECT_GT(retries, 100u);
  RecordProperty("evictions", std::to_string(evictions));
  RecordProperty("refusals", std::to_string(refusals));
}

INSTANTIATE_TEST_SUITE_P(Modes, RandomStreams, ::testing::Values(false, true),
                         [](const auto& i) { return i.param ? "safety" : "no_safety"; });
