// The hybrid node assembled: host loads across PCIe, MFC data movement and command checks,
// EIB contention, Ethernet framing, accelerator ratios.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numeric>

#include "hw/hybrid/address_map.h"
#include "hw/hybrid/hybrid_node.h"
#include "hw/pcie/pcie_link.h"
#include "sw/hal/mfc.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scripted_initiator.h"
#include "testbench/support/temp_path.h"
#include "tlm/bus/crossbar.h"
#include "tlm/check/checker.h"
#include "tlm/link/delivery_workers.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"
#include "tlm/trace/firmware_log.h"
#include "tlm/trace/transaction_trace.h"

using namespace hs;
using hs::pcie::PcieLink;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
using hs::testing::RecordingMemory;
using hs::testing::ScriptedInitiator;
using hs::testing::set_param;
namespace amap = hs::hybrid::amap;
using sc_core::SC_NS;
using sc_core::sc_time;

TEST(HybridNode, HostLoadAcrossPcieTakesTheModelledRoundTrip) {
  auto node = make_hybrid_node();
  sc_time took;
  node->host->core_list[0]->set_firmware([&](fw::Hal& hal) {
    sc_time t0 = sc_core::sc_time_stamp();
    hal.load<uint64_t>(amap::acc_via_pcie(0, 0) + amap::kAccDram + 0x1000);
    took = sc_core::sc_time_stamp() - t0;
  });
  sc_core::sc_start();
  const auto& pcie = node->pcie(0, 0).config();
  const double rate = pcie.bytes_per_second();
  const Clock host_clock(1.8e9), eib_clock(1.6e9);
  // The EIB starts commands and data on its clock's edges.
  auto edge = [&](const sc_time& t) {
    return eib_clock.cycles(static_cast<uint64_t>(std::ceil(t.to_seconds() * 1.6e9 - 1e-6)));
  };
  // Issue, host bus, MRd on the wire and in flight; at IOIF0 the command phase (8 bus cycles
  // from its slot), DRAM, then the 8 B back from the MIC in one bus cycle plus five hops
  // round the ring; the CplD on the wire and in flight.
  const sc_time at_ioif0 = host_clock.cycles(1) + sc_time(20, SC_NS) + transfer_time(20, rate) +
                           sc_time(pcie.latency_ns, SC_NS);
  const sc_time read_by_mic =
      edge(at_ioif0) + eib_clock.cycles(8) + sc_time(90, SC_NS) + transfer_time(8, 25.6e9);
  // Back at the root complex, the read's data leaves the crossbar's port a cycle after it came.
  const sc_time expected = edge(read_by_mic) + eib_clock.cycles(1 + 5) +
                           transfer_time(8 + 20, rate) + sc_time(pcie.latency_ns, SC_NS) +
                           host_clock.cycles(1);
  EXPECT_NEAR(took.to_seconds() * 1e12, expected.to_seconds() * 1e12, 3.0);  // ps rounding
  EXPECT_EQ(node->pcie(0, 0).packets(0, hs::link::PacketKind::Read), 1u);
  EXPECT_EQ(node->pcie(0, 0).packets(1, hs::link::PacketKind::ReadData), 1u);
}

TEST(HybridNode, MfcGetAndPutMoveDataThroughTheLocalStore) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<uint8_t> src(40000);
  std::iota(src.begin(), src.end(), 7);
  acc.dram->poke(0x100000, src.data(), src.size());
  acc.spes[3]->spu.set_firmware([&](fw::Hal& hal) {
    fw::mfc::get_large(hal, 0, amap::kAccDram + 0x100000, src.size() / 16 * 16, 5);
    fw::mfc::wait_tags(hal, 1u << 5);
    fw::mfc::put_large(hal, 0, amap::kAccDram + 0x200000, src.size() / 16 * 16, 6);
    fw::mfc::wait_tags(hal, 1u << 6);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  std::vector<uint8_t> out(src.size() / 16 * 16);
  acc.dram->peek(0x200000, out.data(), out.size());
  EXPECT_TRUE(std::equal(out.begin(), out.end(), src.begin()));
  EXPECT_TRUE(acc.spes[3]->spu.finished());
}

TEST(HybridNode, MfcRejectsOversizedCommandWithAClearError) {
  auto node = make_hybrid_node();
  node->accelerators[0]->spes[0]->spu.set_firmware(
      [](fw::Hal& hal) { fw::mfc::get(hal, 0, amap::kAccDram, 20000, 0); });
  sc_core::sc_start();
  ASSERT_FALSE(CheckRegistry::instance().ok());
  EXPECT_NE(first_violation().find("transfer size 20000 B"), std::string::npos)
      << first_violation();
  EXPECT_NE(first_violation().find("spe0.mfc"), std::string::npos);
}

TEST(HybridNode, MfcRejectsMisalignedCommand) {
  auto node = make_hybrid_node();
  node->accelerators[0]->spes[0]->spu.set_firmware(
      [](fw::Hal& hal) { fw::mfc::put(hal, 8, amap::kAccDram + 0x1000, 64, 0); });
  sc_core::sc_start();
  EXPECT_NE(first_violation().find("spe0: SPU command PUT"), std::string::npos)
      << first_violation();
  EXPECT_NE(first_violation().find("16-byte aligned"), std::string::npos) << first_violation();
}

TEST(HybridNode, SpuCannotReachMainMemoryDirectly) {
  auto node = make_hybrid_node();
  node->accelerators[0]->spes[0]->spu.set_firmware(
      [](fw::Hal& hal) { hal.load<uint32_t>(amap::kAccDram + 0x400000); });
  sc_core::sc_start();
  EXPECT_NE(first_violation().find("memory read of 4 B at 0x400000 failed"), std::string::npos)
      << first_violation();
}

namespace {
// Every SPE streams `bytes` from its neighbour's local store into its own: all traffic is on
// the EIB rings. Returns aggregate GB/s.
double ls_to_ls_streaming(int spes, uint64_t bytes) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  std::vector<sc_time> end(spes);
  for (int s = 0; s < spes; ++s) {
    acc.spes[s]->spu.set_firmware([&, s](fw::Hal& hal) {
      const uint64_t neighbour = amap::acc_spe((s + 1) % 8) + amap::kSpeLocalStore;
      for (uint64_t off = 0; off < bytes; off += 16384) {
        fw::mfc::get(hal, static_cast<uint32_t>(off % 65536), neighbour + 65536 + off % 65536,
                     16384, 0);
      }
      fw::mfc::wait_tags(hal, 1);
      end[s] = sc_core::sc_time_stamp();
    });
  }
  sc_core::sc_start();
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  return spes * bytes / std::max_element(end.begin(), end.end())->to_seconds() / 1e9;
}
}  // namespace

TEST(HybridNode, EibCarriesEightStreamsAtOnceWithinItsCommandBus) {
  const double gbps = ls_to_ls_streaming(8, 1 << 20);
  // More than four streams at full speed at once (each ring carries up to three transfers),
  // never more than one 128 B command per bus cycle.
  EXPECT_LE(gbps, 204.8 * 1.0001);
  EXPECT_GE(gbps, 4 * 25.6);
}

TEST(HybridNode, SingleMfcIsBoundByTransfersInFlight) {
  set_param("node0.acc0.spe0.mfc.outstanding", 1);
  const double one = ls_to_ls_streaming(1, 256 << 10);
  // One 128 B transfer at a time: read from the neighbour (ring + LS) then write the own LS.
  EXPECT_LT(one, 25.6);
  EXPECT_GT(one, 1.0);
}

TEST(HybridNode, EthernetFramesCarryMtuPayloadAtLineRate) {
  auto node = make_hybrid_node();
  constexpr uint64_t kBytes = 1484 * 100;  // exactly 100 full frames
  std::vector<uint8_t> data(kBytes, 0xAB);
  node->host->core_list[0]->set_firmware([&](fw::Hal& hal) {
    hal.store(amap::acc_via_ethernet(0, 0) + amap::kAccDram + 0x3000, data.data(), data.size());
  });
  sc_core::sc_start();
  auto& eth = node->ethernet(0, 0);
  EXPECT_EQ(eth.frames(0), 100u);
  // Issue cycle and host bus, then 100 frames of 1484 B + 16 B header = 1500 B payload
  // + 38 B framing at 125 MB/s, then the flight of the last one.
  const double expected = 1 / 1.8e9 + 20e-9 + 100 * 1538 / 125e6 + eth.config().latency_ns * 1e-9;
  EXPECT_NEAR(sc_core::sc_time_stamp().to_seconds(), expected, expected * 1e-6);
  std::vector<uint8_t> got(kBytes);
  node->accelerators[0]->dram->peek(0x3000, got.data(), got.size());
  EXPECT_EQ(got, data);
}

TEST(HybridNode, EthernetRejectsReadsWithAClearError) {
  auto node = make_hybrid_node();
  node->host->core_list[0]->set_firmware(
      [](fw::Hal& hal) { hal.load<uint32_t>(amap::acc_via_ethernet(0, 0) + amap::kAccDram); });
  sc_core::sc_start();
  EXPECT_NE(first_violation().find("carries remote writes only"), std::string::npos)
      << first_violation();
}

TEST(HybridNode, AcceleratorRatioIsConfigurable) {
  set_param("node0.accelerators_per_core", 3);
  set_param("node0.host.sockets", 1);
  auto node = make_hybrid_node();
  EXPECT_EQ(node->host->core_list.size(), 2u);
  EXPECT_EQ(node->accelerators.size(), 6u);
  EXPECT_EQ(node->pcie_.size(), 6u);
}

TEST(HybridNode, MsiFromAcceleratorInterruptsHostCore) {
  auto node = make_hybrid_node();
  uint32_t lines = 0;
  node->host->core_list[2]->set_firmware([&](fw::Hal& hal) { lines = hal.wait_irq(1u << 5); });
  node->accelerators[1]->ppe->set_firmware([](fw::Hal& hal) {
    hal.reg_write(amap::host_via_pcie(0) + amap::kHostIrq + 2 * amap::kDoorbellStride, 5);
  });
  sc_core::sc_start();
  EXPECT_EQ(lines, 1u << 5);
  EXPECT_EQ(node->pcie(1, 0).packets(1, hs::link::PacketKind::Write), 1u);
}

// The accelerators' windows into the host stop below the host's accelerator windows, so
// firmware cannot address a peer; the root complex is therefore exercised as the node builds
// it: two links whose root-complex sides meet at a host router, and an endpoint writing to
// the other link's window.
// Nothing a link delivers into waits (memories, registers, the EIB and the host bus), so the
// node's links take what they carry in place: no delivery worker thread is ever started.
TEST(HybridNode, LinksDeliverInPlaceWithoutWorkerThreads) {
  auto node = make_hybrid_node();
  std::vector<uint8_t> data(4096, 0x5C);
  node->host->core_list[0]->set_firmware([&](fw::Hal& hal) {
    hal.load<uint64_t>(amap::acc_via_pcie(0, 0) + amap::kAccDram + 0x1000);  // MRd down, CplD up
    hal.store(amap::acc_via_pcie(0, 0) + amap::kAccDram + 0x2000, data.data(), data.size());
    hal.store(amap::acc_via_ethernet(0, 0) + amap::kAccDram + 0x3000, data.data(), data.size());
  });
  node->accelerators[0]->ppe->set_firmware([&](fw::Hal& hal) {
    hal.store(amap::host_via_pcie(0) + amap::kHostDram + 0x4000, data.data(), data.size());
    hal.store(amap::host_via_ethernet(0) + amap::kHostDram + 0x5000, data.data(), data.size());
  });
  sc_core::sc_start();
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(node->pcie(0, 0).payload_bytes(0), data.size());  // the host's store
  EXPECT_EQ(node->pcie(0, 0).payload_bytes(1),
            8 + data.size());  // its load's CplD, the PPE's store
  EXPECT_GT(node->ethernet(0, 0).frames(0), 0u);
  EXPECT_GT(node->ethernet(0, 0).frames(1), 0u);
  std::vector<uint8_t> got(data.size());
  node->host->dram->peek(0x4000, got.data(), got.size());
  EXPECT_EQ(got, data);
  node->accelerators[0]->dram->peek(0x3000, got.data(), got.size());
  EXPECT_EQ(got, data);
  EXPECT_EQ(DeliveryWorkers::instance().workers(), 0u);
}

TEST(HybridNode, PeerToPeerAcrossTheRootComplexIsRejected) {
  constexpr uint64_t kPeerWindow = amap::acc_via_pcie(1, 0);
  PcieLink up0("pcie0", 0), up1("pcie1", 1);
  Crossbar root("root_complex", CrossbarDefaults{});
  RecordingMemory host("host_dram", sc_time(80, SC_NS)), own("acc0_dram", sc_time(90, SC_NS)),
      peer("acc1_dram", sc_time(90, SC_NS));
  uint32_t value = 0x1234;
  ScriptedInitiator acc0("acc0", [&](ScriptedInitiator& self) {
    self.write(kPeerWindow, &value, 4);  // a host-map address: the peer's window
  });
  ScriptedInitiator host_core("host_core", [](ScriptedInitiator&) {});
  ScriptedInitiator acc1("acc1", [](ScriptedInitiator&) {});
  using hs::link::SplitLink;
  acc0.socket.bind(up0.port(SplitLink::B).in);
  acc1.socket.bind(up1.port(SplitLink::B).in);
  root.connect(host_core.socket, "core0");
  root.connect(up0.port(SplitLink::A).out, "pcie0_inbound", true);
  root.connect(up1.port(SplitLink::A).out, "pcie1_inbound", true);
  root.attach(host.socket, 0, amap::kHostDramMax, "dram");
  root.attach(up0.port(SplitLink::A).in, amap::acc_via_pcie(0, 0), amap::kAccWindowSize, "acc0",
              true);
  root.attach(up1.port(SplitLink::A).in, kPeerWindow, amap::kAccWindowSize, "acc1", true);
  up0.port(SplitLink::B).out.bind(own.socket);
  up1.port(SplitLink::B).out.bind(peer.socket);
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  // Exactly one violation: the root complex's refusal, named as such, and nothing else (in
  // particular not the generic "write not accepted").
  const auto& v = CheckRegistry::instance().violations();
  ASSERT_EQ(v.size(), 1u) << first_violation();
  EXPECT_EQ(v[0].check, "root complex: no peer-to-peer request between I/O links");
  EXPECT_NE(v[0].message.find("unsupported request"), std::string::npos) << v[0].message;
  EXPECT_NE(v[0].message.find("peer-to-peer"), std::string::npos) << v[0].message;
  // And the write never reached the peer.
  EXPECT_TRUE(peer.writes.empty());
}

TEST(HybridNode, FirmwareThatThrowsFailsTheRunNamingItsCore) {
  auto node = make_hybrid_node();
  node->host->core_list[1]->set_firmware([&](fw::Hal& hal) {
    hal.compute(100);
    throw std::runtime_error("descriptor table corrupt");
  });
  // The error is recorded as a violation, not thrown through the kernel into sc_start.
  EXPECT_NO_THROW(sc_core::sc_start());
  ASSERT_FALSE(CheckRegistry::instance().ok());
  EXPECT_EQ(first_violation(), "node0.host.core1: firmware threw: descriptor table corrupt");
  EXPECT_TRUE(node->host->core_list[1]->finished());
}

// Hal::log: a line on standard error with the time and the core, and an instant on the core's
// track in the trace carrying the text (escaped as JSON).
TEST(HybridNode, FirmwareLogLinesGoToStandardErrorAndTheCoresTrack) {
  const std::string path = hs::testing::temp_path("firmware_log_trace.json");
  TransactionTrace::instance().open(path);
  auto node = make_hybrid_node();
  TransactionTrace::instance().start();
  node->host->core_list[0]->set_firmware([](fw::Hal& hal) {
    hal.compute(1800);  // 1 us at 1.8 GHz
    hal.log("ready: \"all\" buffers set");
  });
  ::testing::internal::CaptureStderr();
  sc_core::sc_start();
  const std::string err = ::testing::internal::GetCapturedStderr();
  TransactionTrace::instance().close();
  EXPECT_NE(err.find("[1000.000 ns] node0.host.core0: ready: \"all\" buffers set"),
            std::string::npos)
      << err;
  std::ifstream in(path);
  const nlohmann::json trace = nlohmann::json::parse(in);
  bool found = false;
  for (const auto& e : trace["traceEvents"]) {
    if (e.value("ph", "") == "i" && e.value("name", "") == "log") {
      found = e["args"]["message"] == "ready: \"all\" buffers set";
    }
  }
  EXPECT_TRUE(found) << trace.dump().substr(0, 2000);
  EXPECT_EQ(FirmwareLog::instance().lines(), 1u);
}
