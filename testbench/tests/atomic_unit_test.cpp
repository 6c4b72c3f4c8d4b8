// The atomic unit: lock-line reservations won and lost, an atomic counter incremented by
// eight SPEs (and the PPE) under contention with the right total, and its rules.
#include <gtest/gtest.h>

#include <vector>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "sw/hal/mfc.h"
#include "sw/hal/spu.h"
#include "testbench/support/node_fixture.h"
#include "tlm/stats/statistics.h"

using namespace hs;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
namespace amap = hs::hybrid::amap;
namespace spe = hs::cell::spe;
namespace ch = hs::cell::spe::ch;
namespace mfc = hs::fw::mfc;
namespace spu = hs::fw::spu;

namespace {

constexpr uint64_t kCounter = amap::kAccDram + 0x80000;  // one 128-byte line
constexpr uint32_t kLine = 0x3FF00;                      // the SPU's copy of it

// Adds one to the counter's first word with GETLLAR / PUTLLC, retrying until it stores;
// returns the retries.
int increment(fw::Hal& hal) {
  for (int retries = 0;; ++retries) {
    mfc::getllar(hal, kLine, kCounter);
    const auto v = hal.load<uint32_t>(amap::kSpeLocalStore + kLine);
    hal.store<uint32_t>(amap::kSpeLocalStore + kLine, v + 1);
    if (mfc::putllc(hal, kLine, kCounter)) return retries;
  }
}

Json stats(const std::string& group) {
  return StatsRegistry::instance().find(group)->to_json(sc_core::sc_time_stamp());
}

}  // namespace

TEST(AtomicUnit, EightSpesAndThePpeIncrementOneCounterAndNoIncrementIsLost) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr int kEach = 50;
  int retries = 0;
  for (auto& s : acc.spes) {
    s->spu.set_firmware([&](fw::Hal& hal) {
      for (int i = 0; i < kEach; ++i) retries += increment(hal);
    });
  }
  // The PPE adds with compare-and-swap on the same word: its stores lose the SPEs'
  // reservations like any other element's.
  acc.ppe->set_firmware([](fw::Hal& hal) {
    for (int i = 0; i < kEach; ++i) {
      for (;;) {
        const auto v = hal.load<uint32_t>(kCounter);
        if (hal.compare_and_swap(kCounter, v, v + 1) == v) break;
      }
    }
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  uint32_t total = 0;
  acc.dram->peek(0x80000, &total, 4);
  EXPECT_EQ(total, 9u * kEach);
  EXPECT_GT(retries, 0);  // they contended
  uint64_t failed = 0, lost = 0, stored = 0;
  for (int s = 0; s < 8; ++s) {
    const Json a = stats("node0.acc0.spe" + std::to_string(s) + ".mfc.atomic");
    failed += a["putllc_failed"].get<uint64_t>();
    lost += a["reservations_lost"].get<uint64_t>();
    stored += a["putllc"].get<uint64_t>();
  }
  EXPECT_EQ(stored, 8u * kEach);
  EXPECT_EQ(failed, static_cast<uint64_t>(retries));
  EXPECT_GE(lost, failed);  // a failed PUTLLC had lost its reservation
}

TEST(AtomicUnit, AWriteByAnotherElementToTheLineLosesTheReservation) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  bool first = true, after_own = false, after_other_line = false, after_ppe = true;
  uint32_t events = 0;
  acc.spes[2]->spu.set_firmware([&](fw::Hal& hal) {
    spu::write_now(hal, ch::kWrEventMask, spe::event::kReservationLost);
    mfc::getllar(hal, kLine, kCounter);
    first = mfc::putllc(hal, kLine, kCounter);  // nobody wrote: stores
    // Its own PUT to the line does not lose its reservation; a write next to the line does not.
    mfc::getllar(hal, kLine, kCounter);
    mfc::put(hal, 0x1000, kCounter + 64, 16, 0);
    mfc::wait_tags(hal, 1);
    hal.compute(3200);  // meanwhile the PPE writes the next line
    after_own = mfc::putllc(hal, kLine, kCounter);
    mfc::getllar(hal, kLine, kCounter);
    after_other_line = mfc::putllc(hal, kLine, kCounter);
    // The PPE stores into the line while this SPE holds it.
    mfc::getllar(hal, kLine, kCounter);
    hal.compute(6400);
    after_ppe = mfc::putllc(hal, kLine, kCounter);
    events = spu::read(hal, ch::kRdEventStat);
  });
  acc.ppe->set_firmware([](fw::Hal& hal) {
    hal.compute(1600);
    hal.store<uint32_t>(kCounter + 128, 5);  // the next line
    hal.compute(6400);
    hal.store<uint32_t>(kCounter + 96, 7);  // this line
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_TRUE(first);
  EXPECT_TRUE(after_own);
  EXPECT_TRUE(after_other_line);
  EXPECT_FALSE(after_ppe);
  EXPECT_EQ(events, spe::event::kReservationLost);
}

TEST(AtomicUnit, OneSpeAloneKeepsTheLineInItsCacheAndTouchesNoBus) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  int retries = -1;
  acc.spes[4]->spu.set_firmware([&](fw::Hal& hal) {
    retries = 0;
    for (int i = 0; i < 20; ++i) retries += increment(hal);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  uint32_t total = 0;
  acc.dram->peek(0x80000, &total, 4);  // memory is current, though the line stayed cached
  EXPECT_EQ(total, 20u);
  EXPECT_EQ(retries, 0);
  const Json a = stats("node0.acc0.spe4.mfc.atomic");
  // The first GETLLAR loads the line and the first PUTLLC claims it; all else hits.
  EXPECT_EQ(a["cache_misses"].get<int>(), 2);
  EXPECT_EQ(a["cache_hits"].get<int>(), 38);
  EXPECT_EQ(stats("node0.acc0.eib")["spe4_on_ramp_bytes"].get<int>(), 128);
}

TEST(AtomicUnit, PutllucStoresUnconditionally) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  acc.spes[0]->spu.set_firmware([](fw::Hal& hal) {
    hal.store<uint32_t>(amap::kSpeLocalStore + kLine, 77);
    mfc::putlluc(hal, kLine, kCounter);
    hal.store<uint32_t>(amap::kSpeLocalStore + kLine + 128, 88);
    mfc::command(hal, spe::op::kPutqlluc, kLine + 128, kCounter + 128, 128, 4);
    mfc::wait_tags(hal, 1u << 4);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  uint32_t v[2] = {};
  acc.dram->peek(0x80000, &v[0], 4);
  acc.dram->peek(0x80080, &v[1], 4);
  EXPECT_EQ(v[0], 77u);
  EXPECT_EQ(v[1], 88u);
  EXPECT_EQ(stats("node0.acc0.spe0.mfc.atomic")["putlluc"].get<int>(), 1);
}
