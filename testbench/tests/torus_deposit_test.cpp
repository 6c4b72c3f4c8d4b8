// The torus deposit bit: a packet to a node on its line lands at every node it passes, at the
// hop timing of a normal arrival, on the deterministic route, waiting when a node's reception
// cannot take it; the DMA receives each copy through the same counter, and refuses a deposit
// whose destination is not on a line with its node.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "hw/torus/network/torus_network.h"
#include "sw/hal/torus_dma.h"
#include "testbench/runner/torus_model.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"
#include "tlm/kernel/now.h"

using namespace hs;
using namespace hs::torus;
namespace tdma = hs::torus::dma;
namespace td = hs::fw::torus_dma;
using hs::testing::set_param;

namespace {

// An endpoint that records arrival times (ns) and refuses everything until `open_at_ns`.
struct Reception : NodeEndpoint, NetworkTimer {
  TorusNetwork* net = nullptr;
  double open_at_ns = 0;
  std::vector<double> at_ns;
  bool accept(const Packet&) override { return hs::now().to_seconds() * 1e9 >= open_at_ns; }
  void deliver(Packet* p) override {
    at_ns.push_back(hs::now().to_seconds() * 1e9);
    net->pool().give(p);
  }
  void injection_ready(int) override {}
  void on_timer(int node) override { net->reception_ready(node); }
};

// An 8-node line (a mesh, so node 7 is seven hops +x from node 0), one reception per node.
struct Line {
  NetworkConfig cfg;
  std::unique_ptr<TorusNetwork> net;
  std::vector<Reception> rx;
  Line() {
    cfg.x = 8;
    cfg.y = 1;
    cfg.z = 1;
    cfg.wrap = false;
    net = std::make_unique<TorusNetwork>("net", cfg);
    rx.resize(8);
    for (int i = 0; i < 8; ++i) {
      rx[i].net = net.get();
      net->attach(i, &rx[i]);
    }
    ParamRegistry::instance().finalize();
  }
  Packet* deposit(int src, int dest) {
    Packet* p = net->pool().take();
    p->src = src;
    p->dest = dest;
    p->payload_bytes = 240;
    p->chunks = static_cast<uint8_t>(cfg.chunks_for(240));
    p->vc_class = VcClass::Dynamic;  // the network routes it deterministically all the same
    p->deposit = true;
    return p;
  }
};

}  // namespace

TEST(TorusDeposit, APacketOnAnEightNodeLineLandsAtEveryNodeAtHopMultiples) {
  Line l;
  ASSERT_TRUE(l.net->inject(0, l.deposit(0, 7)));
  sc_core::sc_start();
  EXPECT_TRUE(l.rx[0].at_ns.empty()) << "the source keeps no copy";
  for (int k = 1; k <= 7; ++k) {
    ASSERT_EQ(l.rx[k].at_ns.size(), 1u) << "node " << k;
    // Nodes on the way take the copy behind their router pipeline; the destination as usual.
    const double expected =
        l.cfg.zero_load_latency_ns(k, 8) + (k < 7 ? l.cfg.router_latency_ns : 0.0);
    EXPECT_NEAR(l.rx[k].at_ns[0], expected, 0.01) << "node " << k;
  }
  EXPECT_EQ(l.net->delivered(), 1u);
  EXPECT_EQ(l.net->deposited_copies(), 6u);
  EXPECT_EQ(l.net->in_flight(), 0u);
  EXPECT_EQ(l.net->tokens_outstanding(), 0);
}

TEST(TorusDeposit, ADepositPacketTakesTheDeterministicRoute) {
  Line l;
  std::vector<int> dirs;
  l.net->observe_hops([&](const Packet&, int, int dir) { dirs.push_back(dir); });
  ASSERT_TRUE(l.net->inject(0, l.deposit(2, 6)));
  sc_core::sc_start();
  EXPECT_EQ(dirs, std::vector<int>(4, kXPlus));
  EXPECT_EQ(l.net->deposited_copies(), 3u);
  // The routers forward it on the escape VC only (dimension order), not the dynamic VCs.
  EXPECT_EQ(l.net->packet_hops(), 4u);
}

TEST(TorusDeposit, AFullReceptionOnTheWayHoldsThePacketUntilItHasRoom) {
  Line l;
  const double open = 5000;
  l.rx[3].open_at_ns = open;
  l.net->schedule(sc_core::sc_time(open, sc_core::SC_NS), &l.rx[3], 3);
  ASSERT_TRUE(l.net->inject(0, l.deposit(0, 7)));
  sc_core::sc_start();
  for (int k = 1; k <= 2; ++k) {
    EXPECT_NEAR(l.rx[k].at_ns[0], l.cfg.zero_load_latency_ns(k, 8) + l.cfg.router_latency_ns, 0.01);
  }
  // Node 3 takes its copy when it opens; the packet then goes on, arriving that much later.
  ASSERT_EQ(l.rx[3].at_ns.size(), 1u);
  EXPECT_GE(l.rx[3].at_ns[0], open);
  const double unblocked = l.cfg.zero_load_latency_ns(7, 8);
  ASSERT_EQ(l.rx[7].at_ns.size(), 1u);
  EXPECT_GT(l.rx[7].at_ns[0], open);
  EXPECT_GT(l.rx[7].at_ns[0], unblocked + 1000);
  EXPECT_EQ(l.net->deposited_copies(), 6u);
}

TEST(TorusDeposit, TheNetworkRejectsADepositPacketOffTheLine) {
  NetworkConfig cfg;
  cfg.x = 4;
  cfg.y = 2;
  cfg.z = 1;
  TorusNetwork net("net", cfg);
  Packet* p = net.pool().take();
  p->src = 0;
  p->dest = 5;  // (1,1,0): differs in x and y
  p->deposit = true;
  EXPECT_THROW(net.inject(0, p), std::logic_error);
}

namespace {

constexpr uint64_t kInjFifo = 0x10000, kSource = 0x100000, kTarget = 0x200000;
constexpr uint32_t kBytes = 4096, kRecCounter = 5, kInjCounter = 3;

// A torus of x by y with every node's reception counter kRecCounter armed over kTarget for
// kBytes, and `sender` run on node 0 once the others have set up.
struct DmaRun {
  runner::TorusModel* model = nullptr;
  DmaRun(int x, int y, std::function<void(fw::Hal&, const TorusShape&)> sender) {
    set_param("torus.network.x", x);
    set_param("torus.network.y", y);
    set_param("torus.network.z", 1);
    static runner::TorusModel m;
    model = &m;
    ParamRegistry::instance().finalize();
    const TorusShape shape = m.machine.shape();
    for (auto& node : m.machine.nodes) {
      const bool is_sender = node->id() == 0;
      node->core_list[0]->set_firmware([sender, shape, is_sender](fw::Hal& hal) {
        td::set_counter(hal, td::Bank::Reception, kRecCounter, kBytes, kTarget,
                        kTarget + kBytes - 1);
        if (!is_sender) return;
        std::vector<uint8_t> data(kBytes);
        for (uint32_t i = 0; i < kBytes; ++i) data[i] = static_cast<uint8_t>(i * 7 + 1);
        hal.store(kSource, data.data(), kBytes);
        hal.compute(20000);  // every node has set up by now
        sender(hal, shape);
      });
    }
  }
};

tdma::Descriptor deposit_put(const TorusShape& s, int dest) {
  tdma::Descriptor d = td::addressed_to(s, dest, 0, tdma::kVcDynamic);
  d.kind = tdma::kDirectPut;
  d.src = kSource;
  d.length = kBytes;
  d.inj_counter = kInjCounter;
  d.rec_counter = kRecCounter;
  td::set_deposit(d);
  return d;
}

void send(fw::Hal& hal, const tdma::Descriptor& d) {
  auto f = td::setup_injection_fifo(hal, 0, kInjFifo, 16 * sizeof(tdma::Descriptor), false);
  td::set_counter(hal, td::Bank::Injection, kInjCounter, d.length);
  td::inject(hal, f, d);
}

}  // namespace

TEST(TorusDeposit, EveryNodeOnTheWayReceivesTheDirectPutThroughItsCounter) {
  DmaRun run(8, 1, [](fw::Hal& hal, const TorusShape& s) { send(hal, deposit_put(s, 4)); });
  sc_core::sc_start();
  EXPECT_TRUE(CheckRegistry::instance().ok());
  auto& m = run.model->machine;
  for (int n = 1; n < 8; ++n) {
    const bool on_way = n <= 4;  // +x from node 0 to node 4 (half way round: ties go +)
    EXPECT_EQ(m.node(n).dma->reception_counters().value(kRecCounter), on_way ? 0u : kBytes)
        << "node " << n;
    if (!on_way) continue;
    std::vector<uint8_t> got(kBytes);
    m.node(n).dram->peek(kTarget, got.data(), kBytes);
    for (uint32_t i = 0; i < kBytes; ++i) {
      ASSERT_EQ(got[i], static_cast<uint8_t>(i * 7 + 1)) << "node " << n << " byte " << i;
    }
  }
  const uint32_t max = m.network->config().max_payload();
  EXPECT_EQ(m.network->deposited_copies(), 3u * ((kBytes + max - 1) / max)) << "3 nodes on the way";
}

TEST(TorusDeposit, TheDmaRefusesADepositWhoseDestinationIsOffTheLine) {
  DmaRun run(4, 2, [](fw::Hal& hal, const TorusShape& s) {
    send(hal, deposit_put(s, s.node({{1, 1, 0}})));
  });
  sc_core::sc_start();
  auto& m = run.model->machine;
  EXPECT_EQ(m.node(0).dma->error(), tdma::kBadDescriptor);
  const auto& v = CheckRegistry::instance().violations();
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].check, "torus DMA: injection descriptors are well formed");
  EXPECT_NE(v[0].message.find("node (0,0,0) injection FIFO 0: descriptor at 0x10000"),
            std::string::npos)
      << v[0].message;
  EXPECT_NE(v[0].message.find("deposit bit with destination (1,1,0)"), std::string::npos)
      << v[0].message;
  EXPECT_EQ(m.network->deposited_copies(), 0u);
}
