// An SPE's channels against the PPE's MMIO: mailboxes (the SPU stalls, the PPE never does,
// a full inbound mailbox loses its newest entry), signal notification in both modes, the
// decrementer and its event, event status/mask/acknowledge, and run control.
#include <gtest/gtest.h>

#include <vector>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "sw/hal/irq_wait.h"
#include "sw/hal/mfc.h"
#include "sw/hal/spe_mmio.h"
#include "sw/hal/spu.h"
#include "testbench/support/node_fixture.h"
#include "tlm/stats/statistics.h"

using namespace hs;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
using hs::testing::set_param;
using sc_core::sc_time;
namespace amap = hs::hybrid::amap;
namespace spe = hs::cell::spe;
namespace ch = hs::cell::spe::ch;
namespace ev = hs::cell::spe::event;
namespace mfc = hs::fw::mfc;
namespace spu = hs::fw::spu;
namespace mmio = hs::fw::spe_mmio;

TEST(SpeMailboxes, ThePpeAndEverySpePingPongThroughTheirMailboxes) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr int kRounds = 10;
  std::vector<uint32_t> last(8);
  for (int s = 0; s < 8; ++s) {
    acc.spes[static_cast<size_t>(s)]->spu.set_firmware([](fw::Hal& hal) {
      for (int i = 0; i < kRounds; ++i)
        spu::write(hal, ch::kWrOutMbox, spu::read(hal, ch::kRdInMbox) + 1);
    });
  }
  sc_time round_trip;
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    for (int s = 0; s < 8; ++s) {
      const mmio::Spe e{0, s};
      uint32_t v = static_cast<uint32_t>(s) * 1000;
      for (int i = 0; i < kRounds; ++i) {
        const sc_time t0 = sc_core::sc_time_stamp();
        mmio::write_in_mbox(hal, e, v);
        v = mmio::wait_out_mbox(hal, e);
        if (s == 0 && i == kRounds - 1) round_trip = sc_core::sc_time_stamp() - t0;
      }
      last[static_cast<size_t>(s)] = v;
    }
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  for (int s = 0; s < 8; ++s) EXPECT_EQ(last[static_cast<size_t>(s)], s * 1000u + kRounds) << s;
  // The PPE's write and reads cross the EIB; the SPU's channel accesses cost a few ns each.
  EXPECT_GT(round_trip, sc_time(20, sc_core::SC_NS));
  EXPECT_LT(round_trip, sc_time(500, sc_core::SC_NS));
}

TEST(SpeMailboxes, TheInboundMailboxHoldsFourAndAFifthWriteOverwritesTheNewest) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<uint32_t> got;
  uint32_t free_after_four = 99;
  acc.spes[2]->spu.set_firmware([&](fw::Hal& hal) {
    spu::read(hal, ch::kRdSigNotify1);  // the PPE's go, after its five writes
    while (spu::count(hal, ch::kRdInMbox) > 0) got.push_back(spu::read_now(hal, ch::kRdInMbox));
  });
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    const mmio::Spe e{0, 2};
    for (uint32_t v = 1; v <= 4; ++v) mmio::write_in_mbox(hal, e, v);
    free_after_four = mmio::in_mbox_free(mmio::mbox_stat(hal, e));
    mmio::write_in_mbox(hal, e, 5);  // never stalls: replaces 4
    mmio::write_signal(hal, e, 1, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(free_after_four, 0u);
  EXPECT_EQ(got, (std::vector<uint32_t>{1, 2, 3, 5}));
  const Json c =
      StatsRegistry::instance().find("node0.acc0.spe2.channels")->to_json(sc_core::sc_time_stamp());
  EXPECT_EQ(c["in_mbox_overwrites"].get<int>(), 1);
}

TEST(SpeMailboxes, TheSpuStallsOnAFullOutboundMailboxAndThePpeReadsStatusWithoutStalling) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  sc_time second_written, ppe_read;
  uint32_t empty_read = 99, first = 0, second = 0;
  acc.spes[4]->spu.set_firmware([&](fw::Hal& hal) {
    spu::write(hal, ch::kWrOutMbox, 11);
    spu::write(hal, ch::kWrOutMbox, 22);  // stalls until the PPE took 11
    second_written = sc_core::sc_time_stamp();
  });
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    const mmio::Spe e{0, 4};
    hal.compute(3200);  // 1 us: the SPU has written 11 and stalls on 22
    first = mmio::wait_out_mbox(hal, e);
    ppe_read = sc_core::sc_time_stamp();
    second = mmio::wait_out_mbox(hal, e);
    empty_read = mmio::read_out_mbox(hal, e);  // empty: the last value again, no stall
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(first, 11u);
  EXPECT_EQ(second, 22u);
  EXPECT_EQ(empty_read, 22u);
  EXPECT_GT(second_written, sc_time(1, sc_core::SC_US));
  EXPECT_LE(second_written, ppe_read);
}

TEST(SpeMailboxes, TheOutboundInterruptMailboxInterruptsThePpe) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  uint32_t got = 0;
  uint64_t irqs = 0;
  acc.spes[6]->spu.set_firmware([](fw::Hal& hal) {
    hal.compute(1000);
    spu::write(hal, ch::kWrOutIntrMbox, 0xBEEF);
  });
  acc.ppe->set_firmware([&](fw::Hal& hal) { got = mmio::wait_out_intr_mbox(hal, {0, 6}); });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(got, 0xBEEFu);
  irqs = StatsRegistry::instance()
             .find("node0.acc0.ppe")
             ->to_json(sc_core::sc_time_stamp())["interrupts"]
             .get<uint64_t>();
  EXPECT_GE(irqs, 1u);
}

namespace {
// SPE1 waits for signal `reg` and returns it after the PPE wrote `a` then `b`.
uint32_t signal_after_two_writes(int reg, bool or_mode, uint32_t a, uint32_t b) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  uint32_t got = 0;
  acc.spes[1]->spu.set_firmware([&got, reg](fw::Hal& hal) {
    hal.compute(3200);  // both writes are in before the read
    got = spu::read(hal, reg == 1 ? ch::kRdSigNotify1 : ch::kRdSigNotify2);
    EXPECT_EQ(spu::count(hal, reg == 1 ? ch::kRdSigNotify1 : ch::kRdSigNotify2), 0u);  // cleared
  });
  acc.ppe->set_firmware([=](fw::Hal& hal) {
    const mmio::Spe e{0, 1};
    mmio::set_signal_or_mode(hal, e, reg == 1 && or_mode, reg == 2 && or_mode);
    mmio::write_signal(hal, e, reg, a);
    mmio::write_signal(hal, e, reg, b);
  });
  sc_core::sc_start();
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  return got;
}
}  // namespace

TEST(SpeSignals, InOverwriteModeTheLastWriteWins) {
  EXPECT_EQ(signal_after_two_writes(1, false, 0x0F, 0xF0), 0xF0u);
}

TEST(SpeSignals, InOrModeWritesAccumulate) {
  EXPECT_EQ(signal_after_two_writes(2, true, 0x0F, 0xF0), 0xFFu);
}

TEST(SpeSignals, EightSpesMeetAtABarrierOfSignalsInOrMode) {
  // Each SPE SNDSIGs its bit into every other SPE's signal 1 (OR mode), then waits until its
  // register has collected the other seven.
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<sc_time> passed(8);
  std::vector<uint32_t> seen(8);
  for (int s = 0; s < 8; ++s) {
    acc.spes[static_cast<size_t>(s)]->channels.set_config(1);
    acc.spes[static_cast<size_t>(s)]->spu.set_firmware([&, s](fw::Hal& hal) {
      hal.compute(static_cast<uint64_t>(s) * 500);  // arrive at different times
      const uint32_t word = 0x3000C;                // the register's quadword offset
      hal.store<uint32_t>(amap::kSpeLocalStore + word, 1u << s);
      for (int t = 0; t < 8; ++t) {
        if (t == s) continue;
        mfc::command(hal, spe::op::kSndsig, word,
                     amap::acc_spe(t) + amap::kSpeProblemState + spe::ps::kSigNotify1, 4, 0);
      }
      uint32_t have = 0;
      const uint32_t others = 0xFFu & ~(1u << s);
      while (have != others) have |= spu::read(hal, ch::kRdSigNotify1);
      seen[static_cast<size_t>(s)] = have;
      passed[static_cast<size_t>(s)] = sc_core::sc_time_stamp();
      mfc::wait_tags(hal, 1);
    });
  }
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  // Nobody passes before the last arrives (SPE7 computes 7 x 500 cycles first).
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(seen[static_cast<size_t>(s)], 0xFFu & ~(1u << s));
    EXPECT_GT(passed[static_cast<size_t>(s)], sc_time(3500 / 3.2, sc_core::SC_NS)) << s;
  }
}

TEST(SpeDecrementer, ItCountsDownAtTheTimebaseAndItsEventFiresAtZero) {
  set_param("node0.acc0.timebase", 100e6);  // 10 ns ticks
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  uint32_t first = 0, later = 0, events = 0;
  sc_time written, fired;
  acc.spes[0]->spu.set_firmware([&](fw::Hal& hal) {
    spu::write_now(hal, ch::kWrDec, 1000);
    written = sc_core::sc_time_stamp();
    first = spu::read_now(hal, ch::kRdDec);
    hal.compute(3200);  // 1 us: 100 ticks
    later = spu::read_now(hal, ch::kRdDec);
    spu::write_now(hal, ch::kWrEventMask, ev::kDecrementer);
    events = spu::read(hal, ch::kRdEventStat);  // stalls until it passes zero
    fired = sc_core::sc_time_stamp();
    spu::write_now(hal, ch::kWrEventAck, events);
    EXPECT_EQ(spu::count(hal, ch::kRdEventStat), 0u);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_GE(first, 999u);
  EXPECT_LE(first, 1000u);
  EXPECT_NEAR(static_cast<double>(first - later), 100.0, 1.0);
  EXPECT_EQ(events, ev::kDecrementer);
  // 1001 ticks of 10 ns after the tick it was written in.
  EXPECT_NEAR((fired - written).to_seconds() * 1e9, 10010.0, 20.0);
}

TEST(SpeEvents, EventsAreRecordedMaskedAndAcknowledged) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<uint32_t> seen;
  acc.spes[5]->spu.set_firmware([&](fw::Hal& hal) {
    spu::write_now(hal, ch::kWrEventMask, ev::kInMbox | ev::kSignal2 | ev::kTagStatusUpdate);
    // A mailbox entry and a signal arrive (the PPE); a tag group completes.
    mfc::get(hal, 0, amap::kAccDram, 128, 3);
    spu::write_now(hal, ch::kWrTagMask, 1u << 3);
    spu::write_now(hal, ch::kWrTagUpdate, spe::kTagUpdateAll);
    uint32_t all = 0;
    while (all != (ev::kInMbox | ev::kSignal2 | ev::kTagStatusUpdate)) {
      const uint32_t e = spu::read(hal, ch::kRdEventStat);
      seen.push_back(e);
      spu::write_now(hal, ch::kWrEventAck, e);
      all |= e;
    }
    EXPECT_EQ(spu::count(hal, ch::kRdEventStat), 0u);
    EXPECT_EQ(spu::read(hal, ch::kRdInMbox), 42u);
    EXPECT_EQ(spu::read(hal, ch::kRdSigNotify2), 7u);
    EXPECT_EQ(spu::read(hal, ch::kRdTagStat), 1u << 3);
  });
  acc.ppe->set_firmware([](fw::Hal& hal) {
    hal.compute(2000);
    mmio::write_in_mbox(hal, {0, 5}, 42);
    hal.compute(2000);
    mmio::write_signal(hal, {0, 5}, 2, 7);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  ASSERT_GE(seen.size(), 2u);
  for (uint32_t e : seen) {
    EXPECT_EQ(e & ~(ev::kInMbox | ev::kSignal2 | ev::kTagStatusUpdate), 0u);  // masked
  }
}

TEST(SpeRunControl, ThePpeStartsAStoppedSpuAndSeesItStopWithItsCode) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  uint32_t status = 0, npc = 0;
  acc.spes[3]->spu.set_firmware([&](fw::Hal& hal) {
    const uint64_t ctl = amap::kSpeControl;
    fw::irq::wait_until(hal, 1u << spe::kRunLine, spu::kIrqTimeoutCycles, "run",
                        [&] { return hal.reg_read(ctl + spe::ctl::kRunRequest) != 0; });
    npc = static_cast<uint32_t>(hal.reg_read(ctl + spe::ctl::kNpc));
    hal.reg_write(ctl + spe::ctl::kStart, 1);
    hal.compute(500);
    hal.reg_write(ctl + spe::ctl::kStop, 0x2A);
  });
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    const mmio::Spe e{0, 3};
    hal.reg_write(e.ps(spe::ps::kSpuNpc), 0x100);
    hal.reg_write(e.ps(spe::ps::kSpuRunCntl), 1);
    fw::irq::wait_until(hal, 1u << spe::ppe_line(3), spu::kIrqTimeoutCycles, "stop", [&] {
      return (hal.reg_read(e.ps(spe::ps::kSpuStatus)) & spe::ps::kStatusStoppedByStop) != 0;
    });
    status = static_cast<uint32_t>(hal.reg_read(e.ps(spe::ps::kSpuStatus)));
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(npc, 0x100u);
  EXPECT_EQ(status, 0x2Au << 16 | spe::ps::kStatusStoppedByStop);
}
