// Every torus checker rule proven to fire: each test breaks one rule on purpose, end to end
// (a test-only fault in the network or DMA model, or deliberately wrong firmware programming
// the DMA engine through the HAL), and asserts the run fails with exactly that check, by name.
// Each test runs in its own process (one SystemC elaboration per process).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "sw/hal/torus_dma.h"
#include "testbench/runner/simulation.h"
#include "testbench/runner/torus_model.h"
#include "testbench/support/child_process.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"

using namespace hs;
namespace tdma = hs::torus::dma;
namespace td = hs::fw::torus_dma;
using Rules = hs::checkers::TorusCheckers;
using hs::testing::set_param;

namespace {

// Node memory the test firmware uses.
constexpr uint64_t kInjFifo = 0x10000, kRecFifo = 0x20000, kRecBytes = 64 * tdma::kFifoSlot;
constexpr uint64_t kSource = 0x100000, kTarget = 0x200000, kTargetBytes = 0x10000;
constexpr uint32_t kCounter = 3;

// A 4x2x2 torus with every node ready to receive (reception FIFO 0 and reception counter 0
// over kTarget), and `sender` run on node 0 after the others have had time to set up.
struct TorusRun {
  runner::TorusModel* model = nullptr;

  explicit TorusRun(std::function<void(fw::Hal&, const torus::TorusShape&)> sender) {
    set_param("torus.network.x", 4);
    set_param("torus.network.y", 2);
    set_param("torus.network.z", 2);
    static runner::TorusModel m;
    model = &m;
    ParamRegistry::instance().finalize();
    const torus::TorusShape shape = m.machine.shape();
    for (auto& node : m.machine.nodes) {
      const bool is_sender = node->id() == 0;
      node->core_list[0]->set_firmware([sender, shape, is_sender](fw::Hal& hal) {
        td::setup_reception_fifo(hal, 0, kRecFifo, kRecBytes, false);
        td::set_counter(hal, td::Bank::Reception, 0, kTargetBytes, kTarget, kTarget + kTargetBytes);
        if (!is_sender) return;
        hal.compute(20000);  // every node has set up by now
        sender(hal, shape);
      });
    }
  }

  // Runs to the end (or the first violation) and returns the names of the failed checks.
  std::vector<std::string> failed_checks() {
    sc_core::sc_start();
    return CheckRegistry::instance().failed_checks();
  }
};

// A descriptor from kSource + `offset` to node `dest`'s reception FIFO 0 on the escape VC.
tdma::Descriptor to_node(const torus::TorusShape& s, int dest, uint32_t offset, uint32_t length,
                         uint8_t flags = 0) {
  tdma::Descriptor d = td::addressed_to(s, dest, 0, tdma::kVcDeterministic);
  d.src = kSource + offset;
  d.length = length;
  d.inj_counter = kCounter;
  d.flags = flags;
  return d;
}

// Two descriptors on one injection counter set to `counter`, in two injection FIFOs handed to
// the engine together, so it interleaves their packets from the first.
void two_streams(fw::Hal& hal, uint32_t counter, const tdma::Descriptor& a,
                 const tdma::Descriptor& b) {
  constexpr uint64_t kFifoBytes = 16 * sizeof(tdma::Descriptor);
  td::setup_injection_fifo(hal, 0, kInjFifo, kFifoBytes, false);
  td::setup_injection_fifo(hal, 1, kInjFifo + kFifoBytes, kFifoBytes, false);
  td::set_counter(hal, td::Bank::Injection, kCounter, counter);
  hal.store(kInjFifo, a);
  hal.store(kInjFifo + kFifoBytes, b);
  for (int f = 0; f < 2; ++f) {
    const uint64_t tail = torus::amap::kDmaRegs + tdma::kInjFifoBase +
                          static_cast<uint64_t>(f) * tdma::kInjFifoStride + tdma::kFifoTail;
    hal.reg_write(tail, kInjFifo + static_cast<uint64_t>(f) * kFifoBytes + sizeof a, 8);
  }
}

const std::vector<std::string> only(const char* check) {
  return {check};
}

// The network checks and the traffic workload's drain checks, as their reports name them.
constexpr const char* kTokensNeverNegative = "torus network: buffer tokens never negative";
constexpr const char* kEndpointAttached = "torus network: every destination node has an endpoint";
constexpr const char* kTokensReturn =
    "torus traffic: every buffer token returns once the network drains";
constexpr const char* kReachesItsNode = "torus traffic: packets reach the node they were sent to";

// A torus_traffic run on a 4x4x4 torus in a child process, with `fault` armed on its network
// before it starts. Returns the report. By default deterministic routing at twice the
// saturation load with small buffers, so that packets wait for tokens.
const std::vector<std::string> kSaturated = {"torus.network.routing=deterministic",
                                             "workload.load=2.0", "torus.network.vc_buffer=16"};
nlohmann::json traffic_with_fault(const std::function<void(torus::TorusNetwork&)>& fault,
                                  const std::vector<std::string>& sets = kSaturated) {
  return hs::testing::run_in_child([&] {
    runner::RunOptions o;
    o.scenario = "torus_traffic";
    o.sets = {"torus.network.x=4", "torus.network.y=4", "torus.network.z=4", "workload.warmup=2000",
              "workload.duration=10000"};
    o.sets.insert(o.sets.end(), sets.begin(), sets.end());
    o.quiet = true;
    runner::Simulation sim(o);
    auto* net = dynamic_cast<torus::TorusNetwork*>(sc_core::sc_find_object("torus.network"));
    if (!net) throw std::runtime_error("no torus.network in the model");
    fault(*net);
    std::ostringstream ignored;
    sim.run(ignored);
    return sim.report();
  });
}

std::vector<std::string> failed(const nlohmann::json& report) {
  std::vector<std::string> names;
  for (const auto& v : report["checks"]["violations"]) {
    const std::string name = v["check"].get<std::string>();
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

std::string message_of(const nlohmann::json& report, const char* check) {
  for (const auto& v : report["checks"]["violations"]) {
    if (v["check"] == check) return v["message"].get<std::string>();
  }
  return "";
}

}  // namespace

// Control: the harness itself breaks nothing, so each test below fails only by its fault.
TEST(TorusCheckerNegative, ControlRunWithoutAFaultPassesEveryCheck) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    auto f = td::setup_injection_fifo(hal, 0, kInjFifo, 16 * sizeof(tdma::Descriptor), false);
    td::set_counter(hal, td::Bank::Injection, kCounter, 1024);
    td::inject(hal, f, to_node(s, 2, 0, 512, tdma::kClaimFromCounter));
    td::inject(hal, f, to_node(s, 2, 0, 1024, tdma::kClaimFromCounter | tdma::kDescending));
  });
  EXPECT_TRUE(run.failed_checks().empty());
  EXPECT_EQ(run.model->checkers.split_transfers().size(), 1u);
}

TEST(TorusCheckerNegative, AHopAwayFromTheDestinationIsReportedAsNotMinimal) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    auto f = td::setup_injection_fifo(hal, 0, kInjFifo, 16 * sizeof(tdma::Descriptor), false);
    td::set_counter(hal, td::Bank::Injection, kCounter, 256);
    td::inject(hal, f, to_node(s, 1, 0, 256));
  });
  run.model->machine.network->fault_misroute_next_packet();
  EXPECT_EQ(run.failed_checks(), only(Rules::kMinimalHop));
}

TEST(TorusCheckerNegative, APacketEjectedShortOfItsDestinationIsReportedAsMisdelivered) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    auto f = td::setup_injection_fifo(hal, 0, kInjFifo, 16 * sizeof(tdma::Descriptor), false);
    td::set_counter(hal, td::Bank::Injection, kCounter, 256);
    td::inject(hal, f, to_node(s, 2, 0, 256));  // two hops: ejected after the first
  });
  run.model->machine.network->fault_eject_next_packet_early();
  EXPECT_EQ(run.failed_checks(), only(Rules::kDeliveredAtDestination));
}

TEST(TorusCheckerNegative, ACounterDecrementedByMoreThanThePayloadIsReported) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    auto f = td::setup_injection_fifo(hal, 0, kInjFifo, 16 * sizeof(tdma::Descriptor), false);
    td::set_counter(hal, td::Bank::Injection, kCounter, 1024);
    td::inject(hal, f, to_node(s, 1, 0, 512));
  });
  run.model->machine.node(0).dma->fault_skew_next_decrement(16);
  EXPECT_EQ(run.failed_checks(), only(Rules::kExactDecrement));
}

// Wrong firmware: two ascending descriptors over the same bytes claim from one counter, so
// the second stream restarts where the first began.
TEST(TorusCheckerNegative, TwoAscendingStreamsOnOneCounterAreNotConsecutive) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    two_streams(hal, 2048, to_node(s, 1, 0, 1024, tdma::kClaimFromCounter),
                to_node(s, 1, 0, 1024, tdma::kClaimFromCounter));
  });
  EXPECT_EQ(run.failed_checks(), only(Rules::kAscendingConsecutive));
}

TEST(TorusCheckerNegative, TwoDescendingStreamsOnOneCounterAreNotConsecutive) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    const uint8_t down = tdma::kClaimFromCounter | tdma::kDescending;
    two_streams(hal, 2048, to_node(s, 1, 0, 1024, down), to_node(s, 1, 0, 1024, down));
  });
  EXPECT_EQ(run.failed_checks(), only(Rules::kDescendingConsecutive));
}

// Wrong firmware: the counter holds twice the buffer, so each stream sends the whole buffer
// and they cross.
TEST(TorusCheckerNegative, StreamsClaimingMoreThanTheBufferOverlap) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    two_streams(hal, 2048, to_node(s, 1, 0, 1024, tdma::kClaimFromCounter),
                to_node(s, 1, 0, 1024, tdma::kClaimFromCounter | tdma::kDescending));
  });
  EXPECT_EQ(run.failed_checks(), only(Rules::kNoOverlap));
}

// Wrong firmware: the counter holds less than the buffer, so it reaches zero with a gap.
TEST(TorusCheckerNegative, ACounterShortOfTheBufferLeavesTheStreamsApartAtZero) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    two_streams(hal, 512, to_node(s, 1, 0, 1024, tdma::kClaimFromCounter),
                to_node(s, 1, 0, 1024, tdma::kClaimFromCounter | tdma::kDescending));
  });
  EXPECT_EQ(run.failed_checks(), only(Rules::kMeetAtZero));
}

// Wrong firmware: a claiming direct put posted by the core itself, with no acknowledgement
// (remote get) ever delivering it.
TEST(TorusCheckerNegative, ADirectPutWithoutARemoteGetIsReported) {
  TorusRun run([](fw::Hal& hal, const torus::TorusShape& s) {
    auto f = td::setup_injection_fifo(hal, 0, kInjFifo, 16 * sizeof(tdma::Descriptor), false);
    td::set_counter(hal, td::Bank::Injection, kCounter, 512);
    tdma::Descriptor d = to_node(s, 1, 0, 512, tdma::kClaimFromCounter | tdma::kDescending);
    d.kind = tdma::kDirectPut;
    d.rec_counter = 0;
    td::inject(hal, f, d);
  });
  EXPECT_EQ(run.failed_checks(), only(Rules::kPutAfterRemoteGet));
}

// The fault-free traffic run the four tests below break: every packet and token comes back.
TEST(TorusCheckerNegative, ControlTrafficRunWithoutAFaultPassesEveryCheck) {
  const nlohmann::json r = traffic_with_fault([](torus::TorusNetwork&) {});
  ASSERT_TRUE(r.contains("checks")) << r.dump();
  EXPECT_TRUE(failed(r).empty()) << r["checks"]["violations"].dump();
  EXPECT_GT(r["stats"]["torus.network"]["token_waits"].get<double>(), 0)
      << "the run must block packets on tokens for the overrun fault to find one";
}

TEST(TorusCheckerNegative, APacketSentWithoutEnoughTokensDrivesThemNegative) {
  const nlohmann::json r =
      traffic_with_fault([](torus::TorusNetwork& net) { net.fault_overrun_next_blocked_packet(); });
  ASSERT_TRUE(r.contains("checks")) << r.dump();
  EXPECT_EQ(failed(r), only(kTokensNeverNegative));
  EXPECT_NE(message_of(r, kTokensNeverNegative).find("tokens"), std::string::npos);
  EXPECT_LT(r["stats"]["torus.network"]["min_free_tokens"].get<double>(), 0);
}

// Adaptive below saturation: the first token return is on a dynamic VC, where one chunk short
// blocks nothing. (On an escape VC it would: by default a full-size packet from an injection
// FIFO enters it only with all its tokens free, so that FIFO would wait forever.)
TEST(TorusCheckerNegative, ALeakedTokenIsReportedOnceTheNetworkDrains) {
  const nlohmann::json r =
      traffic_with_fault([](torus::TorusNetwork& net) { net.fault_leak_next_token(); },
                         {"torus.network.routing=adaptive", "workload.load=0.5"});
  ASSERT_TRUE(r.contains("checks")) << r.dump();
  EXPECT_EQ(failed(r), only(kTokensReturn));
  EXPECT_EQ(message_of(r, kTokensReturn), "1 chunks of tokens never came back");
  EXPECT_EQ(r["stats"]["torus.network"]["tokens_outstanding"].get<double>(), 1);
}

// The traffic generator counts what lands at the wrong node (the DMA engine is not attached,
// so the routing checker's delivery rule does not see these packets).
TEST(TorusCheckerNegative, TrafficEjectedShortOfItsDestinationIsReportedAsMisdelivered) {
  const nlohmann::json r =
      traffic_with_fault([](torus::TorusNetwork& net) { net.fault_eject_next_packet_early(); });
  ASSERT_TRUE(r.contains("checks")) << r.dump();
  EXPECT_EQ(failed(r), only(kReachesItsNode));
  EXPECT_EQ(message_of(r, kReachesItsNode), "1 packets were delivered to the wrong node");
}

// A packet for a node with nothing at its reception port.
TEST(TorusCheckerNegative, APacketForANodeWithoutAnEndpointIsReported) {
  torus::NetworkConfig cfg;
  cfg.x = 2;
  cfg.y = 1;
  cfg.z = 1;
  torus::TorusNetwork net("net", cfg);
  torus::Packet* p = net.pool().take();
  p->src = 0;
  p->dest = 1;
  p->chunks = 1;
  ASSERT_TRUE(net.inject(0, p));
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
  EXPECT_EQ(CheckRegistry::instance().failed_checks(), only(kEndpointAttached));
}
