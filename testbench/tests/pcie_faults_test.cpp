// The PCIe data link layer under injected faults: a corrupted TLP is answered by a NAK and
// replayed, a lost NAK by the replay timer, the fourth replay of one TLP retrains the link;
// data always arrives intact and in order, and every fault is counted. Bad fault lists are
// refused before the run, naming the parameter.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "hw/pcie/pcie_link.h"
#include "testbench/support/pcie_bench.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/fault/fault_injector.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/clock.h"

using namespace hs;
using hs::pcie::PcieConfig;
using hs::testing::LinkBench;
using hs::testing::ScriptedInitiator;
using hs::testing::set_link_param;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

constexpr int kTlps = 16;
constexpr uint32_t kMps = 256;

// Streams kTlps full-size writes downstream, each TLP's bytes distinct.
std::vector<uint8_t> pattern() {
  std::vector<uint8_t> buf(kTlps * kMps);
  std::iota(buf.begin(), buf.end(), uint8_t{3});
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(buf[i] ^ (i >> 8));
  return buf;
}

uint64_t stat(const char* group, const char* name) {
  const StatGroup* g = StatsRegistry::instance().find(group);
  if (!g) ADD_FAILURE() << "no statistics group " << group;
  return g ? g->to_json(sc_core::sc_time_stamp())[name].get<uint64_t>() : 0;
}

struct WriteStream {
  std::unique_ptr<LinkBench> tb;
  std::vector<uint8_t> sent = pattern();
};

WriteStream stream_writes() {
  set_link_param("max_payload", kMps);
  set_link_param("tx_queue", 16);
  WriteStream r;
  r.tb = std::make_unique<LinkBench>(
      [&sent = r.sent](ScriptedInitiator& i) { i.write(0, sent.data(), sent.size()); });
  sc_core::sc_start();
  return r;
}

void expect_intact(const WriteStream& r) {
  ASSERT_EQ(r.tb->mem_b->writes.size(), static_cast<size_t>(kTlps));
  std::vector<uint8_t> got(r.sent.size());
  r.tb->mem_b->storage.read(0, got.data(), got.size());
  EXPECT_EQ(got, r.sent);
  for (int n = 1; n < kTlps; ++n) {  // in order
    EXPECT_LT(r.tb->mem_b->writes[n - 1].addr, r.tb->mem_b->writes[n].addr);
  }
  for (const auto& v : CheckRegistry::instance().violations()) ADD_FAILURE() << v.message;
}

// A full-size TLP's time on the wire, and a NAK's round trip (two flights and the DLLP).
struct ReplayTimes {
  sc_time ser, nak_round_trip;
};
ReplayTimes replay_times(const PcieConfig& c) {
  const double rate = c.bytes_per_second();
  return {transfer_time(kMps + 20, rate),
          sc_time(2 * c.latency_ns, SC_NS) + transfer_time(PcieConfig::kDllpWireBytes, rate)};
}

}  // namespace

TEST(PcieFaults, CorruptedTlpIsReplayedAfterItsNak) {
  set_link_param("down.lcrc_error_at", "3");
  const WriteStream r = stream_writes();
  expect_intact(r);
  EXPECT_EQ(stat("pcie0.down", "lcrc_errors"), 1u);
  EXPECT_EQ(stat("pcie0.down", "replays"), 1u);
  EXPECT_EQ(stat("pcie0.up", "dllps_nak"), 1u);
  EXPECT_EQ(stat("pcie0.down", "replay_timeouts"), 0u);
  // The third TLP arrives after its corrupted copy, the NAK's round trip and its replay.
  const auto [ser, nak_round_trip] = replay_times(r.tb->link->config());
  const auto& w = r.tb->mem_b->writes;
  EXPECT_EQ(w[2].at - w[1].at, ser + nak_round_trip + ser);
  EXPECT_EQ(w[3].at - w[2].at, ser);  // the TLPs behind it follow at once
}

TEST(PcieFaults, LostNakIsRecoveredByTheReplayTimer) {
  set_link_param("down.lcrc_error_at", "3");
  set_link_param("down.nak_loss_rate", 1.0);
  const WriteStream r = stream_writes();
  expect_intact(r);
  EXPECT_EQ(stat("pcie0.down", "replay_timeouts"), 1u);
  EXPECT_EQ(stat("pcie0.down", "replays"), 1u);
  // The timer runs from the corrupted copy's start: three ACK round trips by default.
  const PcieConfig& c = r.tb->link->config();
  EXPECT_DOUBLE_EQ(c.replay_timeout_ns, 3 * (2 * c.latency_ns + c.ack_timer_ns));
  const sc_time ser = replay_times(c).ser;
  const auto& w = r.tb->mem_b->writes;
  EXPECT_EQ(w[2].at - w[1].at, sc_time(c.replay_timeout_ns, SC_NS) + ser);
}

TEST(PcieFaults, FourthReplayOfOneTlpRetrainsTheLink) {
  set_link_param("down.lcrc_error_at", "3,4,5,6");  // the first copy and three replays
  set_link_param("dll.retrain_time", 7000);
  const WriteStream r = stream_writes();
  expect_intact(r);
  EXPECT_EQ(stat("pcie0.down", "lcrc_errors"), 4u);
  EXPECT_EQ(stat("pcie0.down", "replays"), 4u);
  EXPECT_EQ(stat("pcie0.down", "retrains"), 1u);
  const auto [ser, nak_round_trip] = replay_times(r.tb->link->config());
  const auto& w = r.tb->mem_b->writes;
  EXPECT_EQ(w[2].at - w[1].at, 4 * (ser + nak_round_trip) + sc_time(7000, SC_NS) + ser);
}

TEST(PcieFaults, RandomErrorsBothWaysNeverCorruptData) {
  set_run_seed(11);
  set_link_param("*.lcrc_error_rate", 0.05);
  set_link_param("*.nak_loss_rate", 0.2);
  set_link_param("max_payload", 128);
  std::vector<uint8_t> out(64 << 10), in(64 << 10);
  std::iota(out.begin(), out.end(), uint8_t{1});
  LinkBench tb([&](ScriptedInitiator& i) {
    i.write(0x10000, out.data(), out.size());  // MWr downstream
    i.read(0x10000, in.data(), in.size());     // MRd down, CplD up
  });
  sc_core::sc_start();
  EXPECT_EQ(in, out);
  for (const auto& v : CheckRegistry::instance().violations()) ADD_FAILURE() << v.message;
  const uint64_t down = stat("pcie0.down", "lcrc_errors"), up = stat("pcie0.up", "lcrc_errors");
  EXPECT_GT(down, 0u);
  EXPECT_GT(up, 0u);
  EXPECT_EQ(stat("pcie0.down", "replays"), down);
  EXPECT_EQ(stat("pcie0.up", "replays"), up);
  EXPECT_EQ(stat("pcie0.up", "dllps_nak") + stat("pcie0.down", "dllps_nak"), down + up);
}

TEST(PcieFaults, BadFaultListIsRefusedNamingTheParameter) {
  set_link_param("down.lcrc_error_at", "3,x");
  try {
    LinkBench tb([](ScriptedInitiator&) {});
    FAIL() << "accepted a bad list";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "test: parameter 'pcie0.down.lcrc_error_at' = '3,x': 'x' is not an event"),
              std::string::npos)
        << e.what();
  }
}

TEST(PcieFaults, ErrorRateAboveOneHalfIsRefused) {
  set_link_param("up.lcrc_error_rate", 0.9);
  try {
    LinkBench tb([](ScriptedInitiator&) {});
    FAIL() << "accepted a rate of 0.9";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pcie0.up.lcrc_error_rate"), std::string::npos)
        << e.what();
  }
}
