// The descriptor DMA engine on the hybrid node: data movement, in-order completion writes,
// interrupts, placement, and rejection of bad requests.
#include <gtest/gtest.h>

#include <numeric>

#include "hw/hybrid/address_map.h"
#include "hw/hybrid/hybrid_node.h"
#include "sw/hal/dma.h"
#include "testbench/support/node_fixture.h"
#include "tlm/check/checker.h"
#include "tlm/check/physical_limits.h"
#include "tlm/params/param_registry.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/clock.h"

using namespace hs;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
using hs::testing::set_param;
namespace amap = hs::hybrid::amap;
namespace fwdma = hs::fw::dma;

namespace {

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7 + (i >> 8));
  return v;
}

constexpr uint64_t kRequests = 0x0800'0000;  // accelerator DRAM: where requests are built
constexpr uint64_t kAccEngine = amap::kAccDmaEngine;

}  // namespace

TEST(DmaEngine, CopiesWithinAcceleratorMemory) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  const auto data = pattern(10000, 3);
  acc.dram->poke(0x100000, data.data(), data.size());
  acc.ppe->set_firmware([](fw::Hal& hal) {
    fwdma::write_request(hal, kRequests, {fwdma::copy(0x100000, 0x300000, 10000)});
    fwdma::submit(hal, kAccEngine, kRequests);
    fwdma::wait_completed(hal, kAccEngine, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  std::vector<uint8_t> out(data.size());
  acc.dram->peek(0x300000, out.data(), out.size());
  EXPECT_EQ(out, data);
  EXPECT_EQ(acc.dma->completed(), 1u);
}

TEST(DmaEngine, PutToHostRunsAtPostedWriteLineRate) {
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  constexpr uint32_t kBytes = 1 << 20;
  const auto data = pattern(kBytes, 9);
  acc.dram->poke(0x100000, data.data(), data.size());
  sc_core::sc_time took;
  acc.ppe->set_firmware([&](fw::Hal& hal) {
    fwdma::write_request(hal, kRequests,
                         {fwdma::copy(0x100000, amap::host_via_pcie(0) + 0x2000000, kBytes)});
    const auto t0 = sc_core::sc_time_stamp();
    fwdma::submit(hal, kAccEngine, kRequests);
    fwdma::wait_completed(hal, kAccEngine, 1, 10);
    took = sc_core::sc_time_stamp() - t0;
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  std::vector<uint8_t> out(kBytes);
  node->host->dram->peek(0x2000000, out.data(), out.size());
  EXPECT_EQ(out, data);
  const auto& c = node->pcie(0, 0).config();
  const double line = kBytes * double(c.mps + 20) / c.mps / c.bytes_per_second();
  // Measured 1.4% over the wire time: each 4 KiB chunk crosses the EIB store-and-forward
  // (160 ns through IOIF0's ramps) after the DRAM read, slightly longer than the four TLPs the
  // transmit buffer holds, so the wire idles ~28 ns per chunk.
  EXPECT_NEAR(took.to_seconds() / line, 1.0, 0.02) << took;
  EXPECT_EQ(node->pcie(0, 0).packets(1, hs::link::PacketKind::Write), kBytes / c.mps);
}

TEST(DmaEngine, RemoteGetReadsHostMemoryWithSplitCompletions) {
  auto node = make_hybrid_node();
  constexpr uint32_t kBytes = 64 * 1024;
  const auto data = pattern(kBytes, 1);
  node->host->dram->poke(0x500000, data.data(), data.size());
  auto& acc = *node->accelerators[0];
  acc.ppe->set_firmware([](fw::Hal& hal) {
    fwdma::write_request(hal, kRequests,
                         {fwdma::copy(amap::host_via_pcie(0) + 0x500000, 0x600000, kBytes)});
    fwdma::submit(hal, kAccEngine, kRequests);
    fwdma::wait_completed(hal, kAccEngine, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  std::vector<uint8_t> out(kBytes);
  acc.dram->peek(0x600000, out.data(), out.size());
  EXPECT_EQ(out, data);
  const auto& c = node->pcie(0, 0).config();
  EXPECT_EQ(node->pcie(0, 0).packets(1, hs::link::PacketKind::Read),
            kBytes / c.mrrs);  // requests go up
  EXPECT_EQ(node->pcie(0, 0).packets(0, hs::link::PacketKind::ReadData),
            kBytes / c.rcb);  // completions come down
}

TEST(DmaEngine, CompletionWriteBecomesVisibleOnlyAfterTheData) {
  auto node = make_hybrid_node();
  constexpr uint32_t kBytes = 64 * 1024;
  const auto data = pattern(kBytes, 5);
  node->accelerators[0]->dram->poke(0x100000, data.data(), data.size());
  bool data_complete_when_flag_seen = false;
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    fwdma::write_request(hal, kRequests,
                         {fwdma::copy(0x100000, amap::host_via_pcie(0) + 0x700000, kBytes),
                          fwdma::write_value(amap::host_via_pcie(0) + 0x6F0000, 42)});
    fwdma::submit(hal, kAccEngine, kRequests);
  });
  node->host->core_list[0]->set_firmware([&](fw::Hal& hal) {
    while (hal.load<uint64_t>(0x6F0000) != 42) hal.compute(20);
    std::vector<uint8_t> got(kBytes);
    hal.load(0x700000, got.data(), got.size());
    data_complete_when_flag_seen = got == data;
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_TRUE(data_complete_when_flag_seen);
}

TEST(DmaEngine, RequestsCompleteInSubmissionOrder) {
  auto node = make_hybrid_node();
  std::vector<uint64_t> seen;
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    for (uint64_t r = 1; r <= 4; ++r) {
      // Requests of decreasing size: a later, shorter one must still finish after.
      const uint32_t bytes = static_cast<uint32_t>(64 * 1024 >> r);
      const uint64_t at = kRequests + r * 0x100;
      fwdma::write_request(hal, at,
                           {fwdma::copy(0x100000, amap::host_via_pcie(0) + 0x800000 * r, bytes),
                            fwdma::write_value(amap::host_via_pcie(0) + 0x6F0000, r)});
      fwdma::submit(hal, kAccEngine, at);
    }
  });
  node->host->core_list[0]->set_firmware([&](fw::Hal& hal) {
    uint64_t v = 0;
    while (v != 4) {
      v = hal.load<uint64_t>(0x6F0000);
      if (seen.empty() || seen.back() != v) seen.push_back(v);
      hal.compute(10);
    }
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), 4u);
  EXPECT_EQ(node->accelerators[0]->dma->completed(), 4u);
}

// Requests overlap in the engine's pipeline (the next one's reads start while this one's
// writes go out); the engine is busy over the union of their spans, never above all the time.
TEST(DmaEngine, OverlappingRequestsCountTheirBusyTimeOnce) {
  auto node = make_hybrid_node();
  sc_core::sc_time end;
  node->accelerators[0]->ppe->set_firmware([&](fw::Hal& hal) {
    for (uint64_t r = 1; r <= 8; ++r) {
      const uint64_t at = kRequests + r * 0x100;
      fwdma::write_request(
          hal, at, {fwdma::copy(amap::host_via_pcie(0) + 0x100000, 0x800000 * r, 16 * 1024)});
      fwdma::submit(hal, kAccEngine, at);
    }
    fwdma::wait_completed(hal, kAccEngine, 8);
    end = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  check_physical_limits(sc_core::sc_time_stamp());
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  const auto stats =
      StatsRegistry::instance().find("node0.acc0.dma")->to_json(sc_core::sc_time_stamp());
  const double busy = stats["utilisation"].get<double>();
  EXPECT_LE(busy, 1.0);
  // Busy from the first submission to the last completion, all but the firmware's start.
  EXPECT_GT(busy * sc_core::sc_time_stamp().to_seconds(), 0.9 * end.to_seconds() - 1e-6);
}

TEST(DmaEngine, InterruptingDescriptorSendsAnMsiToTheHost) {
  auto node = make_hybrid_node();
  uint32_t lines = 0;
  node->host->core_list[1]->set_firmware([&](fw::Hal& hal) { lines = hal.wait_irq(1u << 3); });
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    hal.reg_write(kAccEngine + hs::dma::kIrqAddress,
                  amap::host_via_pcie(0) + amap::kHostIrq + 1 * amap::kDoorbellStride, 8);
    auto d = fwdma::write_value(0x6F0000, 1);
    d.flags = hs::dma::kIrq;
    d.irq_line = 3;
    fwdma::write_request(hal, kRequests, {d});
    fwdma::submit(hal, kAccEngine, kRequests);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(lines, 1u << 3);
}

TEST(DmaEngine, HostPlacementPutsTheEngineOnTheHost) {
  set_param("node0.dma_engines", "host");
  auto node = make_hybrid_node();
  ASSERT_NE(node->host->dma, nullptr);
  EXPECT_EQ(node->accelerators[0]->dma, nullptr);
  const auto data = pattern(8192, 2);
  node->accelerators[0]->dram->poke(0x100000, data.data(), data.size());
  node->host->core_list[0]->set_firmware([](fw::Hal& hal) {
    // The host's engine pulls from the accelerator across PCIe into host memory.
    fwdma::write_request(hal, 0x10000,
                         {fwdma::copy(amap::acc_via_pcie(0, 0) + 0x100000, 0x900000, 8192)});
    fwdma::submit(hal, amap::kHostDmaEngine, 0x10000);
    fwdma::wait_completed(hal, amap::kHostDmaEngine, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  std::vector<uint8_t> out(8192);
  node->host->dram->peek(0x900000, out.data(), out.size());
  EXPECT_EQ(out, data);
}

TEST(DmaEngine, BothPlacementGivesEveryoneAnEngine) {
  set_param("node0.dma_engines", "both");
  auto node = make_hybrid_node();
  EXPECT_NE(node->host->dma, nullptr);
  for (auto& a : node->accelerators) EXPECT_NE(a->dma, nullptr);
}

TEST(DmaEngine, SubmittingToAFullQueueIsReported) {
  set_param("node0.acc0.dma.queue", 1);
  auto node = make_hybrid_node();
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    fwdma::write_request(hal, kRequests, {fwdma::copy(0x100000, 0x300000, 65536)});
    hal.reg_write(kAccEngine + hs::dma::kSubmit, kRequests, 8);
    hal.reg_write(kAccEngine + hs::dma::kSubmit, kRequests, 8);  // without checking SPACE
  });
  sc_core::sc_start();
  EXPECT_NE(first_violation().find("submitted to a full queue"), std::string::npos)
      << first_violation();
}

TEST(DmaEngine, UnknownOpIsReported) {
  auto node = make_hybrid_node();
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    hs::dma::Descriptor d;
    d.op = 9;
    fwdma::write_request(hal, kRequests, {d});
    fwdma::submit(hal, kAccEngine, kRequests);
  });
  sc_core::sc_start();
  EXPECT_NE(first_violation().find("unknown op 9"), std::string::npos) << first_violation();
}

TEST(DmaEngine, CopyToAnUnmappedAddressIsReported) {
  auto node = make_hybrid_node();
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    fwdma::write_request(hal, kRequests, {fwdma::copy(0x100000, 0xFFFF'0000'0000, 256)});
    fwdma::submit(hal, kAccEngine, kRequests);
  });
  sc_core::sc_start();
  EXPECT_NE(first_violation().find("write of 256 B at 0xffff00000000 failed"), std::string::npos)
      << first_violation();
}
