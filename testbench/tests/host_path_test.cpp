// The components of the TriBlade's host path, each alone and chained, against analytic
// figures: the HT-to-PCIe bridge between a HyperTransport link and a PCIe link (latency,
// translation, throughput, back-pressure, cut-through), the Cell's I/O interface and the
// Cell-side I/O bridge, and the host's northbridge crossbar with its peer-to-peer rule.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "hw/bridge/ht_pcie_bridge.h"
#include "hw/cell/io_interface.h"
#include "hw/ht/ht_link.h"
#include "hw/pcie/pcie_link.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scripted_initiator.h"
#include "tlm/bus/crossbar.h"
#include "tlm/check/checker.h"
#include "tlm/check/physical_limits.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"

using namespace hs;
using hs::bridge::HtPcieBridge;
using hs::ht::HtLink;
using hs::link::PacketKind;
using hs::link::SplitLink;
using hs::pcie::PcieLink;
using hs::testing::first_violation;
using hs::testing::RecordingMemory;
using hs::testing::ScriptedInitiator;
using hs::testing::set_param;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

constexpr uint64_t kWindow = uint64_t{1} << 56;  // the accelerator, in host addresses
constexpr uint64_t kWindowSize = uint64_t{1} << 36;
constexpr double kMemNs = 50;

// host initiator -> HyperTransport -> bridge -> PCIe -> accelerator memory, and the accelerator
// initiator -> PCIe -> bridge -> HyperTransport -> host memory.
struct BridgeBench {
  std::unique_ptr<HtLink> ht;
  std::unique_ptr<PcieLink> pcie;
  std::unique_ptr<HtPcieBridge> bridge;
  std::unique_ptr<RecordingMemory> host_mem, acc_mem;
  std::unique_ptr<ScriptedInitiator> host, acc;
  BridgeBench(ScriptedInitiator::Script from_host, ScriptedInitiator::Script from_acc = nullptr,
              double acc_mem_ns = kMemNs) {
    ht = std::make_unique<HtLink>("ht0", 0, SplitLink::Attach::Fabric, SplitLink::Attach::Packets);
    pcie = std::make_unique<PcieLink>("pcie0", 0, SplitLink::Attach::Packets,
                                      SplitLink::Attach::Fabric);
    bridge = std::make_unique<HtPcieBridge>("bridge0", *ht, std::vector<PcieLink*>{pcie.get()},
                                            std::vector<uint64_t>{kWindow}, kWindowSize);
    host_mem = std::make_unique<RecordingMemory>("host_mem", sc_time(kMemNs, SC_NS));
    acc_mem = std::make_unique<RecordingMemory>("acc_mem", sc_time(acc_mem_ns, SC_NS));
    host = std::make_unique<ScriptedInitiator>(
        "host", from_host ? from_host : [](auto&) {});
    acc = std::make_unique<ScriptedInitiator>(
        "acc", from_acc ? from_acc : [](auto&) {});
    host->socket.bind(ht->port(SplitLink::A).in);
    ht->port(SplitLink::A).out.bind(host_mem->socket);
    acc->socket.bind(pcie->port(SplitLink::B).in);
    pcie->port(SplitLink::B).out.bind(acc_mem->socket);
    ParamRegistry::instance().finalize();
  }
  double bridge_ns() const { return 100; }  // the bridge's default latency
};

double ns(const sc_time& t) {
  return t.to_seconds() * 1e9;
}

}  // namespace

TEST(HtPcieBridge, APostedWriteCrossesEveryStageWithItsDelay) {
  sc_time t0;
  uint64_t value = 0x1122334455667788ull;
  BridgeBench tb([&](ScriptedInitiator& i) {
    t0 = sc_core::sc_time_stamp();
    i.write(kWindow + 0x4000, &value, 8);
  });
  sc_core::sc_start();
  ASSERT_EQ(tb.acc_mem->writes.size(), 1u);
  // HyperTransport: a 12-byte request (the window is above 2^40) and 8 bytes of data; the
  // bridge; PCIe: an 8-byte MWr with a 3DW header (the accelerator's address is below 4 GiB).
  const double analytic = ns(transfer_time(20, tb.ht->timing().bytes_per_second)) +
                          tb.ht->timing().latency_ns + tb.bridge_ns() +
                          ns(transfer_time(8 + 20, tb.pcie->timing().bytes_per_second)) +
                          tb.pcie->timing().latency_ns;
  EXPECT_NEAR(ns(tb.acc_mem->writes[0].at - t0), analytic, 0.002);
  EXPECT_EQ(tb.acc_mem->writes[0].addr, 0x4000u);  // the window's base taken off
  uint64_t got = 0;
  tb.acc_mem->storage.read(0x4000, reinterpret_cast<uint8_t*>(&got), 8);
  EXPECT_EQ(got, value);
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
}

TEST(HtPcieBridge, AReadsRoundTripIsTheSumOfItsStages) {
  sc_time took;
  BridgeBench tb([&](ScriptedInitiator& i) {
    uint8_t d[64];
    const sc_time t0 = sc_core::sc_time_stamp();
    i.read(kWindow + 0x40, d, 64);
    took = sc_core::sc_time_stamp() - t0;
  });
  sc_core::sc_start();
  const double ht = tb.ht->timing().bytes_per_second, pc = tb.pcie->timing().bytes_per_second;
  // Request: HyperTransport 12 B, the bridge, an MRd (20 B); the memory; one 64-byte CplD
  // (84 B), the bridge, a 68-byte read response.
  const double analytic = ns(transfer_time(12, ht)) + tb.ht->timing().latency_ns + tb.bridge_ns() +
                          ns(transfer_time(20, pc)) + tb.pcie->timing().latency_ns + kMemNs +
                          ns(transfer_time(84, pc)) + tb.pcie->timing().latency_ns +
                          tb.bridge_ns() + ns(transfer_time(68, ht)) + tb.ht->timing().latency_ns;
  EXPECT_NEAR(ns(took), analytic, 0.003);
  EXPECT_EQ(tb.pcie->packets(0, PacketKind::Read), 1u);
  EXPECT_EQ(tb.ht->packets(1, PacketKind::ReadData), 1u);
}

TEST(HtPcieBridge, HostWritesStreamAtThePcieRateOf64ByteWrites) {
  constexpr uint64_t kBytes = 512 << 10;
  std::vector<uint8_t> buf(4096, 9);
  sc_time t0;
  BridgeBench tb([&](ScriptedInitiator& i) {
    t0 = sc_core::sc_time_stamp();
    for (uint64_t off = 0; off < kBytes; off += buf.size())
      i.write(kWindow + off, buf.data(), buf.size());
  });
  sc_core::sc_start();
  // HyperTransport carries no more than 64 bytes a write, and the bridge forwards each as it
  // is: 64-byte MWrs, 84 bytes on the PCIe wire, which is the narrower stage.
  const double analytic = tb.pcie->timing().bytes_per_second * 64 / 84;
  const sc_time end = tb.acc_mem->writes.back().at;
  const double seconds = (end - t0).to_seconds();
  EXPECT_NEAR(kBytes / seconds / analytic, 1.0, 0.01) << kBytes / seconds / 1e9 << " GB/s";
  EXPECT_EQ(tb.pcie->packets(0, PacketKind::Write), kBytes / 64);
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
}

TEST(HtPcieBridge, BackPressureFromASlowAcceleratorReachesTheHostsInitiator) {
  // The accelerator takes a write every 2 us, and advertises credits for two: the PCIe wire
  // stalls, the bridge cannot forward, its HyperTransport buffers fill, the HyperTransport
  // wire stalls, and the host's writes stop returning.
  set_param("pcie0.credits.posted_header", 2);
  constexpr int kWrites = 40;
  sc_time last_returned;
  std::vector<uint8_t> buf(64, 5);
  BridgeBench tb(
      [&](ScriptedInitiator& i) {
        for (int w = 0; w < kWrites; ++w) i.write(kWindow + w * 64, buf.data(), 64);
        last_returned = sc_core::sc_time_stamp();
      },
      nullptr, 2000);
  sc_core::sc_start();
  ASSERT_EQ(tb.acc_mem->writes.size(), static_cast<size_t>(kWrites));
  const auto& w = tb.acc_mem->writes;
  // The accelerator's rate sets the pace end to end: one write per credit round trip.
  const double per_write = ns(w.back().at - w[10].at) / (kWrites - 11);
  EXPECT_GT(per_write, 1000.0);
  // The host's initiator was held back: its last write returned long after it would have on
  // an idle path (about 1 us), only the path's buffers ahead of the accelerator.
  EXPECT_GT(ns(last_returned), ns(w[15].at));
  // Every hop's credits held its transmitter back.
  const Json stats = StatsRegistry::instance().to_json(sc_core::sc_time_stamp());
  EXPECT_GT(stats["pcie0.down"]["credit_waits"].get<double>(), 0);
  EXPECT_GT(stats["ht0.down"]["credit_waits"].get<double>(), 0);
  check_physical_limits(sc_core::sc_time_stamp());
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
}

TEST(HtPcieBridge, AcceleratorReadsOfHostMemorySplitIntoHyperTransportReads) {
  std::vector<uint8_t> host_data(512), got(512);
  for (size_t i = 0; i < host_data.size(); ++i) host_data[i] = static_cast<uint8_t>(i ^ 0x5a);
  BridgeBench tb(nullptr, [&](ScriptedInitiator& i) {
    i.read(0x10000, got.data(), got.size());  // one 512-byte MRd
  });
  tb.host_mem->storage.write(0x10000, host_data.data(), host_data.size());
  sc_core::sc_start();
  EXPECT_EQ(got, host_data);
  EXPECT_EQ(tb.pcie->packets(1, PacketKind::Read), 1u);
  EXPECT_EQ(tb.ht->packets(1, PacketKind::Read), 8u);  // 64 bytes each
  EXPECT_EQ(tb.ht->packets(0, PacketKind::ReadData), 8u);
  EXPECT_EQ(tb.pcie->packets(0, PacketKind::ReadData), 8u);  // one CplD per response
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
}

TEST(HtPcieBridge, AcceleratorWritesSplitAt64ByteBoundaries) {
  std::vector<uint8_t> data(256, 0x77);
  BridgeBench tb(nullptr, [&](ScriptedInitiator& i) { i.write(0x20020, data.data(), 256); });
  sc_core::sc_start();
  EXPECT_EQ(tb.pcie->packets(1, PacketKind::Write), 1u);  // within max_payload and 4 KiB
  EXPECT_EQ(tb.ht->packets(1, PacketKind::Write), 5u);    // 32, 64, 64, 64, 32
  std::vector<uint8_t> got(256);
  tb.host_mem->storage.read(0x20020, got.data(), got.size());
  EXPECT_EQ(got, data);
}

TEST(HtPcieBridge, CutThroughForwardsOnceTheHeaderHasArrived) {
  set_param("bridge0.forwarding", "cut_through");
  sc_time t0;
  std::vector<uint8_t> buf(64, 1);
  BridgeBench tb([&](ScriptedInitiator& i) {
    t0 = sc_core::sc_time_stamp();
    i.write(kWindow, buf.data(), 64);
  });
  sc_core::sc_start();
  const double ht = tb.ht->timing().bytes_per_second, pc = tb.pcie->timing().bytes_per_second;
  // The MWr leaves the bridge's latency after the 12-byte header arrived (the slower PCIe wire
  // cannot overtake the HyperTransport data).
  const double analytic = ns(transfer_time(12, ht)) + tb.ht->timing().latency_ns + tb.bridge_ns() +
                          ns(transfer_time(84, pc)) + tb.pcie->timing().latency_ns;
  EXPECT_NEAR(ns(tb.acc_mem->writes.at(0).at - t0), analytic, 0.002);
}

TEST(HtPcieBridge, HostAccessesOutsideEveryWindowFailItsCheck) {
  uint32_t v = 1;
  BridgeBench tb([&](ScriptedInitiator& i) { i.write(0x1000, &v, 4); });
  sc_core::sc_start();
  const auto& viol = CheckRegistry::instance().violations();
  ASSERT_EQ(viol.size(), 1u) << first_violation();
  EXPECT_EQ(viol[0].check, "HT-to-PCIe bridge: host accesses fall in an accelerator's window");
  EXPECT_TRUE(tb.acc_mem->writes.empty());
}

TEST(IoInterface, ItsBandwidthBoundsWhatCrossesIntoTheCell) {
  set_param("ioif0.inbound_bandwidth", 2.5);
  cell::IoInterface ioif("ioif0");
  RecordingMemory cell_side("cell", sc_time(0, SC_NS)), device_side("device", sc_time(0, SC_NS));
  std::vector<uint8_t> buf(4096, 1);
  sc_time done;
  ScriptedInitiator device("dev", [&](ScriptedInitiator& i) {
    for (int k = 0; k < 64; ++k) i.write(uint64_t(k) * 4096, buf.data(), buf.size());
    done = sc_core::sc_time_stamp();
  });
  ScriptedInitiator cell_master("cellm", [](auto&) {});
  device.socket.bind(ioif.from_device);
  ioif.to_eib.bind(cell_side.socket);
  cell_master.socket.bind(ioif.from_eib);
  ioif.to_device.bind(device_side.socket);
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  // Each 4 KiB write at 2.5 GB/s and one crossing's latency, one after the other.
  EXPECT_NEAR(ns(done), 64 * (4096 / 2.5 + 10), 0.01);
  check_physical_limits(sc_core::sc_time_stamp());
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
}

TEST(Crossbar, AccessesThroughOnePortQueueAndThroughDifferentPortsOverlap) {
  Crossbar xbar("xbar", CrossbarDefaults{1e9, 8, 10});
  RecordingMemory m0("m0", sc_time(0, SC_NS)), m1("m1", sc_time(0, SC_NS));
  std::vector<uint8_t> buf(800, 1);
  sc_time done[3];
  auto writer = [&](int k, uint64_t addr) {
    return [&, k, addr](ScriptedInitiator& i) {
      i.write(addr, buf.data(), buf.size());
      done[k] = sc_core::sc_time_stamp();
    };
  };
  ScriptedInitiator a("a", writer(0, 0x0)), b("b", writer(1, 0x100)), c("c", writer(2, 0x1000));
  xbar.connect(a.socket, "a");
  xbar.connect(b.socket, "b");
  xbar.connect(c.socket, "c");
  xbar.attach(m0.socket, 0x0, 0x1000, "m0");
  xbar.attach(m1.socket, 0x1000, 0x1000, "m1");
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  // 800 bytes take 100 ns at 8 GB/s. After the 10 ns pass, a's data starts into m0's port and
  // its head is through a cycle later; b's waits for m0's port to free; c's, to another
  // target, goes at once.
  EXPECT_NEAR(ns(done[0]), 11, 0.001);
  EXPECT_NEAR(ns(done[1]), 111, 0.001);
  EXPECT_NEAR(ns(done[2]), 11, 0.001);
}

TEST(Crossbar, TheRootComplexRefusesPeerToPeerBetweenIoLinksUnlessToldToForward) {
  Crossbar xbar("rc", CrossbarDefaults{1e9, 8, 10});
  RecordingMemory dram("dram", sc_time(0, SC_NS)), dev1("dev1", sc_time(0, SC_NS));
  uint32_t v = 7;
  tlm::tlm_response_status from_device = tlm::TLM_OK_RESPONSE, from_core = tlm::TLM_OK_RESPONSE;
  ScriptedInitiator dev0("dev0",
                         [&](ScriptedInitiator& i) { from_device = i.write(0x10000, &v, 4); });
  ScriptedInitiator core("core",
                         [&](ScriptedInitiator& i) { from_core = i.write(0x10004, &v, 4); });
  xbar.connect(dev0.socket, "dev0_inbound", true);
  xbar.connect(core.socket, "core0");
  xbar.attach(dram.socket, 0, 0x10000, "dram");
  xbar.attach(dev1.socket, 0x10000, 0x10000, "dev1", true);
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  EXPECT_EQ(from_device, tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(from_core, tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(dev1.writes.size(), 1u);  // the core's, not the device's
  const auto& viol = CheckRegistry::instance().violations();
  ASSERT_EQ(viol.size(), 1u);
  EXPECT_EQ(viol[0].check, "root complex: no peer-to-peer request between I/O links");
  EXPECT_NE(viol[0].message.find("dev0_inbound"), std::string::npos) << viol[0].message;
}

TEST(Crossbar, ForwardsPeerToPeerWhenItsPolicySaysSo) {
  set_param("rc.peer_to_peer", "forward");
  Crossbar xbar("rc", CrossbarDefaults{1e9, 8, 10});
  RecordingMemory dev1("dev1", sc_time(0, SC_NS));
  uint32_t v = 7;
  ScriptedInitiator dev0("dev0", [&](ScriptedInitiator& i) { i.write(0x10000, &v, 4); });
  xbar.connect(dev0.socket, "dev0_inbound", true);
  xbar.attach(dev1.socket, 0x10000, 0x10000, "dev1", true);
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  EXPECT_EQ(dev1.writes.size(), 1u);
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
}

TEST(PhysicalLimits, ABufferAboveItsCapacityFailsTheCapacityCheck) {
  StatGroup g("buffer_owner");
  Occupancy& level = g.occupancy("entries", "packets", "entries held");
  g.capacity_ceiling("entries", level, 4);
  level.set(5, sc_time(10, SC_NS));
  check_physical_limits(sc_time(20, SC_NS));
  const auto& viol = CheckRegistry::instance().violations();
  ASSERT_EQ(viol.size(), 1u);
  EXPECT_EQ(viol[0].check, kCapacityLimit);
  EXPECT_EQ(viol[0].component, "buffer_owner");
  EXPECT_NE(viol[0].message.find("capacity of 4"), std::string::npos) << viol[0].message;
}
