// The split transfer and its baselines on the torus machine: every
// testable behaviour of the spec as a named test.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "sw/dcmf/messenger.h"
#include "testbench/runner/torus_model.h"
#include "testbench/runner/workload_registry.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"
#include "tlm/kernel/now.h"

using namespace hs;
namespace tdma = hs::torus::dma;
namespace dcmf = hs::fw::dcmf;
using hs::testing::first_violation;
using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::set_param;
using hs::testing::violations;

namespace {

struct Sent {
  double t;
  uint8_t kind;
  uint16_t counter;
  uint32_t sw_type;
  uint64_t lo, hi;
  uint32_t counter_after;
  bool high_fifo;
  tdma::Descriptor rts_put;  // for RTS packets: the direct-put descriptor they carry
};

// One message from node A (node 0) to node B and back on a 4x4x4 torus, observed at A's DMA.
struct SplitRun {
  std::vector<Sent> sent;           // A's packets, in injection order
  std::vector<double> remote_gets;  // when acknowledgements reached A
  nlohmann::json results;
  std::string violation;
  runner::TorusModel* model = nullptr;
  uint64_t a_accesses_at_first_data = 0, a_accesses_at_zero = 0;
  uint64_t a_cycles_at_first_data = 0, a_cycles_at_zero = 0;

  SplitRun(const std::string& counters,
           const std::vector<std::pair<std::string, nlohmann::json>>& extra) {
    set_param("torus.node.dma.counters", counters);
    for (const auto& [k, v] :
         std::vector<std::pair<std::string, nlohmann::json>>{{"torus.network.x", 4},
                                                             {"torus.network.y", 4},
                                                             {"torus.network.z", 4},
                                                             {"workload.iterations", 1},
                                                             {"workload.warmup", 0},
                                                             {"workload.protocol", "split"},
                                                             {"workload.hops", 2},
                                                             {"workload.bytes", 16384}}) {
      set_param(k, v);
    }
    for (const auto& [k, v] : extra) set_param(k, v);
    static runner::TorusModel m;
    model = &m;
    runner::find_workload("torus_pingpong")->install(m, 1);
    ParamRegistry::instance().finalize();
    m.machine.node(0).dma->observe_injection([this](const tdma::InjectionEvent& e) {
      Sent s{hs::now().to_seconds() * 1e9,
             e.descriptor->kind,
             e.descriptor->inj_counter,
             e.descriptor->sw0 >> 28,
             e.lo,
             e.hi,
             e.counter_after,
             e.high_priority_fifo,
             {}};
      if (s.kind == tdma::kMemoryFifo && s.sw_type == 2) {
        std::memcpy(&s.rts_put, e.packet->payload, sizeof s.rts_put);
      }
      Core& core = *model->machine.node(0).core_list[0];
      if (s.sw_type == 3 && a_accesses_at_first_data == 0) {
        a_accesses_at_first_data = core.register_accesses();
        a_cycles_at_first_data = core.compute_cycles();
      }
      if (s.counter != dcmf::kControlCounter && s.kind != tdma::kRemoteGet &&
          s.counter_after == 0 && a_accesses_at_zero == 0) {
        a_accesses_at_zero = core.register_accesses();
        a_cycles_at_zero = core.compute_cycles();
      }
      sent.push_back(s);
    });
    m.machine.node(0).dma->observe_remote_get([this](const tdma::RemoteGetEvent&) {
      remote_gets.push_back(hs::now().to_seconds() * 1e9);
    });
    sc_core::sc_start();
    results = m.workload_results();
    violation = first_violation();
  }
  // A's packets of its own message (not acknowledgements it sends for B's message).
  std::vector<Sent> message() const {
    std::vector<Sent> v;
    for (const auto& s : sent) {
      if (s.kind != tdma::kRemoteGet) v.push_back(s);
    }
    return v;
  }
  std::vector<Sent> data(uint8_t kind) const {
    std::vector<Sent> v;
    for (const auto& s : message()) {
      if (s.kind == kind && s.counter != dcmf::kControlCounter) v.push_back(s);
    }
    return v;
  }
};

// Every test runs with the C++ counter banks and again with the co-simulated RTL ones.
class CounterBanks : public ::testing::TestWithParam<std::string> {
 protected:
  std::string counters() const { return "torus.node.dma.counters=" + GetParam(); }
};
class SplitTransfer : public CounterBanks {};
class Messaging : public CounterBanks {};

}  // namespace

TEST_P(SplitTransfer, EveryByteSentExactlyOnceAndTargetEqualsSource) {
  SplitRun r(GetParam(), {{"workload.bytes", 20000}});
  ASSERT_EQ(r.violation, "");
  EXPECT_TRUE(r.results["data_verified"].get<bool>());
  const auto fifo = r.data(tdma::kMemoryFifo), put = r.data(tdma::kDirectPut);
  ASSERT_FALSE(fifo.empty());
  ASSERT_FALSE(put.empty());
  uint64_t bytes = 0;
  for (const auto& s : fifo) bytes += s.hi - s.lo;
  for (const auto& s : put) bytes += s.hi - s.lo;
  EXPECT_EQ(bytes, 20000u);
  EXPECT_EQ(fifo.back().hi, put.back().lo) << "the ranges are disjoint and together cover it";
}

TEST_P(SplitTransfer, MemoryFifoAscendsDirectPutDescendsAndTheyMeet) {
  SplitRun r(GetParam(), {});
  const auto fifo = r.data(tdma::kMemoryFifo), put = r.data(tdma::kDirectPut);
  const uint64_t base = dcmf::layout::kAppMemory;
  ASSERT_FALSE(fifo.empty());
  ASSERT_FALSE(put.empty());
  EXPECT_EQ(fifo.front().lo, base);
  for (size_t i = 1; i < fifo.size(); ++i) EXPECT_EQ(fifo[i].lo, fifo[i - 1].hi);
  EXPECT_EQ(put.front().hi, base + 16384);
  for (size_t i = 1; i < put.size(); ++i) EXPECT_EQ(put[i].hi, put[i - 1].lo);
  EXPECT_EQ(fifo.back().hi, put.back().lo) << "the last of each are adjacent";
}

TEST_P(SplitTransfer, RtsLeavesFirstCarryingTheDirectPutDescriptorAndSize) {
  SplitRun r(GetParam(), {});
  const auto msg = r.message();
  ASSERT_FALSE(msg.empty());
  EXPECT_EQ(msg.front().sw_type, 2u) << "the first packet is the RTS";
  EXPECT_EQ(msg.front().rts_put.kind, tdma::kDirectPut);
  EXPECT_EQ(msg.front().rts_put.length, 16384u);
  EXPECT_EQ(msg.front().rts_put.src, dcmf::layout::kAppMemory);
  EXPECT_TRUE(msg.front().rts_put.flags & tdma::kDescending);
  EXPECT_LE(msg.front().t, r.data(tdma::kMemoryFifo).front().t);
}

TEST_P(SplitTransfer, DataIsOnTheNetworkBeforeTheAcknowledgementArrives) {
  SplitRun r(GetParam(), {{"workload.bytes", 65536}});
  ASSERT_FALSE(r.remote_gets.empty());
  const auto fifo = r.data(tdma::kMemoryFifo);
  ASSERT_FALSE(fifo.empty());
  EXPECT_LT(fifo.front().t, r.remote_gets.front());
  size_t before = 0;
  for (const auto& s : fifo) before += s.t < r.remote_gets.front();
  EXPECT_GE(before, 2u);
}

TEST_P(SplitTransfer, NoDirectPutBeforeTheAcknowledgement) {
  SplitRun r(GetParam(), {});
  ASSERT_FALSE(r.remote_gets.empty());
  for (const auto& s : r.data(tdma::kDirectPut)) EXPECT_GE(s.t, r.remote_gets.front());
}

TEST_P(SplitTransfer, AcknowledgementIsARemoteGetIntoTheHighPriorityFifo) {
  SplitRun r(GetParam(), {});
  ASSERT_EQ(r.remote_gets.size(), 1u);
  const auto put = r.data(tdma::kDirectPut);
  ASSERT_FALSE(put.empty());
  for (const auto& s : put) EXPECT_TRUE(s.high_fifo);
}

TEST_P(SplitTransfer, HighPriorityWorkIsServedFirstAndBothKindsInterleave) {
  SplitRun r(GetParam(), {{"workload.bytes", 65536}});
  ASSERT_FALSE(r.remote_gets.empty());
  const auto msg = r.message();
  // Once the descriptor lands, the direct put is served before pending memory-FIFO work: at
  // most the one memory-FIFO packet the engine was already building precedes it.
  size_t i = 0;
  while (i < msg.size() && msg[i].t < r.remote_gets.front()) ++i;
  ASSERT_LT(i + 1, msg.size());
  EXPECT_TRUE(msg[i].kind == tdma::kDirectPut || msg[i + 1].kind == tdma::kDirectPut);
  // ... and afterwards the two kinds alternate on injection while both have work.
  int switches = 0;
  for (size_t k = i + 1; k < msg.size(); ++k) switches += msg[k].kind != msg[k - 1].kind;
  EXPECT_GT(switches, 20);
  const auto fifo = r.data(tdma::kMemoryFifo), put = r.data(tdma::kDirectPut);
  EXPECT_GT(fifo.size(), 40u);
  EXPECT_GT(put.size(), 40u);
}

TEST_P(SplitTransfer, SendCounterStartsAtSizeDecrementsByPayloadHitsZeroOnce) {
  SplitRun r(GetParam(), {});
  std::vector<Sent> ordered;
  for (const auto& s : r.message()) {
    if (s.counter != dcmf::kControlCounter) ordered.push_back(s);
  }
  uint32_t value = 16384, zeros = 0;
  for (const auto& s : ordered) {
    EXPECT_EQ(s.counter_after, value - (s.hi - s.lo));
    value = s.counter_after;
    zeros += value == 0;
  }
  EXPECT_EQ(value, 0u);
  EXPECT_EQ(zeros, 1u);
  EXPECT_EQ(r.violation, "");
}

TEST_P(SplitTransfer, DirectPutMakesNoReceptionFifoEntry) {
  SplitRun r(GetParam(), {});
  const StatGroup* b = StatsRegistry::instance().find("torus.x2y0z0.dma");
  ASSERT_NE(b, nullptr);
  const auto j = b->to_json(sc_core::sc_time_stamp());
  // B received A's RTS and memory-FIFO packets as entries, the direct puts only as writes.
  const auto fifo = r.data(tdma::kMemoryFifo).size(), put = r.data(tdma::kDirectPut).size();
  EXPECT_EQ(j["received_memory_fifo"].get<uint64_t>(), fifo + 1);  // + the RTS
  EXPECT_EQ(j["received_direct_put"].get<uint64_t>(), put);
  EXPECT_EQ(r.results["last_message_at_b"]["direct_put_bytes"].get<uint64_t>() +
                r.results["last_message_at_b"]["memory_fifo_bytes"].get<uint64_t>(),
            16384u);
}

TEST_P(SplitTransfer, LateAcknowledgementMemoryFifoSendsEverythingAndCompletesOnce) {
  // B takes 118 us to handle the RTS: the memory FIFO finishes first; the late direct put moves
  // nothing.
  SplitRun r(GetParam(), {{"workload.rts_cycles", 100000}});
  ASSERT_EQ(r.violation, "");
  EXPECT_TRUE(r.results["data_verified"].get<bool>());
  EXPECT_TRUE(r.data(tdma::kDirectPut).empty());
  uint64_t bytes = 0;
  for (const auto& s : r.data(tdma::kMemoryFifo)) bytes += s.hi - s.lo;
  EXPECT_EQ(bytes, 16384u);
}

TEST_P(SplitTransfer, OriginCoreDoesNothingBetweenPostingAndCompletion) {
  SplitRun r(GetParam(), {{"workload.bytes", 65536}});
  ASSERT_EQ(r.violation, "");
  // Core activity at A when its first data packet left (posting done) and when the send counter
  // reached zero: nothing in between, although the acknowledgement arrived meanwhile.
  EXPECT_EQ(r.a_accesses_at_first_data, r.a_accesses_at_zero);
  EXPECT_EQ(r.a_cycles_at_first_data, r.a_cycles_at_zero);
  EXPECT_GT(r.a_accesses_at_first_data, 0u);
}

TEST_P(SplitTransfer, SplitPointMovesTowardDirectPutAsRoundTripShrinks) {
  // The round trip grows with the target's RTS handling time; the direct-put share must fall
  // monotonically as it grows.
  std::vector<uint64_t> put_bytes;
  for (int rts_cycles : {0, 2000, 8000, 32000, 128000}) {
    const auto r =
        run_scenario("torus_pingpong",
                     {counters(), "torus.network.x=4", "torus.network.y=4", "torus.network.z=4",
                      "workload.protocol=split", "workload.iterations=1", "workload.warmup=0",
                      "workload.bytes=65536", "workload.rts_cycles=" + std::to_string(rts_cycles)});
    ASSERT_TRUE(passed(r)) << violations(r);
    put_bytes.push_back(r["results"]["last_split_transfer"]["direct_put_bytes"].get<uint64_t>());
  }
  for (size_t i = 1; i < put_bytes.size(); ++i) EXPECT_LE(put_bytes[i], put_bytes[i - 1]) << i;
  EXPECT_GT(put_bytes.front(), put_bytes.back());
}

TEST_P(SplitTransfer, PacketsUseOnlyMinimalTorusLinksAndReachTheirNode) {
  // The always-on route checker fails the run on any non-minimal hop or misdelivery; B sits
  // across wrap links from A.
  for (int hops : {1, 3, 6}) {
    const auto r = run_scenario(
        "torus_pingpong", {counters(), "torus.network.x=4", "torus.network.y=4",
                           "torus.network.z=4", "workload.protocol=split", "workload.bytes=30000",
                           "workload.hops=" + std::to_string(hops)});
    ASSERT_TRUE(passed(r)) << violations(r);
    EXPECT_EQ(r["results"]["hops"].get<int>(), hops);
    const auto packets = r["stats"]["torus.network"]["packets_delivered"].get<uint64_t>();
    const auto link_hops = r["stats"]["torus.network"]["packet_hops"].get<uint64_t>();
    EXPECT_EQ(link_hops, packets * static_cast<uint64_t>(hops))
        << "every packet: exactly hops links";
  }
}

TEST_P(SplitTransfer, NoWorseThanTheBetterBaselineAndStrictlyBetterInTheMiddle) {
  auto latency = [this](const std::string& protocol, int bytes) {
    const auto r = run_scenario("torus_pingpong",
                                {counters(), "workload.protocol=" + protocol, "workload.hops=1",
                                 "workload.bytes=" + std::to_string(bytes)});
    EXPECT_TRUE(passed(r)) << violations(r);
    return r["results"]["one_way_latency_ns"].get<double>();
  };
  for (int bytes : {32, 1024, 4096, 16384, 262144}) {
    const double eager = latency("eager", bytes), rdv = latency("rendezvous", bytes);
    // "auto" is the messaging layer's split protocol: eager up to the eager limit, split above.
    const double split = latency("auto", bytes);
    EXPECT_LE(split, std::min(eager, rdv) * 1.0001) << bytes << " B";
    if (bytes == 4096 || bytes == 16384) {
      EXPECT_LT(split, 0.97 * std::min(eager, rdv)) << bytes;
    }
  }
}

TEST_P(Messaging, DataIntegrityForEveryProtocolOverRandomSizesAndSeeds) {
  std::mt19937 rng(7);
  for (int i = 0; i < 24; ++i) {
    const char* protocols[] = {"eager", "rendezvous", "split"};
    const std::string proto = protocols[i % 3];
    const int bytes = std::uniform_int_distribution<int>(1, 40000)(rng);
    const int hops = std::uniform_int_distribution<int>(1, 3)(rng);
    const auto r =
        run_scenario("torus_pingpong",
                     {counters(), "torus.network.x=2", "torus.network.y=2", "torus.network.z=2",
                      "workload.protocol=" + proto, "workload.bytes=" + std::to_string(bytes),
                      "workload.hops=" + std::to_string(hops), "workload.iterations=2",
                      std::string("workload.interrupts=") + (i % 2 ? "true" : "false")},
                     static_cast<uint64_t>(i + 1));
    ASSERT_TRUE(passed(r)) << proto << " " << bytes << " B: " << violations(r);
    EXPECT_TRUE(r["results"]["data_verified"].get<bool>());
  }
}

// A receive may be posted larger than the message: it completes with the message's length
// (which every protocol learns from the wire: eager and split data from the packet header,
// rendezvous and split from the RTS), holding exactly the message's bytes.
TEST_P(Messaging, ReceivePostedLargerThanTheMessageCompletesWithItsLength) {
  for (const char* proto : {"eager", "rendezvous", "split"}) {
    for (int bytes : {1, 3000, 20000}) {
      const auto r = run_scenario(
          "torus_pingpong",
          {counters(), "torus.network.x=2", "torus.network.y=2", "torus.network.z=2",
           std::string("workload.protocol=") + proto, "workload.bytes=" + std::to_string(bytes),
           "workload.receive_bytes=" + std::to_string(bytes + 4321), "workload.iterations=2"});
      ASSERT_TRUE(passed(r)) << proto << " " << bytes << " B: " << violations(r);
      EXPECT_TRUE(r["results"]["data_verified"].get<bool>()) << proto << " " << bytes;
      const auto& at_b = r["results"]["last_message_at_b"];
      EXPECT_EQ(at_b["bytes"].get<int>(), bytes) << proto;
      EXPECT_EQ(at_b["memory_fifo_bytes"].get<int>() + at_b["direct_put_bytes"].get<int>(), bytes)
          << proto;
    }
  }
}

// A message longer than the receive posted for it is reported as such, whatever the protocol,
// before any byte lands beyond the buffer.
TEST_P(Messaging, MessageLongerThanThePostedReceiveIsAReportedError) {
  for (const char* proto : {"eager", "rendezvous", "split"}) {
    const auto r = run_scenario("torus_pingpong",
                                {counters(), "torus.network.x=2", "torus.network.y=2",
                                 "torus.network.z=2", std::string("workload.protocol=") + proto,
                                 "workload.bytes=5000", "workload.receive_bytes=4000"});
    EXPECT_FALSE(passed(r)) << proto;
    EXPECT_NE(violations(r).find("is 5000 B; the posted receive has 4000 B"), std::string::npos)
        << proto << ": " << violations(r);
  }
}

TEST(MessagingInput, BadDistanceIsAnInputError) {
  const auto r = run_scenario("torus_pingpong", {"workload.hops=13"});
  ASSERT_TRUE(r.contains("error"));
  EXPECT_NE(r["error"].get<std::string>().find("farthest node of a 8x8x8 torus is 12 hops"),
            std::string::npos)
      << r["error"];
}

INSTANTIATE_TEST_SUITE_P(CounterBanks, SplitTransfer, ::testing::Values("tlm", "rtl"));
INSTANTIATE_TEST_SUITE_P(CounterBanks, Messaging, ::testing::Values("tlm", "rtl"));
