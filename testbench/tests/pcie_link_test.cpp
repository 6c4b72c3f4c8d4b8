// PCIe link model against analytic limits: throughput of streaming writes and reads, single
// read round trip, credit-bounded throughput, ordering, splitting and both directions at once.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>

#include "hw/pcie/pcie_link.h"
#include "testbench/support/pcie_bench.h"
#include "testbench/support/scripted_initiator.h"
#include "tlm/check/checker.h"
#include "tlm/link/delivery_workers.h"
#include "tlm/memory/memory.h"
#include "tlm/params/param_registry.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/clock.h"

using namespace hs;
using hs::pcie::PcieConfig;
using hs::pcie::PcieLink;
using hs::testing::kMemLatencyNs;
using hs::testing::LinkBench;
using hs::testing::RecordingMemory;
using hs::testing::ScriptedInitiator;
using sc_core::SC_NS;
using sc_core::sc_time;

using hs::testing::set_link_param;

namespace {

void set(const std::string& name, const Json& v) {
  set_link_param(name, v);
}

struct LinkShape {
  int gen, lanes, mps;
};
void PrintTo(const LinkShape& s, std::ostream* os) {
  *os << "gen" << s.gen << " x" << s.lanes << " MPS " << s.mps;
}
std::string shape_name(const ::testing::TestParamInfo<LinkShape>& i) {
  return "gen" + std::to_string(i.param.gen) + "_x" + std::to_string(i.param.lanes) + "_mps" +
         std::to_string(i.param.mps);
}
const LinkShape kShapes[] = {{1, 8, 128}, {1, 8, 256},  {2, 4, 128},
                             {2, 4, 256}, {3, 16, 128}, {3, 16, 256}};

class PcieThroughput : public ::testing::TestWithParam<LinkShape> {
 protected:
  void SetUp() override {
    set("gen", GetParam().gen);
    set("lanes", GetParam().lanes);
    set("max_payload", GetParam().mps);
  }
};

}  // namespace

TEST(PcieConfig, LineRatesFollowGenerationAndEncoding) {
  PcieConfig c;
  c.gen = 1, c.lanes = 8;
  EXPECT_DOUBLE_EQ(c.bytes_per_second(), 2.0e9);  // 2.5 GT/s x 8 x 8/10 / 8
  c.gen = 2, c.lanes = 4;
  EXPECT_DOUBLE_EQ(c.bytes_per_second(), 2.0e9);
  c.gen = 3, c.lanes = 16;
  EXPECT_NEAR(c.bytes_per_second(), 8e9 * 16 * 128.0 / 130.0 / 8, 1);
  EXPECT_EQ(c.tlp_overhead(false), 20u);
  EXPECT_EQ(c.tlp_overhead(true), 24u);
  c.ecrc = true;
  EXPECT_EQ(c.tlp_overhead(true), 28u);
}

TEST(PcieConfig, CompletionsSplitAtReadCompletionBoundary) {
  PcieConfig c;
  c.rcb = 64;
  c.cpl_split = hs::pcie::CplSplit::Rcb;
  EXPECT_EQ(c.completion_sizes(0, 256), (std::vector<uint32_t>{64, 64, 64, 64}));
  // An unaligned start ends its first completion at the next boundary.
  EXPECT_EQ(c.completion_sizes(40, 100), (std::vector<uint32_t>{24, 64, 12}));
  c.cpl_split = hs::pcie::CplSplit::Mps;
  c.mps = 256;
  EXPECT_EQ(c.completion_sizes(32, 512), (std::vector<uint32_t>{224, 256, 32}));
}

TEST(PcieConfig, RequestsNeverCross4KiB) {
  EXPECT_EQ(hs::pcie::tlp_chunk(4096 - 64, 1000, 256), 64u);
  EXPECT_EQ(hs::pcie::tlp_chunk(0, 1000, 256), 256u);
  EXPECT_EQ(hs::pcie::tlp_chunk(0, 100, 256), 100u);
}

// DLLPs per TLP that the receiver of a stream of TLPs arriving every `interarrival_ns` sends
// back on the other wire: an ACK per dll.ack_coalesce TLPs, or per expiry of dll.ack_timer if
// fewer arrive meanwhile; and, when the TLPs' credits are finite, an UpdateFC per TLP unless
// several are taken within fc_update_delay (they then share one).
double dllps_per_tlp(const PcieConfig& c, double interarrival_ns, bool update_fc) {
  const double before_timer = std::floor(c.ack_timer_ns / interarrival_ns) + 1;
  const double acks = 1.0 / std::min<double>(c.ack_coalesce, before_timer);
  const double fcs = update_fc ? 1.0 / (std::floor(c.fc_update_ns / interarrival_ns) + 1) : 0.0;
  return acks + fcs;
}

TEST_P(PcieThroughput, StreamingPostedWritesReachAnalyticThroughput) {
  constexpr uint64_t kBytes = 8 << 20;
  std::vector<uint8_t> buf(64 << 10, 0x5a);
  sc_time t0;
  LinkBench tb([&](ScriptedInitiator& i) {
    t0 = sc_core::sc_time_stamp();
    for (uint64_t off = 0; off < kBytes; off += buf.size()) i.write(off, buf.data(), buf.size());
  });
  sc_core::sc_start();
  const PcieConfig& c = tb.link->config();
  const double analytic =
      c.bytes_per_second() * c.mps / static_cast<double>(c.mps + c.tlp_overhead(false));
  ASSERT_FALSE(tb.mem_b->writes.empty());
  // From the first byte leaving to the last TLP arriving, less the one-way flight time.
  const double seconds = (tb.mem_b->writes.back().at - t0).to_seconds() - c.latency_ns * 1e-9;
  const double measured = kBytes / seconds;
  EXPECT_NEAR(measured / analytic, 1.0, 0.01)
      << "measured " << measured / 1e9 << " GB/s, analytic " << analytic / 1e9 << " GB/s";
  EXPECT_EQ(tb.link->packets(0, hs::link::PacketKind::Write), kBytes / c.mps);
  EXPECT_EQ(tb.link->payload_bytes(0), kBytes);
  EXPECT_TRUE(CheckRegistry::instance().ok());
}

TEST_P(PcieThroughput, StreamingReadsReachAnalyticThroughput) {
  constexpr uint64_t kBytes = 8 << 20;
  set("tags", 256);  // enough reads in flight to cover the round trip at every rate
  std::vector<uint8_t> buf(kBytes);
  sc_time elapsed;
  LinkBench tb([&](ScriptedInitiator& i) {
    sc_time t0 = sc_core::sc_time_stamp();
    i.read(0, buf.data(), buf.size());  // one stream of MRRS-sized requests
    elapsed = sc_core::sc_time_stamp() - t0;
  });
  sc_core::sc_start();
  const PcieConfig& c = tb.link->config();
  // Completions carry RCB-sized payloads with a 3DW header each; they limit read throughput,
  // sharing their wire with the ACKs and UpdateFCs that answer the read requests (one request
  // arrives per request's worth of completions: iterate to the fixed point).
  const double cpl_bytes = c.mrrs / c.rcb * static_cast<double>(c.rcb + c.tlp_overhead(false));
  double per_request = cpl_bytes;
  for (int i = 0; i < 4; ++i) {
    const double interarrival_ns = per_request / c.bytes_per_second() * 1e9;
    per_request = cpl_bytes + PcieConfig::kDllpWireBytes * dllps_per_tlp(c, interarrival_ns, true);
  }
  const double analytic = c.bytes_per_second() * c.mrrs / per_request;
  // The stream starts once the first request has made its round trip (pipeline fill).
  const sc_time fill = transfer_time(20, c.bytes_per_second()) + sc_time(2 * c.latency_ns, SC_NS) +
                       sc_time(kMemLatencyNs, SC_NS);
  const double measured = kBytes / (elapsed - fill).to_seconds();
  EXPECT_NEAR(measured / analytic, 1.0, 0.01)
      << "measured " << measured / 1e9 << " GB/s, analytic " << analytic / 1e9 << " GB/s";
  EXPECT_EQ(tb.link->packets(0, hs::link::PacketKind::Read), kBytes / c.mrrs);
  EXPECT_EQ(tb.link->packets(1, hs::link::PacketKind::ReadData), kBytes / c.rcb);
}

INSTANTIATE_TEST_SUITE_P(Shapes, PcieThroughput, ::testing::ValuesIn(kShapes), shape_name);

TEST(PcieLink, TagLimitedReadsAreBoundByRoundTrip) {
  set("tags", 1);
  set("max_read_request", 512);
  constexpr uint64_t kBytes = 64 << 10;
  std::vector<uint8_t> buf(kBytes);
  sc_time elapsed;
  LinkBench tb([&](ScriptedInitiator& i) {
    sc_time t0 = sc_core::sc_time_stamp();
    i.read(0, buf.data(), buf.size());
    elapsed = sc_core::sc_time_stamp() - t0;
  });
  sc_core::sc_start();
  const PcieConfig& c = tb.link->config();
  const double rate = c.bytes_per_second();
  // One request at a time: MRd on the wire, flight, memory, all completions, flight.
  // Three DLLPs delay each request: the ACK of the last completions goes out just before the
  // next request on its wire, and the request's UpdateFC and ACK go out between its
  // completions (DLLPs take the wire ahead of waiting TLPs).
  const double per_request = 20 / rate + c.latency_ns * 1e-9 + kMemLatencyNs * 1e-9 +
                             (512 / c.rcb) * (c.rcb + 20) / rate + c.latency_ns * 1e-9 +
                             3 * PcieConfig::kDllpWireBytes / rate;
  EXPECT_NEAR(elapsed.to_seconds() / (kBytes / 512 * per_request), 1.0, 0.001);
}

namespace {

void expect_single_read_round_trip(bool in_place) {
  uint32_t word = 0;
  sc_time elapsed;
  LinkBench tb(
      [&](ScriptedInitiator& i) {
        sc_time t0 = sc_core::sc_time_stamp();
        i.read(0x1000, &word, 4);
        elapsed = sc_core::sc_time_stamp() - t0;
      },
      nullptr, kMemLatencyNs, in_place);
  sc_core::sc_start();
  const PcieConfig& c = tb.link->config();
  const sc_time expected = transfer_time(20, c.bytes_per_second()) +  // MRd, 3DW
                           sc_time(c.latency_ns, SC_NS) + sc_time(kMemLatencyNs, SC_NS) +
                           transfer_time(4 + 20, c.bytes_per_second()) +  // CplD
                           sc_time(c.latency_ns, SC_NS);
  EXPECT_EQ(elapsed, expected);
}

void expect_posted_credits_bound_outstanding_tlps(bool in_place) {
  set("credits.posted_header", 2);
  set("tx_queue", 16);
  constexpr int kTlps = 200;
  std::vector<uint8_t> buf(256 * kTlps, 1);
  // A receiver that takes each TLP at once (no delay): credits return one UpdateFC after
  // arrival, and the analytic period holds exactly.
  LinkBench tb([&](ScriptedInitiator& i) { i.write(0, buf.data(), buf.size()); }, nullptr, 0,
               in_place);
  sc_core::sc_start();
  const PcieConfig& c = tb.link->config();
  auto& w = tb.mem_b->writes;
  for (const auto& v : CheckRegistry::instance().violations()) ADD_FAILURE() << v.message;
  ASSERT_EQ(w.size(), static_cast<size_t>(kTlps));
  // Two credits: TLP n+2 may start only when TLP n's credit has come back, so a pair of TLPs
  // takes one serialisation, two flights, the receiver's UpdateFC delay and the UpdateFC DLLP.
  const sc_time ser = transfer_time(256 + 20, c.bytes_per_second());
  const sc_time period = ser + sc_time(2 * c.latency_ns + c.fc_update_ns, SC_NS) +
                         transfer_time(PcieConfig::kDllpWireBytes, c.bytes_per_second());
  for (int n = 2; n < kTlps; ++n) EXPECT_EQ(w[n].at - w[n - 2].at, period) << "TLP " << n;
  // At most two TLPs between leaving and their credit returning: arrivals are spaced so.
  const double measured = 256.0 * (kTlps - 2) / (w.back().at - w[1].at).to_seconds();
  EXPECT_NEAR(measured, 2 * 256 / period.to_seconds(), measured * 1e-3);
}

}  // namespace

TEST(PcieLink, SingleReadLatencyEqualsModelledRoundTrip) {
  expect_single_read_round_trip(false);
}

TEST(PcieLink, PostedCreditsBoundOutstandingTlps) {
  expect_posted_credits_bound_outstanding_tlps(false);
}

// Receivers that never wait take TLPs in place (no worker thread): the figures are the same.
TEST(PcieLink, TakenInPlaceSingleReadLatencyEqualsModelledRoundTrip) {
  expect_single_read_round_trip(true);
  EXPECT_EQ(DeliveryWorkers::instance().workers(), 0u);
}

TEST(PcieLink, TakenInPlacePostedCreditsBoundOutstandingTlps) {
  expect_posted_credits_bound_outstanding_tlps(true);
  EXPECT_EQ(DeliveryWorkers::instance().workers(), 0u);
}

TEST(PcieLink, BothDirectionsRunConcurrentlyAtFullRate) {
  constexpr uint64_t kBytes = 2 << 20;
  std::vector<uint8_t> buf(64 << 10, 7);
  sc_time end_a, end_b;
  auto writer = [&](sc_time& end) {
    return [&, kBytes](ScriptedInitiator& i) {
      for (uint64_t off = 0; off < kBytes; off += buf.size()) i.write(off, buf.data(), buf.size());
      end = sc_core::sc_time_stamp();
    };
  };
  LinkBench tb(writer(end_a), writer(end_b));
  sc_core::sc_start();
  const PcieConfig& c = tb.link->config();
  // Each wire carries its TLPs and the DLLPs answering the other's (a TLP arrives every
  // TLP-and-DLLPs time); both finish together, as each alone would with those DLLPs.
  double per_tlp = c.mps + 20.0;
  for (int i = 0; i < 4; ++i) {
    per_tlp =
        c.mps + 20.0 +
        PcieConfig::kDllpWireBytes * dllps_per_tlp(c, per_tlp / c.bytes_per_second() * 1e9, true);
  }
  const double one_way = kBytes * per_tlp / c.mps / c.bytes_per_second();
  EXPECT_NEAR(static_cast<double>(tb.link->link_packet_bytes(0)) / tb.link->link_packet_bytes(1),
              1.0, 0.01);
  EXPECT_NEAR(tb.link->link_packet_bytes(0) / (kBytes / c.mps * (per_tlp - c.mps - 20.0)), 1.0,
              0.01);
  EXPECT_NEAR(tb.mem_b->writes.back().at.to_seconds() / one_way, 1.0, 0.01);
  EXPECT_NEAR(tb.mem_a->writes.back().at.to_seconds() / one_way, 1.0, 0.01);
  EXPECT_EQ(tb.link->payload_bytes(0), kBytes);
  EXPECT_EQ(tb.link->payload_bytes(1), kBytes);
}

TEST(PcieLink, ReadDoesNotPassEarlierPostedWrite) {
  uint32_t seen = 0;
  LinkBench tb([&](ScriptedInitiator& i) {
    uint32_t v = 0xC0FFEE;
    i.write(0x40, &v, 4);  // posted: returns before the data arrives
    i.read(0x40, &seen, 4);
  });
  sc_core::sc_start();
  EXPECT_EQ(seen, 0xC0FFEEu);
}

TEST(PcieLink, PostedWriteReturnsBeforeDataArrives) {
  sc_time returned;
  LinkBench tb([&](ScriptedInitiator& i) {
    uint64_t v = 1;
    i.write(0, &v, 8);
    returned = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  ASSERT_EQ(tb.mem_b->writes.size(), 1u);
  EXPECT_LT(returned, tb.mem_b->writes[0].at);
  EXPECT_EQ(tb.mem_b->writes[0].at - returned,
            transfer_time(8 + 20, tb.link->config().bytes_per_second()) +
                sc_time(tb.link->config().latency_ns, SC_NS));
}

TEST(PcieLink, WritesSplitAtMaxPayloadAnd4KiBBoundaries) {
  set("max_payload", 256);
  std::vector<uint8_t> buf(1000, 3);
  LinkBench tb([&](ScriptedInitiator& i) { i.write(4096 - 100, buf.data(), buf.size()); });
  sc_core::sc_start();
  std::vector<uint64_t> sizes;
  for (auto& w : tb.mem_b->writes) sizes.push_back(w.len);
  EXPECT_EQ(sizes, (std::vector<uint64_t>{100, 256, 256, 256, 132}));
}

TEST(PcieLink, HighAddressesUse4DwHeaders) {
  std::vector<uint8_t> buf(256, 3);
  LinkBench tb([&](ScriptedInitiator& i) {
    i.write(0x1000, buf.data(), 256);
    i.write(uint64_t{1} << 33, buf.data(), 256);
  });
  sc_core::sc_start();
  EXPECT_EQ(tb.link->wire_bytes(0), 256 + 20 + 256 + 24u);
}

TEST(PcieLink, DataArrivesIntactInBothDirections) {
  std::vector<uint8_t> out(10000), back(10000);
  std::iota(out.begin(), out.end(), 0);
  LinkBench tb(
      [&](ScriptedInitiator& i) {
        i.write(0x123, out.data(), out.size());
        i.read(0x123, back.data(), back.size());
      },
      nullptr);
  sc_core::sc_start();
  EXPECT_EQ(out, back);
}

// Runs `init_a`'s script across `link` into `far` (side B's fabric), with side B idle and a
// recording memory behind side A; fails the test on any checker violation.
template <class FarSocket>
void run_one_way(PcieLink& link, ScriptedInitiator& init_a, FarSocket& far) {
  ScriptedInitiator init_b("init_b", [](ScriptedInitiator&) {});
  RecordingMemory mem_a("mem_a", sc_time(kMemLatencyNs, SC_NS));
  init_a.socket.bind(link.port(hs::link::SplitLink::A).in);
  init_b.socket.bind(link.port(hs::link::SplitLink::B).in);
  link.port(hs::link::SplitLink::B).out.bind(far);
  link.port(hs::link::SplitLink::A).out.bind(mem_a.socket);
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  for (const auto& v : CheckRegistry::instance().violations()) ADD_FAILURE() << v.message;
}

// A receiver's memory port ten times slower than the link: the receiver takes each TLP when
// its port has moved the data, so credits come back at the port's pace and the sender's
// PUT stream runs at the receiver's rate, with every posted credit held.
TEST(PcieLink, SlowReceiverThrottlesPostedWritesThroughCredits) {
  constexpr int kChunks = 64;
  constexpr uint64_t kChunk = 4096;
  std::vector<uint8_t> buf(kChunk, 3);
  std::vector<sc_time> done;
  PcieLink link("pcie0", 0);
  ScriptedInitiator init_a("init_a", [&](ScriptedInitiator& i) {
    for (int c = 0; c < kChunks; ++c) {
      i.write(c * kChunk, buf.data(), buf.size());
      done.push_back(sc_core::sc_time_stamp());
    }
  });
  Memory slow("slow", {1 << 24, kMemLatencyNs, 0.2, 1ull << 30});  // 0.2 GB/s port
  run_one_way(link, init_a, slow.socket);
  ASSERT_EQ(done.size(), static_cast<size_t>(kChunks));
  // Steady state: once the 64 posted credits (16 KiB) are all held, from chunk 16 on.
  const double rate =
      static_cast<double>(kChunk) * (kChunks - 1 - 16) / (done.back() - done[16]).to_seconds();
  EXPECT_NEAR(rate, 0.2e9, 0.2e9 * 0.01);
  const Json s = StatsRegistry::instance().find("pcie0.down")->to_json(sc_core::sc_time_stamp());
  EXPECT_EQ(s["posted_credits_held"]["peak"].get<int64_t>(), 64);
  EXPECT_GT(s["credit_stall_ps"].get<uint64_t>(), 0u);
}

// A receiving fabric that waits (arbitration, a full FIFO) is legal: the link delivers from a
// thread, and the TLP is taken when the wait is over.
TEST(PcieLink, ReceiverMayWaitWhileTakingATlp) {
  struct WaitingTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<WaitingTarget> socket{"socket"};
    std::vector<sc_time> taken;
    explicit WaitingTarget(sc_core::sc_module_name n) : sc_module(n) {
      socket.register_b_transport(this, &WaitingTarget::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
      sc_core::wait(1, sc_core::SC_US);
      taken.push_back(sc_core::sc_time_stamp());
      gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
  };
  std::vector<uint8_t> buf(512, 1);
  PcieLink link("pcie0", 0);
  ScriptedInitiator init_a("init_a", [&](ScriptedInitiator& i) { i.write(0, buf.data(), 512); });
  WaitingTarget target("target");
  run_one_way(link, init_a, target.socket);
  ASSERT_EQ(target.taken.size(), 2u);  // two 256-byte TLPs
  // The second TLP arrived while the first was being taken: it waits behind it.
  EXPECT_EQ(target.taken[1] - target.taken[0], sc_time(1, sc_core::SC_US));
}
