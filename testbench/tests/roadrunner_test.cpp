// The TriBlade as a topology (node0.topology = roadrunner): what it builds, what it refuses,
// the whole path's latency and bandwidth against the sum of its stages, interrupts and memory
// across the two sockets, and every hybrid scenario running on it with its data verified.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "hw/hybrid/hybrid_node.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"

using namespace hs;
using hs::hybrid::HybridNode;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::set_param;
using hs::testing::violations;
namespace amap = hs::hybrid::amap;
using Json = nlohmann::json;

namespace {
const std::string kRoadrunner = "node0.topology=roadrunner";

double result(const Json& r, const char* key) {
  return r["results"][key].get<double>();
}
}  // namespace

TEST(Roadrunner, BuildsTheTriBlade) {
  set_param("node0.topology", "roadrunner");
  auto node = make_hybrid_node();
  EXPECT_EQ(node->topology(), HybridNode::Topology::Roadrunner);
  EXPECT_EQ(node->host->core_list.size(), 4u);  // two dual-core Opterons
  EXPECT_EQ(node->host->sockets(), 2);
  ASSERT_EQ(node->accelerators.size(), 4u);  // two QS22 blades of two PowerXCell 8i
  EXPECT_EQ(node->ht_.size(), 2u);           // a HyperTransport link per socket
  EXPECT_EQ(node->bridges_.size(), 2u);      // an HT-to-PCIe bridge per socket
  EXPECT_EQ(node->io_bridges_.size(), 4u);   // a Cell-side bridge per accelerator
  EXPECT_EQ(std::string(node->bridges_[1]->name()), "node0.bridge1");
  EXPECT_EQ(std::string(node->io_bridges_[3]->name()), "node0.iobridge3");
  ASSERT_TRUE(node->accelerators[2]->ioif0);
  EXPECT_EQ(std::string(node->accelerators[2]->ioif0->name()), "node0.acc2.ioif0");
  EXPECT_FALSE(node->accelerators[0]->dma);  // the engine is in the Cell-side bridge
  EXPECT_EQ(node->accelerator_dma(1), &node->io_bridges_[1]->dma());
  // The TriBlade's clocks and widths.
  EXPECT_DOUBLE_EQ(node->ht_[0]->config().clock_hz, 1.0e9);
  EXPECT_EQ(node->ht_[0]->config().width, 16);
  EXPECT_EQ(node->pcie(3, 0).config().gen, 1);
  EXPECT_EQ(node->pcie(3, 0).config().lanes, 8);
  EXPECT_EQ(node->host->dram->size() + node->host->dram1->size(), uint64_t{16} << 30);
}

TEST(Roadrunner, RefusesAnotherShapeNamingTheParameter) {
  const std::vector<std::pair<std::string, int>> shapes = {{"node0.accelerators_per_core", 2},
                                                           {"node0.pcie_links_per_accelerator", 2},
                                                           {"node0.host.sockets", 4},
                                                           {"node0.host.cores_per_socket", 4}};
  for (const auto& [param, value] : shapes) {
    const Json r = run_scenario("default", {kRoadrunner, param + "=" + std::to_string(value)});
    ASSERT_TRUE(r.contains("error")) << r.dump();  // refused before the run
    EXPECT_NE(r["error"].get<std::string>().find("parameter '" + param + "'"), std::string::npos)
        << r.dump();
  }
}

TEST(Roadrunner, APostedWriteAndAReadCrossEveryStage) {
  // The same program on both topologies: the TriBlade's path is the direct one plus the stages
  // it adds, each with its documented delay (the Cell's EIB and memory are the same on both).
  const Json direct = run_scenario("host_path", {"workload.bytes=4KiB"});
  const Json rr = run_scenario("host_path", {"workload.bytes=4KiB", kRoadrunner});
  ASSERT_TRUE(passed(direct)) << violations(direct);
  ASSERT_TRUE(passed(rr)) << violations(rr);
  ASSERT_TRUE(rr["results"]["verified"].get<bool>());
  const double ht_rate = 4.0e9 * 512 / 516;
  const double ns = 1e9;
  // Added one way by a posted 8-byte write: HyperTransport (a 12-byte request with the 64-bit
  // address extension, 8 bytes of data, 10 ns), the HT-to-PCIe bridge (100 ns), the Cell-side
  // bridge's switch (50 ns and a cycle at 500 MHz before the data's head is through) and the
  // I/O interface (8 bytes at 5 GB/s and 10 ns). The PCIe link and the northbridge are on both
  // paths.
  const double added_write = 20 / ht_rate * ns + 10 + 100 + 50 + 2 + 8 / 5e9 * ns + 10;
  const double w_direct = result(direct, "write_one_way_ns"), w_rr = result(rr, "write_one_way_ns");
  // The EIB runs on its bus clock: the same write may wait up to one cycle (0.625 ns) more or
  // less for its edge on either path.
  EXPECT_NEAR(w_rr - w_direct, added_write, 0.7) << w_direct << " ns direct, " << w_rr << " ns";
  // A read adds: a 12-byte request and a 12-byte response (8 bytes of data) on
  // HyperTransport, 10 ns each way; the HT-to-PCIe bridge each way; the switch's pass and the
  // cycle its data ends after the answer; the interface's crossing each way and the data on it.
  const double added_read =
      (12 + 12) / ht_rate * ns + 2 * 10 + 2 * 100 + 50 + 2 + 2 * 10 + 8 / 5e9 * ns;
  const double r_direct = result(direct, "read_round_trip_ns");
  const double r_rr = result(rr, "read_round_trip_ns");
  EXPECT_NEAR(r_rr - r_direct, added_read, 1.3) << r_direct << " ns direct, " << r_rr << " ns";
}

TEST(Roadrunner, DmaStreamsBothWaysNoFasterThanTheNarrowestStageAllows) {
  const Json rr = run_scenario("host_path", {"workload.bytes=1MiB", kRoadrunner});
  ASSERT_TRUE(passed(rr)) << violations(rr);
  ASSERT_TRUE(rr["results"]["verified"].get<bool>());
  // Host to Cell: completions of 64 bytes (the bridge returns each HyperTransport response as
  // one), 84 bytes each on the PCIe wire. Cell to host: 256-byte MWrs, 276 bytes each.
  const double to_cell_bound = 2.0 * 64 / 84, to_host_bound = 2.0 * 256 / 276;
  const double to_cell = result(rr, "host_to_cell_GBps"), to_host = result(rr, "cell_to_host_GBps");
  EXPECT_LT(to_cell, to_cell_bound);
  EXPECT_LT(to_host, to_host_bound);
  // The engine keeps two chunk reads in flight and writes while it reads: within the links'
  // own data-link packets (ACKs and UpdateFCs share the completions' wire) of the bound.
  EXPECT_GT(to_cell, 0.95 * to_cell_bound);
  EXPECT_GT(to_host, 0.95 * to_host_bound);
}

TEST(Roadrunner, TheBridgeCompletesReadsAsThePcieLinksCompleterRuleSays) {
  // The bridge gathers its 64-byte HyperTransport responses into the completions the PCIe
  // link's rule gives: 128-byte ones at a 128-byte read completion boundary, 256-byte ones
  // (the max payload) when completions split at it. The host-to-Cell stream is the engine's
  // 512-byte reads: completions of n bytes take n + 20 on the wire, and the requests' ACK and
  // UpdateFC DLLPs (10 bytes a request) share that wire.
  const auto cplds = [](const Json& r) {
    return r["stats"]["node0.pcie0.down"]["tlps_cpld"].get<double>();
  };
  const Json base = run_scenario("host_path", {"workload.bytes=1MiB", kRoadrunner});
  ASSERT_TRUE(passed(base)) << violations(base);
  for (const auto& [set, n] : std::vector<std::pair<std::string, double>>{
           {"node0.pcie0.rcb=128", 128}, {"node0.pcie0.completion_split=mps", 256}}) {
    const Json rr = run_scenario("host_path", {"workload.bytes=1MiB", kRoadrunner, set});
    ASSERT_TRUE(passed(rr)) << violations(rr);
    ASSERT_TRUE(rr["results"]["verified"].get<bool>()) << set;
    const double bound = 2.0 * 512 / (512 / n * (n + 20) + 10);
    const double to_cell = result(rr, "host_to_cell_GBps");
    EXPECT_LT(to_cell, bound) << set;
    EXPECT_GT(to_cell, 0.95 * bound) << set;
    // The 1 MiB copy's completions: 64-byte ones by default, n-byte ones here; any other
    // read on the link (at most 64 bytes) completes as before.
    EXPECT_EQ(cplds(base) - cplds(rr), (1 << 20) / 64 - (1 << 20) / n) << set;
  }
}

TEST(Roadrunner, SocketsReachEachOthersMemoryAndInterrupts) {
  set_param("node0.topology", "roadrunner");
  auto node = make_hybrid_node();
  uint64_t seen = 0;
  bool woke = false;
  // Accelerator 0 (socket 0's bridge) writes into socket 1's memory and rings host core 2's
  // doorbell (socket 1): both cross the coherent link. Core 2 then reads socket 0's memory.
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    const uint64_t host = amap::host_via_pcie(0);
    hal.store<uint64_t>(host + (uint64_t{9} << 30), 0xC0FFEE);  // socket 1's DRAM
    hal.store<uint32_t>(host + amap::kHostIrq + 2 * amap::kDoorbellStride, 3);
  });
  node->host->core_list[2]->set_firmware([&](fw::Hal& hal) {
    woke = hal.wait_irq(1u << 3) != 0;
    seen = hal.load<uint64_t>(uint64_t{9} << 30);
  });
  sc_core::sc_start();
  EXPECT_TRUE(woke);
  EXPECT_EQ(seen, 0xC0FFEEu);
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  const Json stats = StatsRegistry::instance().to_json(sc_core::sc_time_stamp());
  EXPECT_GT(stats["node0.host.cht.down"]["posted_writes"].get<double>(), 0);
}

namespace {
struct Scenario {
  const char* name;
  std::vector<std::string> sets;
};
void PrintTo(const Scenario& s, std::ostream* os) {
  *os << s.name;
}
class EveryScenario : public ::testing::TestWithParam<Scenario> {};
}  // namespace

TEST_P(EveryScenario, RunsOnTheTriBladeWithItsDataVerified) {
  std::vector<std::string> sets = GetParam().sets;
  sets.push_back(kRoadrunner);
  const Json r = run_scenario(GetParam().name, sets);
  ASSERT_TRUE(passed(r)) << violations(r);
  const std::string results = r["results"].dump();
  EXPECT_EQ(results.find("\"verified\":false"), std::string::npos) << results;
}

INSTANTIATE_TEST_SUITE_P(
    Hybrid, EveryScenario,
    ::testing::Values(
        Scenario{
            "default",
            {"workload.host_bytes=64KiB", "workload.read_bytes=8KiB", "workload.accelerators=4"}},
        Scenario{"pcie_stream", {"workload.bytes_per_spe=64KiB"}},
        Scenario{"pcie_stream", {"workload.bytes_per_spe=64KiB", "workload.direction=get"}},
        Scenario{"cell_dma", {"workload.bytes_per_spe=1MiB"}},
        Scenario{"dma_transfers", {"workload.transfers=40"}},
        Scenario{"mirrored_counters", {"workload.updates=100", "workload.accelerators=4"}},
        Scenario{"mirrored_counters", {"workload.updates=100", "workload.mode=baseline"}},
        Scenario{"pin_dma_unpin", {}}, Scenario{"slmpm_messages", {"workload.messages=60"}},
        Scenario{"host_path", {"workload.bytes=64KiB", "workload.accelerator=3"}},
        Scenario{"cell_latency", {}}, Scenario{"cell_stream", {}}, Scenario{"cell_mailbox", {}},
        Scenario{"cell_atomic", {}}),
    [](const ::testing::TestParamInfo<Scenario>& i) {
      return std::string(i.param.name) + "_" + std::to_string(i.index);
    });
