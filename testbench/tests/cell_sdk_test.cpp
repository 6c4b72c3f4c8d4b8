// The Cell SDK's calls on the model (sw/cell/spu_sdk.h, sw/cell/ppe_sdk.h), through the
// examples every Cell programmer writes first, each checked for its data and for its timing
// against the model's own figures (docs/cell-programs.md): a double-buffered stream, a DMA-list
// gather and scatter, a mailbox ping-pong between the PPE and each SPE, a signal-notification
// barrier across eight SPEs, an atomic counter under lock-line reservations, and an SPE
// program run by spe_context_run that moves data from its local store into another's.
#include <gtest/gtest.h>

#include <cerrno>
#include <iostream>
#include <numeric>
#include <vector>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "sw/cell/ppe_sdk.h"
#include "sw/cell/spu_sdk.h"
#include "testbench/support/node_fixture.h"

using namespace hs;
using hs::fw::cell_sdk::Ppe;
using hs::fw::cell_sdk::SpeContext;
using hs::fw::cell_sdk::Spu;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
using sc_core::sc_time;
namespace amap = hs::hybrid::amap;
namespace sdk = hs::fw::cell_sdk;

namespace {

volatile void* ls(uint32_t lsa) {
  return reinterpret_cast<volatile void*>(static_cast<uintptr_t>(lsa));
}
double ns(sc_time t) {
  return t.to_seconds() * 1e9;
}
uint32_t word(uint64_t i) {
  return static_cast<uint32_t>(i * 2654435761u + 17);
}
// `words` words of the pattern from index `first`, into DRAM at `at`.
void fill_dram(cell::CellAccelerator& acc, uint64_t at, uint64_t first, uint64_t words) {
  std::vector<uint32_t> v(words);
  for (uint64_t i = 0; i < words; ++i) v[i] = word(first + i);
  acc.dram->poke(at, v.data(), v.size() * 4);
}

}  // namespace

// GET chunk n+1 into one buffer while computing on chunk n in the other; before it, the same
// stream with one buffer (GET, wait, compute), timed in the same run.
TEST(CellSdkExamples, ADoubleBufferedStreamHidesItsComputeBehindItsTransfers) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr uint32_t kChunk = 4096, kChunks = 64;
  constexpr uint64_t kSrc = 0x100000;
  fill_dram(acc, kSrc, 0, kChunk / 4 * kChunks);
  uint64_t expect = 0;
  for (uint64_t i = 0; i < kChunk / 4 * kChunks; ++i) expect += word(i);
  sc_time single, dbl;
  uint64_t sums[2] = {0, 0};
  acc.spes[0]->spu.set_firmware([&](fw::Hal& hal) {
    Spu spu(hal);
    const uint32_t buf[2] = {0x10000, 0x20000};
    auto consume = [&](uint32_t b, uint64_t& sum) {
      std::vector<uint32_t> v(kChunk / 4);
      hal.load(amap::kSpeLocalStore + b, v.data(), kChunk);
      sum = std::accumulate(v.begin(), v.end(), sum);
      hal.compute(kChunk);  // a cycle per byte
    };
    sc_time t0 = now();
    for (uint32_t n = 0; n < kChunks; ++n) {
      spu.mfc_get(ls(buf[0]), amap::kAccDram + kSrc + n * kChunk, kChunk, 0, 0, 0);
      spu.mfc_write_tag_mask(1);
      spu.mfc_read_tag_status_all();
      consume(buf[0], sums[0]);
    }
    single = now() - t0;
    t0 = now();
    spu.mfc_get(ls(buf[0]), amap::kAccDram + kSrc, kChunk, 0, 0, 0);
    for (uint32_t n = 0; n < kChunks; ++n) {
      const uint32_t cur = n % 2;
      if (n + 1 < kChunks) {
        spu.mfc_get(ls(buf[1 - cur]), amap::kAccDram + kSrc + (n + 1) * kChunk, kChunk, 1 - cur, 0,
                    0);
      }
      spu.mfc_write_tag_mask(1u << cur);
      spu.mfc_read_tag_status_all();
      consume(buf[cur], sums[1]);
    }
    dbl = now() - t0;
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(sums[0], expect);
  EXPECT_EQ(sums[1], expect);
  // Compute: 4096 cycles of the 3.2 GHz SPU a chunk (1.28 us). A 4 KiB GET at the single-SPE
  // limit of 9.3 GB/s takes 0.44 us and more. One buffer pays both in turn; two overlap them,
  // so the stream takes the compute, the SPU's own work a chunk (its channel accesses and the
  // local-store reads) and one chunk's transfer.
  const double compute_ns = kChunks * kChunk / 3.2;
  const double transfer_ns = kChunk / 9.3;
  std::cout << "single " << ns(single) << " ns, double " << ns(dbl) << " ns\n";
  EXPECT_GT(ns(single) - ns(dbl), (kChunks - 1) * transfer_ns);
  EXPECT_GT(ns(dbl), compute_ns);
  EXPECT_LT(ns(dbl), compute_ns * 1.1);
}

// Sixteen 512-byte blocks, 4 KiB apart in memory, gathered into the local store by one list
// GET, and scattered back in reverse order by one list PUT.
TEST(CellSdkExamples, ADmaListGathersAndScattersInOneCommandEach) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr uint32_t kBlocks = 16, kBlock = 512, kStride = 4096;
  constexpr uint64_t kSrc = 0x200000, kDst = 0x300000;
  for (uint32_t b = 0; b < kBlocks; ++b) fill_dram(acc, kSrc + b * kStride, b * 1000, kBlock / 4);
  constexpr uint32_t kData = 0x8000, kList = 0x100;
  sc_time gather, one_by_one;
  acc.spes[0]->spu.set_firmware([&](fw::Hal& hal) {
    Spu spu(hal);
    // The same blocks one GET at a time, each waited for: what the list saves.
    sc_time t0 = now();
    for (uint32_t b = 0; b < kBlocks; ++b) {
      spu.mfc_get(ls(0x20000 + b * kBlock), amap::kAccDram + kSrc + b * kStride, kBlock, 2, 0, 0);
      spu.mfc_write_tag_mask(1u << 2);
      spu.mfc_read_tag_status_all();
    }
    one_by_one = now() - t0;
    std::vector<cell::spe::ListElement> list(kBlocks);
    for (uint32_t b = 0; b < kBlocks; ++b) {
      list[b] = {kBlock, static_cast<uint32_t>(amap::kAccDram + kSrc + b * kStride)};
    }
    hal.store(amap::kSpeLocalStore + kList, list.data(), list.size() * 8);
    t0 = now();
    spu.mfc_getl(ls(kData), amap::kAccDram, ls(kList), kBlocks * 8, 3, 0, 0);
    spu.mfc_write_tag_mask(1u << 3);
    spu.mfc_read_tag_status_all();
    gather = now() - t0;
    for (uint32_t b = 0; b < kBlocks; ++b) {
      list[b].eal = static_cast<uint32_t>(amap::kAccDram + kDst + (kBlocks - 1 - b) * kStride);
    }
    hal.store(amap::kSpeLocalStore + kList + 0x100, list.data(), list.size() * 8);
    spu.mfc_putl(ls(kData), amap::kAccDram, ls(kList + 0x100), kBlocks * 8, 4, 0, 0);
    spu.mfc_write_tag_mask(1u << 4);
    spu.mfc_read_tag_status_all();
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  std::vector<uint32_t> got(kBlocks * kBlock / 4);
  acc.spes[0]->local_store.peek(kData, got.data(), got.size() * 4);
  for (uint32_t b = 0; b < kBlocks; ++b) {
    for (uint32_t i = 0; i < kBlock / 4; ++i) {
      ASSERT_EQ(got[b * kBlock / 4 + i], word(b * 1000 + i)) << "block " << b << " word " << i;
    }
  }
  std::vector<uint32_t> back(kBlock / 4);
  for (uint32_t b = 0; b < kBlocks; ++b) {
    acc.dram->peek(kDst + (kBlocks - 1 - b) * kStride, back.data(), kBlock);
    for (uint32_t i = 0; i < kBlock / 4; ++i) ASSERT_EQ(back[i], word(b * 1000 + i)) << b;
  }
  // One 512-byte GET waited for costs about 144 ns (docs/cell-programs.md); the list keeps
  // the MFC's 8 pieces in flight, so 8 KiB arrive at up to 9.3 GB/s.
  std::cout << "list gather " << ns(gather) << " ns, one GET at a time " << ns(one_by_one)
            << " ns\n";
  EXPECT_GT(ns(one_by_one), kBlocks * 130.0);
  EXPECT_LT(ns(gather), ns(one_by_one) / 2) << ns(gather) << " vs " << ns(one_by_one);
  EXPECT_GT(ns(gather), kBlocks * kBlock / 9.3);
}

// The PPE writes each SPE's inbound mailbox and reads the answer from its outbound one.
TEST(CellSdkExamples, ThePpePingPongsWithEverySpeThroughTheMailboxCalls) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr int kRounds = 20;
  for (int s = 0; s < 8; ++s) {
    acc.spes[static_cast<size_t>(s)]->spu.set_firmware([](fw::Hal& hal) {
      Spu spu(hal);
      for (int i = 0; i < kRounds; ++i) spu.spu_write_out_mbox(spu.spu_read_in_mbox() + 1);
    });
  }
  std::vector<unsigned> last(8);
  double total_ns = 0;
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    Ppe ppe(hal, 8);
    for (int s = 0; s < 8; ++s) {
      SpeContext* ctx = ppe.spe_context_create(0, nullptr);
      ASSERT_NE(ctx, nullptr);
      unsigned v = static_cast<unsigned>(s) * 1000;
      for (int i = 0; i < kRounds; ++i) {
        const sc_time t0 = now();
        ASSERT_EQ(ppe.spe_in_mbox_write(ctx, &v, 1, sdk::spe::kMboxAllBlocking), 1);
        while (ppe.spe_out_mbox_status(ctx) == 0) {
        }
        ASSERT_EQ(ppe.spe_out_mbox_read(ctx, &v, 1), 1);
        total_ns += ns(now() - t0);
      }
      last[static_cast<size_t>(s)] = v;
    }
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  for (int s = 0; s < 8; ++s) EXPECT_EQ(last[static_cast<size_t>(s)], s * 1000u + kRounds);
  // cell_mailbox measures 31.3 ns on average over the eight SPEs with one status poll and one
  // read; the libspe2 calls read the status once more each (spe_in_mbox_write for room,
  // spe_out_mbox_read for an entry), two more loads across the EIB of some 10 ns each.
  const double mean = total_ns / (8 * kRounds);
  std::cout << "mean round trip " << mean << " ns\n";
  EXPECT_GT(mean, 31.3 + 2 * 8.0);
  EXPECT_LT(mean, 31.3 + 2 * 13.0);
}

// Eight SPEs meet at a barrier three times: each sends SPE0 its bit with SNDSIG into signal
// register 1 (OR mode, set by the PPE's context flags); SPE0 waits for all seven, then
// releases each with a SNDSIG of its own.
TEST(CellSdkExamples, ASignalNotificationBarrierHoldsEightSpesUntilTheLastArrives) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr int kRounds = 3;
  constexpr uint32_t kSignalWord = 0x2000C;  // the SNDSIG source: the register's quadword offset
  const uint64_t sig1 = amap::kSpeProblemState + cell::spe::ps::kSigNotify1;
  sc_time arrive[kRounds][8], leave[kRounds][8];
  for (int s = 0; s < 8; ++s) {
    acc.spes[static_cast<size_t>(s)]->spu.set_firmware([&, s](fw::Hal& hal) {
      Spu spu(hal);
      spu.spu_read_in_mbox();  // the PPE's go, once the OR modes are set
      for (int r = 0; r < kRounds; ++r) {
        hal.compute(static_cast<uint64_t>(1000 * ((s * 3 + r * 5) % 8)));  // uneven work
        arrive[r][s] = now();
        if (s == 0) {
          uint32_t seen = 0;
          while (seen != 0xFE) seen |= spu.spu_read_signal1();
          hal.store<uint32_t>(amap::kSpeLocalStore + kSignalWord, 1);
          for (int o = 1; o < 8; ++o)
            spu.mfc_sndsig(ls(kSignalWord), amap::acc_spe(o) + sig1, 5, 0, 0);
          spu.mfc_write_tag_mask(1u << 5);
          spu.mfc_read_tag_status_all();
        } else {
          hal.store<uint32_t>(amap::kSpeLocalStore + kSignalWord, 1u << s);
          spu.mfc_sndsig(ls(kSignalWord), amap::acc_spe(0) + sig1, 5, 0, 0);
          spu.spu_read_signal1();  // SPE0's release
        }
        leave[r][s] = now();
      }
    });
  }
  acc.ppe->set_firmware([](fw::Hal& hal) {
    Ppe ppe(hal, 8);
    std::vector<SpeContext*> ctx;
    for (int s = 0; s < 8; ++s)
      ctx.push_back(ppe.spe_context_create(sdk::spe::kCfgSignotify1Or, nullptr));
    unsigned go = 1;
    for (SpeContext* c : ctx) ppe.spe_in_mbox_write(c, &go, 1, sdk::spe::kMboxAllBlocking);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  for (int r = 0; r < kRounds; ++r) {
    sc_time last_arrival = sc_core::SC_ZERO_TIME, first_leave = sc_time(1, sc_core::SC_SEC),
            last_leave = sc_core::SC_ZERO_TIME;
    for (int s = 0; s < 8; ++s) {
      last_arrival = std::max(last_arrival, arrive[r][s]);
      first_leave = std::min(first_leave, leave[r][s]);
      last_leave = std::max(last_leave, leave[r][s]);
    }
    EXPECT_GT(first_leave, last_arrival) << "round " << r;
    std::cout << "round " << r << ": last arrival to last release " << ns(last_leave - last_arrival)
              << " ns\n";
    // Two SNDSIGs across the EIB (an SPE to SPE0, SPE0 to the last of seven), each about a
    // 16-byte local-store PUT (31 ns), the seven releases pipelined in SPE0's queue.
    EXPECT_LT(ns(last_leave - last_arrival), 300.0) << "round " << r;
    EXPECT_GT(ns(last_leave - last_arrival), 40.0) << "round " << r;
  }
}

// Eight SPEs add one to a counter 100 times each with GETLLAR, PUTLLC and the atomic status.
TEST(CellSdkExamples, EightSpesIncrementOneCounterUnderLockLineReservations) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr int kEach = 100;
  constexpr uint64_t kCounter = amap::kAccDram + 0x80000;
  constexpr uint32_t kLine = 0x3F000;
  sc_time end;
  for (auto& spe : acc.spes) {
    spe->spu.set_firmware([&](fw::Hal& hal) {
      Spu spu(hal);
      for (int i = 0; i < kEach; ++i) {
        do {
          spu.mfc_getllar(ls(kLine), kCounter, 0, 0);
          spu.mfc_read_atomic_status();
          const auto v = hal.load<uint32_t>(amap::kSpeLocalStore + kLine);
          hal.store<uint32_t>(amap::kSpeLocalStore + kLine, v + 1);
          spu.mfc_putllc(ls(kLine), kCounter, 0, 0);
        } while (spu.mfc_read_atomic_status() & cell::spe::kAtomicPutllcFailed);
      }
      end = std::max(end, now());
    });
  }
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  uint32_t counter = 0;
  acc.dram->peek(kCounter - amap::kAccDram, &counter, 4);
  EXPECT_EQ(counter, 8u * kEach);
  // cell_atomic: 156.5 ns per increment with eight SPEs contending.
  const double per = ns(end) / (8 * kEach);
  std::cout << per << " ns per increment\n";
  EXPECT_GT(per, 120.0);
  EXPECT_LT(per, 200.0);
}

// The PPE runs a context with spe_context_run: the SPU program's argp is the effective address
// of SPE1's local store, into which it PUTs 16 KiB of its own, and its exit code comes back.
TEST(CellSdkExamples, ARunContextPutsItsLocalStoreIntoAnotherSpesAndExits) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr uint32_t kBytes = 16384, kFrom = 0x4000, kTo = 0x8000;
  std::vector<uint32_t> data(kBytes / 4);
  for (uint32_t i = 0; i < data.size(); ++i) data[i] = word(i + 77);
  acc.spes[0]->local_store.poke(kFrom, data.data(), kBytes);
  sc_time put;
  uint64_t seen_speid = 99;
  acc.spes[0]->spu.set_firmware([&](fw::Hal& hal) {
    sdk::run_spu_main(
        hal,
        [&](fw::Hal& h, uint64_t speid, uint64_t argp, uint64_t) {
          Spu spu(h);
          seen_speid = speid;
          const sc_time t0 = now();
          spu.mfc_put(ls(kFrom), argp + kTo, kBytes, 9, 0, 0);
          spu.mfc_write_tag_mask(1u << 9);
          spu.mfc_read_tag_status_all();
          put = now() - t0;
          return 7;
        },
        1);
  });
  int rc = -5;
  sdk::StopInfo stop;
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    Ppe ppe(hal, 8);
    SpeContext* me = ppe.spe_context_create(0, nullptr);
    SpeContext* other = ppe.spe_context_create(0, nullptr);
    ASSERT_EQ(me->spe, 0);
    ASSERT_EQ(other->spe, 1);
    sdk::StopInfo read;
    errno = 0;
    EXPECT_EQ(ppe.spe_stop_info_read(me, &read), -1);  // no run has stopped yet
    EXPECT_EQ(errno, EINVAL);
    unsigned entry = sdk::spe::kDefaultEntry;
    rc = ppe.spe_context_run(me, &entry, 0, ppe.spe_ls_area_get(other), nullptr, &stop);
    EXPECT_EQ(ppe.spe_stop_info_read(me, &read), 0);
    EXPECT_EQ(read.stop_reason, sdk::spe::kExit);
    EXPECT_EQ(read.exit_code, 7);
    ppe.spe_context_destroy(me);
    ppe.spe_context_destroy(other);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(stop.stop_reason, sdk::spe::kExit);
  EXPECT_EQ(stop.exit_code, 7);
  EXPECT_EQ(seen_speid, 0u);
  std::vector<uint32_t> got(kBytes / 4);
  acc.spes[1]->local_store.peek(kTo, got.data(), kBytes);
  EXPECT_EQ(got, data);
  std::cout << "16 KiB PUT into SPE1's local store: " << ns(put) << " ns\n";
  // cell_latency: a 16 KiB PUT into another SPE's local store takes 674.4 ns.
  EXPECT_GT(ns(put), 600.0);
  EXPECT_LT(ns(put), 750.0);
}

// What libspe2 refuses, with its errno; the tag-group manager's bookkeeping.
TEST(CellSdkCalls, ContextsMailboxesAndSignalsRefuseBadArgumentsWithErrno) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    Ppe ppe(hal, 8);
    std::vector<SpeContext*> ctx;
    for (int s = 0; s < 8; ++s) ctx.push_back(ppe.spe_context_create(0, nullptr));
    EXPECT_EQ(ppe.spe_cpu_info_get(sdk::spe::kCountUsableSpes, -1), 0);
    errno = 0;
    EXPECT_EQ(ppe.spe_context_create(0, nullptr), nullptr);
    EXPECT_EQ(errno, ENOMEM);
    unsigned v = 1;
    errno = 0;
    EXPECT_EQ(ppe.spe_in_mbox_write(ctx[0], &v, 1, 7), -1);
    EXPECT_EQ(errno, EINVAL);
    errno = 0;
    EXPECT_EQ(ppe.spe_signal_write(ctx[0], 3, 1), -1);
    EXPECT_EQ(errno, EINVAL);
    // Four entries fit the inbound mailbox; a non-blocking write of six writes four.
    unsigned six[6] = {1, 2, 3, 4, 5, 6};
    EXPECT_EQ(ppe.spe_in_mbox_status(ctx[1]), 4);
    EXPECT_EQ(ppe.spe_in_mbox_write(ctx[1], six, 6, sdk::spe::kMboxAnyNonblocking), 4);
    EXPECT_EQ(ppe.spe_in_mbox_status(ctx[1]), 0);
    EXPECT_EQ(ppe.spe_out_mbox_read(ctx[1], &v, 1), 0);  // nothing waiting: 0, no stall
    ppe.spe_context_destroy(ctx[2]);
    errno = 0;
    EXPECT_EQ(ppe.spe_out_mbox_status(ctx[2]), -1);
    EXPECT_EQ(errno, ESRCH);
    EXPECT_EQ(ppe.spe_cpu_info_get(sdk::spe::kCountPhysicalSpes, -1), 8);
    EXPECT_EQ(ppe.spe_cpu_info_get(sdk::spe::kCountUsableSpes, -1), 1);
    EXPECT_EQ(ppe.spe_context_create(0, nullptr), ctx[2]);  // the freed SPE again
    EXPECT_EQ(ppe.spe_ls_size_get(ctx[0]), 256 * 1024);
  });
  acc.spes[0]->spu.set_firmware([](fw::Hal& hal) {
    Spu spu(hal);
    EXPECT_EQ(spu.mfc_tag_reserve(), 0u);
    EXPECT_EQ(spu.mfc_multi_tag_reserve(4), 1u);
    EXPECT_EQ(spu.mfc_tag_reserve(), 5u);
    EXPECT_EQ(spu.mfc_multi_tag_release(1, 4), sdk::kTagValid);
    EXPECT_EQ(spu.mfc_tag_release(1), sdk::kTagInvalid);  // released already
    EXPECT_EQ(spu.mfc_multi_tag_reserve(3), 1u);          // the freed block again
    EXPECT_EQ(spu.mfc_multi_tag_reserve(32), sdk::kTagInvalid);
    EXPECT_EQ(spu.mfc_stat_cmd_queue(), 16u);
    EXPECT_EQ(spu.spu_stat_in_mbox(), 0u);
    EXPECT_EQ(spu.spu_stat_out_mbox(), 1u);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
}
