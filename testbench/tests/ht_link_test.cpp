// The HyperTransport link alone against analytic figures: its line rate, packet framing and
// splitting, streaming writes, a read's round trip, buffer-limited throughput and tag limits.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "hw/ht/ht_link.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scripted_initiator.h"
#include "tlm/check/checker.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"

using namespace hs;
using hs::ht::HtConfig;
using hs::ht::HtFormat;
using hs::ht::HtLink;
using hs::link::Packet;
using hs::link::PacketKind;
using hs::link::SplitLink;
using hs::testing::RecordingMemory;
using hs::testing::ScriptedInitiator;
using hs::testing::set_param;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

constexpr double kMemNs = 40;

// A HyperTransport link with a scripted initiator at side A and a recording memory at B (and
// the other way round).
struct HtBench {
  std::unique_ptr<HtLink> link;
  std::unique_ptr<RecordingMemory> mem_a, mem_b;
  std::unique_ptr<ScriptedInitiator> init_a, init_b;
  explicit HtBench(ScriptedInitiator::Script from_a) {
    link = std::make_unique<HtLink>("ht0", 0, SplitLink::Attach::Fabric, SplitLink::Attach::Fabric);
    mem_a = std::make_unique<RecordingMemory>("mem_a", sc_time(kMemNs, SC_NS));
    mem_b = std::make_unique<RecordingMemory>("mem_b", sc_time(kMemNs, SC_NS));
    init_a = std::make_unique<ScriptedInitiator>("init_a", std::move(from_a));
    init_b = std::make_unique<ScriptedInitiator>("init_b", [](auto&) {});
    init_a->socket.bind(link->port(SplitLink::A).in);
    init_b->socket.bind(link->port(SplitLink::B).in);
    link->port(SplitLink::A).out.bind(mem_a->socket);
    link->port(SplitLink::B).out.bind(mem_b->socket);
    ParamRegistry::instance().finalize();
  }
};

Packet packet(PacketKind k, uint64_t addr, uint32_t len) {
  Packet p;
  p.kind = k;
  p.addr = addr;
  p.len = len;
  return p;
}

}  // namespace

TEST(HtConfig, LineRateIsWidthTimesDoubleDataRateLessThePeriodicCrc) {
  HtConfig c;  // 16 bits at 1 GHz, both edges
  EXPECT_DOUBLE_EQ(c.bytes_per_second(), 4.0e9 * 512 / 516);
  c.width = 8;
  c.clock_hz = 800e6;
  EXPECT_DOUBLE_EQ(c.bytes_per_second(), 1.6e9 * 512 / 516);
}

TEST(HtFormat, PacketsAreFramedAsTheSpecificationLaysThemOut) {
  const HtFormat f;
  EXPECT_EQ(f.wire_bytes(packet(PacketKind::Write, 0x1000, 64)), 8u + 64u);
  EXPECT_EQ(f.wire_bytes(packet(PacketKind::Read, 0x1000, 64)), 8u);
  EXPECT_EQ(f.wire_bytes(packet(PacketKind::ReadData, 0x1000, 64)), 4u + 64u);
  EXPECT_EQ(f.wire_bytes(packet(PacketKind::ReadError, 0x1000, 0)), 4u);
  // Above 2^40 a request carries the 4-byte address extension.
  EXPECT_EQ(f.wire_bytes(packet(PacketKind::Write, uint64_t{1} << 56, 64)), 12u + 64u);
  EXPECT_EQ(f.wire_bytes(packet(PacketKind::Read, uint64_t{1} << 56, 64)), 12u);
  // Not whole doublewords: the covering doublewords and a byte mask.
  EXPECT_EQ(f.wire_bytes(packet(PacketKind::Write, 0x1002, 6)), 8u + 8u + 4u);
  // Requests never cross a 64-byte boundary; one response answers a read.
  EXPECT_EQ(f.write_chunk(32, 200), 32u);
  EXPECT_EQ(f.write_chunk(64, 200), 64u);
  EXPECT_EQ(f.read_chunk(0, 40), 40u);
  std::vector<uint32_t> sizes;
  f.completion_sizes(0, 64, sizes);
  EXPECT_EQ(sizes, std::vector<uint32_t>{64});
  // A data packet takes one 64-byte buffer whatever its size.
  EXPECT_EQ(f.data_credits(packet(PacketKind::Write, 0, 4)), 1u);
  EXPECT_EQ(f.data_credits(packet(PacketKind::Read, 0, 64)), 0u);
}

TEST(HtLink, StreamingWritesReachTheAnalyticThroughput) {
  constexpr uint64_t kBytes = 1 << 20;
  std::vector<uint8_t> buf(4096, 0x3c);
  sc_time t0;
  HtBench tb([&](ScriptedInitiator& i) {
    t0 = sc_core::sc_time_stamp();
    for (uint64_t off = 0; off < kBytes; off += buf.size()) i.write(off, buf.data(), buf.size());
  });
  sc_core::sc_start();
  const HtConfig& c = tb.link->config();
  // Every 64 bytes of data cost an 8-byte request besides; NOPs go the other way.
  const double analytic = c.bytes_per_second() * 64.0 / 72.0;
  ASSERT_FALSE(tb.mem_b->writes.empty());
  const double seconds = (tb.mem_b->writes.back().at - t0).to_seconds() - c.latency_ns * 1e-9;
  EXPECT_NEAR(kBytes / seconds / analytic, 1.0, 0.01)
      << kBytes / seconds / 1e9 << " GB/s against " << analytic / 1e9;
  EXPECT_EQ(tb.link->packets(0, PacketKind::Write), kBytes / 64);
  EXPECT_EQ(tb.link->wire_bytes(0), kBytes / 64 * 72);
  EXPECT_GT(tb.link->link_packet_bytes(1), 0u);  // the NOPs returning the buffers
  EXPECT_TRUE(CheckRegistry::instance().ok()) << hs::testing::first_violation();
}

TEST(HtLink, OneReadTakesItsRequestResponseAndTheTargetsLatency) {
  sc_time took;
  HtBench tb([&](ScriptedInitiator& i) {
    uint8_t data[64];
    const sc_time t0 = sc_core::sc_time_stamp();
    i.read(0x2000, data, sizeof data);
    took = sc_core::sc_time_stamp() - t0;
  });
  sc_core::sc_start();
  const HtConfig& c = tb.link->config();
  const double rate = c.bytes_per_second();
  const sc_time analytic = transfer_time(8, rate) + sc_time(c.latency_ns, SC_NS) +
                           sc_time(kMemNs, SC_NS) + transfer_time(68, rate) +
                           sc_time(c.latency_ns, SC_NS);
  EXPECT_NEAR(took.to_seconds() * 1e9, analytic.to_seconds() * 1e9, 0.002);
  EXPECT_EQ(tb.link->packets(0, PacketKind::Read), 1u);
  EXPECT_EQ(tb.link->packets(1, PacketKind::ReadData), 1u);
}

TEST(HtLink, OneDataBufferLimitsWritesToOnePerBufferRoundTrip) {
  set_param("ht0.buffers.posted_data", 1);
  constexpr int kWrites = 200;
  std::vector<uint8_t> buf(64, 1);
  sc_time t0;
  HtBench tb([&](ScriptedInitiator& i) {
    t0 = sc_core::sc_time_stamp();
    for (int w = 0; w < kWrites; ++w) i.write(uint64_t(w) * 64, buf.data(), buf.size());
  });
  sc_core::sc_start();
  const HtConfig& c = tb.link->config();
  const double rate = c.bytes_per_second();
  // A write goes when the buffer the previous one took is back: its packet crosses, the memory
  // takes it, the NOP waits nop_delay, crosses the other wire, and the buffer is free.
  const sc_time period = transfer_time(72, rate) + sc_time(c.latency_ns + kMemNs, SC_NS) +
                         sc_time(c.nop_delay_ns, SC_NS) + transfer_time(4, rate) +
                         sc_time(c.latency_ns, SC_NS);
  const auto& w = tb.mem_b->writes;
  ASSERT_EQ(w.size(), static_cast<size_t>(kWrites));
  const double measured = (w.back().at - w[9].at).to_seconds() / (kWrites - 10);
  EXPECT_NEAR(measured / period.to_seconds(), 1.0, 0.001);
}

TEST(HtLink, SrcTagsBoundOutstandingReads) {
  std::vector<uint8_t> data(64 * 256);
  HtBench tb([&](ScriptedInitiator& i) { i.read(0, data.data(), data.size()); });
  sc_core::sc_start();
  EXPECT_EQ(tb.link->packets(0, PacketKind::Read), 256u);
  EXPECT_EQ(tb.link->packets(1, PacketKind::ReadData), 256u);
  EXPECT_TRUE(CheckRegistry::instance().ok()) << hs::testing::first_violation();
  const nlohmann::json report = CheckRegistry::instance().to_json();
  bool evaluated = false;
  for (const auto& c : report["invariants"]) {
    if (c["name"] == "HyperTransport: reads in flight within the requester's tags") {
      evaluated = c["evaluations"].get<int>() == 256;
    }
  }
  EXPECT_TRUE(evaluated);
}

TEST(HtLink, DataCrossesIntactBothWays) {
  std::vector<uint8_t> out(1000), back(1000);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i * 7 + 3);
  HtBench tb([&](ScriptedInitiator& i) {
    i.write(0x1003, out.data(), out.size());  // unaligned: byte masks at both ends
    i.read(0x1003, back.data(), back.size());
  });
  sc_core::sc_start();
  EXPECT_EQ(back, out);
}
