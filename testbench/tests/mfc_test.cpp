// The MFC in the assembled node: fences, barriers and the ordering commands in time, the
// tag-status update modes, the SPU's queue stalling when full, DMA lists with
// stall-and-notify, the proxy queue from the PPE, SNDSIG between SPEs, and transfers between
// local stores, each checked for its data. (One kernel per test: each runs one scenario.)
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <vector>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "sw/hal/mfc.h"
#include "sw/hal/spe_mmio.h"
#include "sw/hal/spu.h"
#include "testbench/support/node_fixture.h"
#include "tlm/stats/statistics.h"

using namespace hs;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
using sc_core::sc_time;
namespace amap = hs::hybrid::amap;
namespace spe = hs::cell::spe;
namespace op = hs::cell::spe::op;
namespace mfc = hs::fw::mfc;
namespace spu = hs::fw::spu;
namespace mmio = hs::fw::spe_mmio;

namespace {

// Every command's completion time, in issue order (each is issued at a distinct time).
struct Completions {
  std::map<sc_time, sc_time> done;
  explicit Completions(cell::Mfc& m) {
    m.watch_commands([this](const sc_time& issued, const sc_time& at) { done[issued] = at; });
  }
  std::vector<sc_time> in_issue_order() const {
    std::vector<sc_time> v;
    for (const auto& [i, d] : done) v.push_back(d);
    return v;
  }
};

constexpr uint64_t kDram = amap::kAccDram + 0x100000;
// Host memory across the PCIe link: a command there takes microseconds, one to local memory
// tens of nanoseconds. The MFC hands out the pieces of the oldest command first, so a later
// command overtakes an earlier one only when the earlier one's pieces take longer in flight.
constexpr uint64_t kHost = amap::host_via_pcie(0) + 0x100000;

Json stats(const std::string& group) {
  return StatsRegistry::instance().find(group)->to_json(sc_core::sc_time_stamp());
}

// A GET from host memory and then a 16-byte command `second` to local memory, of the same
// tag (1) or another (2): completion times of both.
std::vector<sc_time> slow_then_fast(uint32_t second, uint32_t second_tag) {
  auto node = make_hybrid_node();
  auto& spe0 = *node->accelerators[0]->spes[0];
  Completions c(spe0.mfc);
  spe0.spu.set_firmware([second, second_tag](fw::Hal& hal) {
    mfc::get(hal, 0, kHost, 128, 1);
    mfc::command(hal, second, 0x10000, kDram + 0x8000, 16, second_tag);
    mfc::wait_tags(hal, 0x6);
  });
  sc_core::sc_start();
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  return c.in_issue_order();
}

}  // namespace

TEST(MfcOrdering, APlainCommandOvertakesASlowerOneOfItsTag) {
  const auto d = slow_then_fast(op::kPut, 1);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_LT(d[1], d[0]);
}

TEST(MfcOrdering, AFencedCommandWaitsForTheEarlierCommandsOfItsTag) {
  const auto d = slow_then_fast(op::kPut | op::kFenceBit, 1);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_GE(d[1], d[0]);
}

TEST(MfcOrdering, AFenceDoesNotHoldACommandOfAnotherTag) {
  const auto d = slow_then_fast(op::kGet | op::kFenceBit, 2);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_LT(d[1], d[0]);
}

TEST(MfcOrdering, ABarrieredCommandHoldsTheLaterCommandsOfItsTagAndNoOthers) {
  auto node = make_hybrid_node();
  auto& spe0 = *node->accelerators[0]->spes[0];
  Completions c(spe0.mfc);
  spe0.spu.set_firmware([](fw::Hal& hal) {
    mfc::get(hal, 0, kHost, 128, 1);                                               // 0
    mfc::command(hal, op::kPut | op::kBarrierBit, 0x8000, kDram + 0x8000, 16, 1);  // 1: waits for 0
    mfc::put(hal, 0x8010, kDram + 0x8010, 16, 1);                                  // 2: waits for 1
    mfc::put(hal, 0x8020, kDram + 0x8020, 16, 2);                                  // 3: another tag
    mfc::wait_tags(hal, 0x6);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  const auto d = c.in_issue_order();
  ASSERT_EQ(d.size(), 4u);
  EXPECT_GE(d[1], d[0]);
  EXPECT_GE(d[2], d[1]);
  EXPECT_LT(d[3], d[0]);
}

TEST(MfcOrdering, BarrierEieioAndSyncOrderEveryTagBeforeAgainstEveryTagAfter) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<std::unique_ptr<Completions>> c;
  const uint32_t kinds[] = {op::kBarrier, op::kEieio, op::kSync};
  for (int s = 0; s < 3; ++s) {
    auto& spe = *acc.spes[static_cast<size_t>(s)];
    c.push_back(std::make_unique<Completions>(spe.mfc));
    const uint32_t kind = kinds[s];
    spe.spu.set_firmware([kind, s](fw::Hal& hal) {
      const uint64_t base = kDram + static_cast<uint64_t>(s) * 0x10000;
      mfc::get(hal, 0, kHost + static_cast<uint64_t>(s) * 128, 128, 1);
      mfc::command(hal, kind, 0, 0, 0, 5);
      mfc::put(hal, 0x8000, base + 0x8000, 16, 2);
      mfc::wait_tags(hal, 0x26);
    });
  }
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  for (int s = 0; s < 3; ++s) {
    const auto d = c[static_cast<size_t>(s)]->in_issue_order();
    ASSERT_EQ(d.size(), 3u);
    EXPECT_GE(d[1], d[0]) << s;
    EXPECT_GE(d[2], d[1]) << s;
  }
  EXPECT_EQ(stats("node0.acc0.spe0.mfc")["ordering_commands"].get<int>(), 1);
}

TEST(MfcTagStatus, ImmediateAnyAndAllAnswerAsTheirModesSay) {
  auto node = make_hybrid_node();
  auto& spe0 = *node->accelerators[0]->spes[0];
  uint32_t immediate = 99, any = 99, all = 99;
  sc_time t_any, t_all;
  spe0.spu.set_firmware([&](fw::Hal& hal) {
    mfc::get(hal, 0, kHost, 128, 1);      // slow
    mfc::get(hal, 0x8000, kDram, 16, 2);  // fast
    immediate = mfc::tag_status(hal, 0x6, spe::kTagUpdateImmediate);
    any = mfc::tag_status(hal, 0x6, spe::kTagUpdateAny);
    t_any = sc_core::sc_time_stamp();
    all = mfc::tag_status(hal, 0x6, spe::kTagUpdateAll);
    t_all = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(immediate, 0u);  // neither done yet
  EXPECT_EQ(any, 0x4u);      // the 16-byte GET first
  EXPECT_EQ(all, 0x6u);
  EXPECT_LT(t_any, t_all);
}

TEST(MfcTagStatus, AnAnyRequestWithAnEmptyMaskIsRefused) {
  auto node = make_hybrid_node();
  node->accelerators[0]->spes[2]->spu.set_firmware(
      [](fw::Hal& hal) { mfc::tag_status(hal, 0, spe::kTagUpdateAny); });
  sc_core::sc_start();
  EXPECT_NE(first_violation().find("spe2: a tag-status update 'any' with an empty tag mask"),
            std::string::npos)
      << first_violation();
}

TEST(MfcQueue, TheSpuStallsOnAFullQueueOfSixteenCommands) {
  auto node = make_hybrid_node();
  auto& spe0 = *node->accelerators[0]->spes[0];
  Completions c(spe0.mfc);
  uint32_t free_before = 0, free_full = 99;
  sc_time seventeenth;  // when its command write returned
  spe0.spu.set_firmware([&](fw::Hal& hal) {
    free_before = spu::count(hal, spu::ch::kMfcCmd);
    // Sixteen go in at once (each takes some 600 ns to move, the issue a few ns).
    for (uint32_t i = 0; i < 16; ++i) mfc::get(hal, i * 16384, kDram, 16384, 0);
    free_full = spu::count(hal, spu::ch::kMfcCmd);
    mfc::get(hal, 0, kDram, 16384, 0);  // waits for a free entry
    seventeenth = sc_core::sc_time_stamp();
    mfc::wait_tags(hal, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  const auto d = c.in_issue_order();
  ASSERT_EQ(d.size(), 17u);
  EXPECT_EQ(free_before, 16u);
  EXPECT_EQ(free_full, 0u);
  EXPECT_GE(seventeenth, d[0]);  // not before the first command completed
  EXPECT_EQ(stats("node0.acc0.spe0.mfc")["queue_depth"]["peak"].get<int>(), 16);
}

namespace {
// Element i of a list: `size` bytes at EA low word `eal`, stall-and-notify if asked.
spe::ListElement element(uint32_t size, uint32_t eal, bool stall = false) {
  return {size | (stall ? 0x8000'0000u : 0u), eal};
}
}  // namespace

TEST(MfcLists, AGetListGathersScatteredBlocksIntoConsecutiveLocalStore) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr int kBlocks = 64;
  constexpr uint32_t kBlock = 256;
  std::vector<uint8_t> src(kBlocks * 4096);
  std::iota(src.begin(), src.end(), 3);
  acc.dram->poke(0x200000, src.data(), src.size());
  // Element i fetches block i from 4 KiB apart in DRAM, plus a 4-byte element at quadword
  // offset 4 and an empty one.
  std::vector<spe::ListElement> list;
  for (int i = 0; i < kBlocks; ++i) list.push_back(element(kBlock, 0x200000 + i * 4096));
  list.push_back(element(4, 0x200000 + 20));
  list.push_back(element(0, 0x200000));
  constexpr uint32_t kList = 0x30000;
  acc.spes[1]->local_store.poke(kList, list.data(), list.size() * sizeof list[0]);
  acc.spes[1]->spu.set_firmware([&](fw::Hal& hal) {
    mfc::list(hal, op::kGet, 0, 0, kList, static_cast<uint32_t>(list.size() * 8), 4);
    mfc::wait_tags(hal, 1u << 4);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  std::vector<uint8_t> got(kBlocks * kBlock + 32);
  acc.spes[1]->local_store.peek(0, got.data(), got.size());
  for (int i = 0; i < kBlocks; ++i) {
    for (uint32_t b = 0; b < kBlock; ++b) {
      ASSERT_EQ(got[i * kBlock + b], src[i * 4096 + b]) << i << " " << b;
    }
  }
  // The 4-byte element lands at the running address's quadword, at its EA's offset (4).
  for (int b = 0; b < 4; ++b) EXPECT_EQ(got[kBlocks * kBlock + 4 + b], src[20 + b]);
  const Json m = stats("node0.acc0.spe1.mfc");
  EXPECT_EQ(m["list_commands"].get<int>(), 1);
  EXPECT_EQ(m["list_elements"].get<int>(), kBlocks + 2);
  EXPECT_EQ(m["bytes_get"].get<int>(), kBlocks * kBlock + 4);
}

TEST(MfcLists, APutListScattersConsecutiveLocalStoreAcrossMemory) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<uint8_t> src(8 * 1024);
  std::iota(src.begin(), src.end(), 9);
  acc.spes[6]->local_store.poke(0x1000, src.data(), src.size());
  std::vector<spe::ListElement> list;
  for (int i = 0; i < 8; ++i) list.push_back(element(1024, 0x300000 + (7 - i) * 0x10000));
  acc.spes[6]->local_store.poke(0x20000, list.data(), list.size() * 8);
  acc.spes[6]->spu.set_firmware([&](fw::Hal& hal) {
    mfc::list(hal, op::kPut, 0x1000, 0, 0x20000, 64, 0);
    mfc::wait_tags(hal, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  for (int i = 0; i < 8; ++i) {
    std::vector<uint8_t> got(1024);
    acc.dram->peek(0x300000 + (7 - i) * 0x10000, got.data(), got.size());
    EXPECT_TRUE(std::equal(got.begin(), got.end(), src.begin() + i * 1024)) << i;
  }
}

TEST(MfcLists, StallAndNotifyStopsTheListUntilTheSpuAcknowledges) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<uint8_t> a(512, 0xAA), b(512, 0xBB);
  acc.dram->poke(0x400000, a.data(), a.size());
  acc.dram->poke(0x500000, b.data(), b.size());
  // Four elements of 128 B; the second stalls. While stalled the SPU points the third at
  // 0x500000 instead, and the MFC must read it only after the acknowledgement.
  std::vector<spe::ListElement> list = {element(128, 0x400000), element(128, 0x400080, true),
                                        element(128, 0x400100), element(128, 0x400180)};
  acc.spes[3]->local_store.poke(0x30000, list.data(), 32);
  uint32_t stalled = 0, events = 0;
  std::vector<uint8_t> at_stall(512);
  acc.spes[3]->spu.set_firmware([&](fw::Hal& hal) {
    spu::write_now(hal, spu::ch::kWrEventMask, spe::event::kListStall);
    mfc::list(hal, op::kGet, 0, 0, 0x30000, 32, 7);
    stalled = mfc::list_stall_status(hal);
    events = spu::read(hal, spu::ch::kRdEventStat);
    spu::write_now(hal, spu::ch::kWrEventAck, events);
    hal.load(amap::kSpeLocalStore, at_stall.data(), at_stall.size());
    hal.store<spe::ListElement>(amap::kSpeLocalStore + 0x30010, element(128, 0x500100));
    EXPECT_EQ(mfc::tag_status(hal, 1u << 7, spe::kTagUpdateImmediate), 0u);  // not complete
    mfc::ack_list_stall(hal, 7);
    mfc::wait_tags(hal, 1u << 7);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(stalled, 1u << 7);
  EXPECT_EQ(events, spe::event::kListStall);
  // At the stall the first two elements had landed and the rest had not.
  EXPECT_EQ(at_stall[0], 0xAA);
  EXPECT_EQ(at_stall[255], 0xAA);
  EXPECT_EQ(at_stall[256], 0x00);
  std::vector<uint8_t> got(512);
  acc.spes[3]->local_store.peek(0, got.data(), got.size());
  EXPECT_EQ(got[256], 0xBB);  // the rewritten element
  EXPECT_EQ(got[384], 0xAA);
  EXPECT_EQ(stats("node0.acc0.spe3.mfc")["list_stalls"].get<int>(), 1);
}

TEST(MfcProxy, ThePpeQueuesGetsAndPutsOfAnSpesLocalStoreAndWaitsForItsTags) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<uint8_t> src(16 * 16384);
  std::iota(src.begin(), src.end(), 1);
  acc.dram->poke(0x600000, src.data(), src.size());
  uint32_t refused = 0, status = 0;
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    const mmio::Spe s{0, 5};
    // Sixteen 16 KiB GETs into SPE5's local store: the eight-entry queue fills, and the PPE
    // sees "queue full" and retries.
    for (uint32_t i = 0; i < 16; ++i) {
      while (mmio::try_proxy_command(hal, s, op::kGet, i * 16384, 0x600000 + i * 16384, 16384,
                                     i % 4) == spe::ps::kCmdQueueFull) {
        ++refused;
      }
    }
    status = mmio::proxy_tag_status(hal, s, 0xF, 2);
    mmio::proxy_command(hal, s, op::kPut | op::kFenceBit, 0, 0x700000, 16384, 9);
    mmio::proxy_tag_status(hal, s, 1u << 9, 2);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_GT(refused, 0u);
  EXPECT_EQ(status, 0xFu);
  std::vector<uint8_t> ls(src.size()), back(16384);
  acc.spes[5]->local_store.peek(0, ls.data(), ls.size());
  EXPECT_EQ(ls, src);
  acc.dram->peek(0x700000, back.data(), back.size());
  EXPECT_TRUE(std::equal(back.begin(), back.end(), src.begin()));
  const Json m = stats("node0.acc0.spe5.mfc");
  EXPECT_EQ(m["proxy_commands"].get<int>(), 17);
  EXPECT_EQ(m["proxy_queue_depth"]["peak"].get<int>(), 8);
  EXPECT_GT(m["proxy_queue_full"].get<int>(), 0);
}

TEST(MfcTransfers, SpesMoveDataBetweenTheirLocalStoresAndSignalEachOther) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<uint8_t> src(4096);
  std::iota(src.begin(), src.end(), 5);
  acc.spes[0]->local_store.poke(0x2000, src.data(), src.size());
  uint32_t signal = 0;
  // SPE0 PUTs 4 KiB into SPE7's local store, then (fenced) a SNDSIG to SPE7's signal 1; SPE7
  // waits for the signal, then GETs the block back from SPE0 into another buffer.
  acc.spes[0]->spu.set_firmware([](fw::Hal& hal) {
    mfc::put(hal, 0x2000, amap::acc_spe(7) + 0x8000, 4096, 3);
    hal.store<uint32_t>(amap::kSpeLocalStore + 0x100C, 0x1234);
    mfc::command(hal, op::kSndsig | op::kFenceBit, 0x100C,
                 amap::acc_spe(7) + amap::kSpeProblemState + spe::ps::kSigNotify1, 4, 3);
    mfc::wait_tags(hal, 1u << 3);
  });
  acc.spes[7]->spu.set_firmware([&](fw::Hal& hal) {
    signal = spu::read(hal, spu::ch::kRdSigNotify1);
    mfc::get(hal, 0x10000, amap::acc_spe(0) + 0x2000, 4096, 0);
    mfc::wait_tags(hal, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(signal, 0x1234u);
  std::vector<uint8_t> a(4096), b(4096);
  acc.spes[7]->local_store.peek(0x8000, a.data(), a.size());
  acc.spes[7]->local_store.peek(0x10000, b.data(), b.size());
  EXPECT_EQ(a, src);
  EXPECT_EQ(b, src);
  EXPECT_EQ(stats("node0.acc0.spe0.mfc")["sndsigs"].get<int>(), 1);
}
