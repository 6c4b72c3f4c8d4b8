// The AMI eager SEND with receiver STOP: every testable behaviour of the
// spec as a named test, randomized STOP timings and receiver readiness over hundreds of
// messages per variant, and data integrity in every run. The AMI checker is armed in all of
// them, so a run that passes has also kept every invariant it asserts.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "sw/ami/ami.h"
#include "testbench/checkers/ami_checker.h"
#include "testbench/support/cycle_hal.h"
#include "testbench/support/scenario_run.h"

using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;
using nlohmann::json;
namespace ami = hs::fw::ami;

namespace {

// A 2x2x2 torus, node 0 to a neighbour: small and quick to elaborate.
std::vector<std::string> small(std::vector<std::string> sets) {
  std::vector<std::string> s = {"torus.network.x=2", "torus.network.y=2", "torus.network.z=2",
                                "workload.hops=1"};
  s.insert(s.end(), sets.begin(), sets.end());
  return s;
}

json run_ok(const std::vector<std::string>& sets, uint64_t seed = 1) {
  json r = run_scenario("torus_ami", small(sets), seed);
  EXPECT_TRUE(passed(r)) << violations(r);
  EXPECT_TRUE(r["results"].value("data_verified", false));
  EXPECT_EQ(r["results"].value("checker_violations", 1), 0);
  return r["results"];
}

struct Case {
  const char* protocol;
  const char* receive;
};

class AmiEveryVariant : public ::testing::TestWithParam<Case> {};

}  // namespace

// 1. For every variant and receiver readiness, the receive buffers equal the send buffers and
// no byte is committed twice (the checker); discarded copies never reach the application.
TEST_P(AmiEveryVariant, ReceiveBufferEqualsSendBuffer) {
  const Case c = GetParam();
  const json w = run_ok({std::string("workload.ami.protocol=") + c.protocol,
                         std::string("workload.receive=") + c.receive, "workload.messages=3",
                         "workload.bytes=40000", "workload.ami.eager_limit=65536"});
  EXPECT_EQ(w["completion_ns"].size(), 3u);
  for (const auto& m : w["protocol_trace"]) {
    EXPECT_TRUE(m["receive_done"].get<bool>());
    EXPECT_TRUE(m["send_done"].get<bool>());
    EXPECT_EQ(m["committed_by_copy"].get<uint64_t>() + m["committed_by_rdma"].get<uint64_t>(),
              m["size"].get<uint64_t>());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ami, AmiEveryVariant,
    ::testing::Values(Case{"A", "early"}, Case{"A", "late"}, Case{"A", "delayed"},
                      Case{"B", "early"}, Case{"B", "late"}, Case{"B", "delayed"},
                      Case{"C", "early"}, Case{"C", "late"}, Case{"C", "delayed"},
                      Case{"eager", "early"}, Case{"eager", "late"}, Case{"rendezvous", "late"}),
    [](const auto& param_info) {
      return std::string(param_info.param.protocol) + "_" + param_info.param.receive;
    });

// 2. After the sender processes STOP it posts no further eager packet for that message: E at
// the STOP equals every eager byte it ever posted.
TEST(AmiStop, NoEagerPacketAfterStop) {
  for (const char* p : {"A", "B", "C"}) {
    const json w = run_ok({std::string("workload.ami.protocol=") + p, "workload.receive=late",
                           "workload.messages=3", "workload.bytes=200000"});
    for (const auto& m : w["protocol_trace"]) {
      ASSERT_GE(m["eager_at_stop"].get<int64_t>(), 0) << p;
      EXPECT_EQ(m["eager_at_stop"].get<uint64_t>(), m["eager_posted"].get<uint64_t>()) << p;
      EXPECT_LT(m["eager_posted"].get<uint64_t>(), m["size"].get<uint64_t>()) << p;
    }
  }
}

// 3. B: the CTS carries E and the final GET covers exactly [E, size - B).
TEST(AmiVariantB, CtsCarriesEagerBytesAndFinalGetCoversTheGap) {
  const json w = run_ok({"workload.ami.protocol=B", "workload.receive=early", "workload.messages=2",
                         "workload.bytes=300000"});
  for (const auto& m : w["protocol_trace"]) {
    ASSERT_NE(m["stop"], "none");
    EXPECT_EQ(m["cts"], m["eager_at_stop"]);
    const auto bottom = m["bottom_lo"].get<int64_t>();
    EXPECT_LT(bottom, m["size"].get<int64_t>()) << "bottom GETs were posted";
    EXPECT_EQ(m["final"][0].get<int64_t>(), m["cts"].get<int64_t>());
    EXPECT_EQ(m["final"][1].get<int64_t>(), bottom);
  }
}

// 3. C: the PUT covers exactly [E, size) into the buffer the STOP named.
TEST(AmiVariantC, PutCoversTheRestIntoTheNamedBuffer) {
  const json w = run_ok({"workload.ami.protocol=C", "workload.receive=late", "workload.messages=2",
                         "workload.bytes=300000"});
  for (const auto& m : w["protocol_trace"]) {
    EXPECT_EQ(m["put"][0], m["eager_at_stop"]);
    EXPECT_EQ(m["put"][1], m["size"]);
    EXPECT_EQ(m["committed_by_rdma"].get<int64_t>(),
              m["size"].get<int64_t>() - m["eager_at_stop"].get<int64_t>());
  }
}

// 4. B: bottom GETs land while top eager packets are still arriving.
TEST(AmiVariantB, BottomGetsInFlightWhileTopEagerArrives) {
  const json w = run_ok({"workload.ami.protocol=B", "workload.receive=early", "workload.messages=1",
                         "workload.bytes=1000000"});
  const auto& m = w["protocol_trace"][0];
  ASSERT_GT(m["first_rdma_ns"].get<double>(), 0);
  EXPECT_LT(m["first_rdma_ns"].get<double>(), m["last_eager_ns"].get<double>());
  EXPECT_GT(m["committed_by_copy"].get<uint64_t>(), 0u);
}

// B: a bottom GET can still wait in the sender's RDMA FIFO when the top stream has already
// moved every byte and the message has completed. Its direct put claims from the message's
// send counter, so that counter must not serve another message until the put has run (and
// claimed nothing). Many short messages with few FIFO slots leave such GETs behind often; each
// later message must still send every byte exactly once from its own stream ends.
TEST(AmiVariantB, LeftoverBottomGetsNeverClaimFromALaterMessage) {
  int leftover = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const json w =
        run_ok({"workload.ami.protocol=B", "workload.receive=early", "workload.random_sizes=true",
                "workload.messages=8", "workload.window=3", "workload.ami.slots=2"},
               seed);
    const auto& trace = w["protocol_trace"];
    ASSERT_EQ(trace.size(), 8u) << "seed " << seed;
    for (size_t i = 0; i + 1 < trace.size(); ++i) {
      // Bottom GETs posted, none of them moved a byte: they were left behind.
      leftover += trace[i]["gets"].get<int>() > 0 && trace[i]["committed_by_rdma"] == 0;
    }
  }
  EXPECT_GE(leftover, 6) << "the runs leave bottom GETs behind before later messages";
}

// 5. The STOP decision reads only data-flow state: an eager limit changes nothing, and a
// message of any size starts eager.
TEST(AmiStopDecision, NoEagerLimitAndAnySizeStartsEager) {
  for (const char* p : {"A", "B", "C"}) {
    const auto a = run_scenario(
        "torus_ami", small({std::string("workload.ami.protocol=") + p, "workload.bytes=4194304",
                            "workload.messages=1", "workload.ami.eager_limit=0"}));
    const auto b = run_scenario(
        "torus_ami", small({std::string("workload.ami.protocol=") + p, "workload.bytes=4194304",
                            "workload.messages=1", "workload.ami.eager_limit=16777216"}));
    ASSERT_TRUE(passed(a)) << violations(a);
    EXPECT_EQ(a["results"], b["results"]) << p;
    EXPECT_EQ(a["simulated_time_ns"], b["simulated_time_ns"]) << p;
    EXPECT_GT(a["results"]["protocol_trace"][0]["eager_posted"].get<uint64_t>(), 0u) << p;
  }
}

// 6. A RECEIVE posted early with room to spare (temporary space, adapter buffer, core): no
// STOP, the message completes eager. With the default levels, small messages; with the
// processor level off, larger ones too.
TEST(AmiStopDecision, ReceivePostedEarlyCompletesEager) {
  for (const char* p : {"A", "B", "C"}) {
    for (const auto& [bytes, extra] :
         {std::pair<int, std::string>{1500, "workload.ami.stop.link_utilisation=2"},
          std::pair<int, std::string>{8000, "workload.ami.stop.processor_utilisation=2"}}) {
      const json w =
          run_ok({std::string("workload.ami.protocol=") + p, "workload.receive=early",
                  "workload.messages=4", "workload.bytes=" + std::to_string(bytes), extra});
      for (const auto& [cause, n] : w["stops"].items()) EXPECT_EQ(n, 0) << p << " " << cause;
      EXPECT_EQ(w["rdma_bytes"], 0) << p;
      EXPECT_EQ(w["eager_bytes_kept"], 4 * bytes) << p;
    }
  }
}

// 7. Temporary space is never exceeded; overflow causes STOP (and, in A, discards).
TEST(AmiTempSpace, OverflowStopsNeverCorrupts) {
  for (const char* p : {"A", "B", "C"}) {
    const json w =
        run_ok({std::string("workload.ami.protocol=") + p, "workload.receive=delayed",
                "workload.receive_delay=30000", "workload.window=4", "workload.messages=12",
                "workload.random_sizes=true", "workload.bytes=30000",
                "workload.ami.temp_bytes=16384", "workload.ami.stop.processor_utilisation=2"});
    EXPECT_LE(w["temp_peak_bytes"].get<uint64_t>(), 16384u) << p;
    EXPECT_GT(w["stops"]["temp_space"].get<uint64_t>(), 0u) << p;
    if (std::string(p) == "A") {
      EXPECT_GT(w["eager_bytes_discarded"].get<uint64_t>(), 0u);
    }
  }
}

// 8. A's GET starts no earlier than the condition change that allows it (the RECEIVE).
TEST(AmiVariantA, GetWaitsForTheReceive) {
  const json w =
      run_ok({"workload.ami.protocol=A", "workload.receive=delayed", "workload.receive_delay=40000",
              "workload.messages=3", "workload.bytes=100000"});
  for (size_t i = 0; i < w["per_message"].size(); ++i) {
    const double posted = w["per_message"][i]["receive_posted_ns"];
    const double first = w["protocol_trace"][i]["first_rdma_ns"];
    ASSERT_GT(first, 0);
    EXPECT_GE(first, posted);
    EXPECT_GE(w["protocol_trace"][i]["stop_ns"].get<double>(), 0);
  }
}

// 9. Callback discipline and the FIFO bound hold (the checker asserts them on every
// descriptor); SEND done comes after the ACK; with one slot everything still completes.
TEST(AmiCallbacks, DisciplineHoldsEvenWithOneSlot) {
  for (const char* slots : {"1", "16"}) {
    const auto r = run_scenario(
        "torus_ami",
        small({"workload.ami.protocol=B", "workload.receive=random", "workload.messages=8",
               "workload.window=3", std::string("workload.ami.slots=") + slots}));
    ASSERT_TRUE(passed(r)) << violations(r);
    namespace rules = hs::checkers::ami_rules;
    EXPECT_GT(hs::testing::evaluations(r, rules::kFifoBound), 10u);
    EXPECT_GT(hs::testing::evaluations(r, rules::kCalledAfterCounter), 10u);
    EXPECT_GT(hs::testing::evaluations(r, rules::kPendingCount), 10u);
    for (const auto& m : r["results"]["protocol_trace"]) {
      EXPECT_TRUE(m["acked"].get<bool>());
      EXPECT_TRUE(m["send_done"].get<bool>());
    }
  }
}

// 10. Posting is non-blocking: SEND, RECEIVE and GET return having moved no payload (the HAL
// here fails any load or store) and put nothing in the FIFO.
namespace {
class CountingAdapter : public ami::Adapter {
 public:
  int injected = 0;
  void init() override {}
  int slots() const override { return 4; }
  uint64_t transfer_counter() override { return 0; }
  void inject(const ami::Transfer&) override { ++injected; }
  bool peek(ami::Arrival&) override { return false; }
  void pop() override {}
  double receive_fill() override { return 0; }
  uint32_t max_payload() const override { return 240; }
  uint64_t bytes_received() override { return 0; }
  double link_bytes_per_second() const override { return 0; }
  int open_rx_counter(uint64_t, uint32_t, uint32_t) override { return 1; }
  uint32_t rx_counter_offset(int, uint64_t) const override { return 0; }
  uint32_t rx_counter_value(int) override { return 1; }
  void rx_counter_sub(int, uint32_t) override {}
  void close_rx_counter(int) override {}
  int open_tx_counter(uint32_t) override { return 1; }
  void close_tx_counter(int) override {}
  int control_counter() const override { return 0; }
};
}  // namespace

TEST(AmiPosting, ReturnsBeforeAnyPayloadMoves) {
  hs::testing::CycleHal hal;
  CountingAdapter adapter;
  ami::Ami a(hal, adapter, ami::AmiConfig{}, 0);
  a.init();
  bool done = false;
  a.send(1, 0x1000, 1 << 20, 7, [&] { done = true; });
  a.receive(1, 8, 0x2000, 4096, [&](const ami::RecvInfo&) { done = true; });
  a.get(1, 0x3000, 0x4000, 512, [&] { done = true; });
  EXPECT_EQ(adapter.injected, 0);
  EXPECT_FALSE(done);
  EXPECT_EQ(hal.spent, 3 * ami::AmiConfig{}.post_cycles);
}

// 11. Origin and target on the same node work through the shared-memory adapter.
TEST(AmiSharedMemory, EveryProtocolBetweenTwoCores) {
  for (const char* p : {"A", "B", "C", "eager", "rendezvous"}) {
    const json w =
        run_ok({"workload.hops=0", std::string("workload.ami.protocol=") + p,
                "workload.receive=random", "workload.messages=6", "workload.random_sizes=true",
                "workload.bytes=120000", "workload.ami.eager_limit=8192"});
    EXPECT_EQ(w["adapter"], "shared_memory");
  }
}

// Through shared memory, A's eager packets queued when the last ACK arrives must not wait for
// reception entries at a receiver that has finished and stopped draining them.
TEST(AmiSharedMemory, LastSendCompletesAfterTheReceiverFinishes) {
  const json w = run_ok(
      {"workload.hops=0", "torus.network.routing=adaptive", "torus.node.dma.counters=tlm",
       "workload.ami.protocol=A", "workload.ami.slots=64", "workload.ami.stop.unexpected=true",
       "workload.ami.temp_bytes=0", "workload.ami.eager_packet=1024", "workload.ami.eager_growth=1",
       "workload.ami.bottom_get=256", "workload.ami.bottom_share=1", "workload.bytes=262144",
       "workload.messages=4", "workload.random_sizes=false", "workload.receive=random",
       "workload.receive_delay=0", "workload.receiver_load=0.9", "workload.window=8",
       "sim.time_limit=1e8"},
      23);
  ASSERT_EQ(w["protocol_trace"].size(), 4u);
  for (const auto& m : w["protocol_trace"]) {
    EXPECT_TRUE(m["receive_done"].get<bool>());
    EXPECT_TRUE(m["send_done"].get<bool>()) << m.dump();
  }
}

// 12. A STOP that arrives after every eager byte was posted: E = size, no RDMA, one
// completion.
TEST(AmiStop, AfterTheLastEagerByte) {
  for (const char* p : {"B", "C"}) {
    const json w =
        run_ok({std::string("workload.ami.protocol=") + p, "workload.receive=late",
                "workload.ami.stop.unexpected=true", "workload.messages=3", "workload.bytes=2000"});
    EXPECT_EQ(w["rdma_bytes"], 0) << p;
    for (const auto& m : w["protocol_trace"]) {
      EXPECT_EQ(m["stop"], "unexpected");
      EXPECT_EQ(m["eager_at_stop"], m["size"]);
      EXPECT_EQ(m["committed_by_rdma"], 0);
      EXPECT_EQ(m["put"][0], -1);
      EXPECT_EQ(m["final"][0], -1);
    }
  }
}

// Each data-flow condition is a parameter and observable in the results.
TEST(AmiStopDecision, EachConditionCanTrigger) {
  const json unexpected = run_ok({"workload.receive=late", "workload.ami.stop.unexpected=true",
                                  "workload.bytes=20000", "workload.messages=2"});
  EXPECT_EQ(unexpected["stops"]["unexpected"], 2);
  const json adapter =
      run_ok({"workload.receive=early", "workload.ami.stop.adapter_fill=0", "workload.bytes=20000",
              "workload.messages=2", "workload.ami.stop.processor_utilisation=2"});
  EXPECT_GT(adapter["stops"]["adapter_buffer"].get<int>(), 0);
  const json link =
      run_ok({"workload.receive=early", "workload.ami.stop.link_utilisation=0.2",
              "workload.bytes=200000", "workload.messages=1",
              "workload.ami.stop.processor_utilisation=2", "workload.ami.stop.window=5000"});
  EXPECT_EQ(link["stops"]["link_utilisation"], 1);
  const json cpu = run_ok({"workload.receive=early", "workload.receiver_load=0.95",
                           "workload.bytes=20000", "workload.messages=1"});
  EXPECT_EQ(cpu["stops"]["processor_utilisation"], 1);
  const json temp =
      run_ok({"workload.receive=late", "workload.bytes=200000", "workload.messages=1"});
  EXPECT_EQ(temp["stops"]["temp_space"], 1);
}

// Randomized: many messages per run, each with its own size, readiness and delay, in flight
// together, across several run seeds and a randomly drawn STOP configuration per seed.
class AmiRandomized : public ::testing::TestWithParam<const char*> {};

TEST_P(AmiRandomized, DataAndInvariantsOverManySeeds) {
  uint64_t messages = 0, stopped = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 rng(seed * 1000 + GetParam()[0]);
    const std::vector<std::string> sets = {
        std::string("workload.ami.protocol=") + GetParam(),
        "workload.receive=random",
        "workload.receive_delay=" + std::to_string(rng() % 40000),
        "workload.messages=50",
        "workload.random_sizes=true",
        "workload.bytes=" + std::to_string(2000 + rng() % 120000),
        "workload.window=" + std::to_string(1 + rng() % 4),
        "workload.ami.slots=" + std::to_string(1 + rng() % 16),
        "workload.ami.temp_bytes=" + std::to_string(4096 + rng() % 60000),
        "workload.ami.eager_packet=" + std::to_string(256 + rng() % 4000),
        "workload.ami.eager_growth=" + std::to_string(1 + rng() % 2),
        "workload.ami.stop.adapter_fill=" + std::to_string(0.01 * (rng() % 120)),
        "workload.hops=" + std::to_string(seed == 4 ? 0 : 1)};
    const json w = run_ok(sets, seed);
    messages += w["messages"].get<uint64_t>();
    for (const auto& [cause, n] : w["stops"].items()) stopped += n.get<uint64_t>();
  }
  EXPECT_EQ(messages, 200u);
  EXPECT_GT(stopped, 20u) << "the random configurations exercise STOP";
}

INSTANTIATE_TEST_SUITE_P(Ami, AmiRandomized, ::testing::Values("A", "B", "C"));

TEST(AmiInput, BadValuesAreInputErrors) {
  const auto far = run_scenario("torus_ami", small({"workload.hops=5"}));
  ASSERT_TRUE(far.contains("error"));
  EXPECT_NE(far["error"].get<std::string>().find("workload.hops = 5"), std::string::npos);
  const auto proto = run_scenario("torus_ami", small({"workload.ami.protocol=D"}));
  ASSERT_TRUE(proto.contains("error"));
  EXPECT_NE(proto["error"].get<std::string>().find("workload.ami.protocol"), std::string::npos);
}

// The eager baseline's credits are known before the run: too little temporary space for the
// largest eager message is an input error, and enough runs.
TEST(AmiInput, EagerCreditsTooFewForTheLimitAreRefusedBeforeTheRun) {
  const auto r = run_scenario("torus_ami",
                              small({"workload.ami.protocol=eager", "workload.ami.temp_bytes=0"}));
  ASSERT_TRUE(r.contains("error")) << r.dump();
  const std::string e = r["error"].get<std::string>();
  EXPECT_NE(e.find("workload.ami.temp_bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("workload.ami.eager_limit"), std::string::npos) << e;
  EXPECT_NE(e.find("gives 0 credits"), std::string::npos) << e;
  run_ok({"workload.ami.protocol=eager", "workload.ami.temp_bytes=65536", "workload.messages=3",
          "workload.bytes=4096"});
}
