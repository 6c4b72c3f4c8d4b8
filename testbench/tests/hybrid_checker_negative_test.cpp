// The hybrid node's protocol checks proven to fire, end to end, each reported by name:
// the mirrored rings' firmware-side rules (deliberately wrong peer firmware writing ring
// counters and packets across PCIe), the always-on remote-read checker, pinning (a DMA write
// into a region after its unpin) and the registration cache's stale handles (DMA into memory
// no longer pinned). Each test runs in its own process.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "sw/slmpm/mirrored_ring.h"
#include "sw/slmpm/shared_memory.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"

using namespace hs;
namespace slmpm = hs::fw::slmpm;
namespace shm = hs::fw::slmpm::shm;
namespace amap = hs::hybrid::amap;
using Json = nlohmann::json;

namespace {

constexpr uint32_t kSegments = 8;

std::vector<std::string> only(const char* check) {
  return {check};
}

// The host reads the accelerator-to-host ring while `writer` (wrong firmware on accelerator
// 0's PPE) writes packets and J into host memory across PCIe.
std::vector<std::string> host_reads_while(std::function<void(fw::Hal&)> writer) {
  static runner::HybridModel model;
  ParamRegistry::instance().finalize();
  const slmpm::RingLayout ring = shm::acc_to_host(0, 0, kSegments);
  model.node.host->core_list[0]->set_firmware([ring](fw::Hal& hal) {
    slmpm::RingReader reader(hal, ring, slmpm::CounterMode::Mirrored, slmpm::Publish::Eager, 1);
    for (int i = 0; i < 200; ++i) {
      reader.poll([](const slmpm::Packet&) {});
      hal.compute(2000);
    }
  });
  model.node.accelerators[0]->ppe->set_firmware(writer);
  sc_core::sc_start();
  return CheckRegistry::instance().failed_checks();
}

// The host writes the host-to-accelerator ring while `reader` (wrong firmware on the PPE)
// publishes K into host memory across PCIe.
std::vector<std::string> host_writes_while(std::function<void(fw::Hal&)> reader) {
  static runner::HybridModel model;
  ParamRegistry::instance().finalize();
  const slmpm::RingLayout ring = shm::host_to_acc(0, 0, kSegments);
  model.node.host->core_list[0]->set_firmware([ring](fw::Hal& hal) {
    slmpm::RingWriter writer(hal, ring, slmpm::CounterMode::Mirrored);
    for (int i = 0; i < 200; ++i) {
      std::deque<slmpm::Packet> one(1);
      writer.flush(one);
      hal.compute(2000);
    }
  });
  model.node.accelerators[0]->ppe->set_firmware(reader);
  sc_core::sc_start();
  return CheckRegistry::instance().failed_checks();
}

// Where the accelerator writes the host's copies of J and K, and ring segment s.
const uint64_t kHostJCopy = amap::host_via_pcie(0) + shm::host_region(0) + shm::kJCopy;
const uint64_t kHostKCopy = amap::host_via_pcie(0) + shm::host_region(0) + shm::kKCopy;
uint64_t host_segment(uint64_t s) {
  return amap::host_via_pcie(0) + shm::host_region(0) + shm::kRing + s * sizeof(slmpm::Packet);
}

void write_packets(fw::Hal& hal, uint64_t first, uint64_t last) {
  for (uint64_t seq = first; seq <= last; ++seq) {
    slmpm::Packet p;
    p.seq = seq;
    hal.store(host_segment(seq % kSegments), p);
  }
}

}  // namespace

TEST(RingCheckerNegative, ControlACorrectWriterBreaksNoRule) {
  const auto failed = host_reads_while([](fw::Hal& hal) {
    write_packets(hal, 1, 3);
    hal.store<uint64_t>(kHostJCopy, 3);
  });
  EXPECT_TRUE(failed.empty());
  EXPECT_GT(hs::CheckRegistry::instance().check(slmpm::kRuleInSequence).evaluations, 0u);
}

TEST(RingCheckerNegative, AWriterAnnouncingMoreThanNUnreadPackets) {
  EXPECT_EQ(host_reads_while([](fw::Hal& hal) {
              write_packets(hal, 1, kSegments + 2);
              hal.store<uint64_t>(kHostJCopy, kSegments + 2);
            }),
            only(slmpm::kRuleAtMostN));
}

TEST(RingCheckerNegative, AWriterWhoseJGoesBackwards) {
  EXPECT_EQ(host_reads_while([](fw::Hal& hal) {
              write_packets(hal, 1, 3);
              hal.store<uint64_t>(kHostJCopy, 3);
              hal.compute(50'000);  // the reader has taken all three
              hal.store<uint64_t>(kHostJCopy, 2);
            }),
            only(slmpm::kRuleJMonotonic));
}

TEST(RingCheckerNegative, AWriterAnnouncingAPacketBeforeWritingIt) {
  EXPECT_EQ(host_reads_while([](fw::Hal& hal) {
              write_packets(hal, 1, 1);
              hal.store<uint64_t>(kHostJCopy, 2);  // packet 2 never written
            }),
            only(slmpm::kRuleInSequence));
}

TEST(RingCheckerNegative, AReaderPublishingKAheadOfJ) {
  EXPECT_EQ(host_writes_while([](fw::Hal& hal) { hal.store<uint64_t>(kHostKCopy, 1000); }),
            only(slmpm::kRuleKBehindJ));
}

TEST(RingCheckerNegative, AReaderWhoseKGoesBackwards) {
  EXPECT_EQ(host_writes_while([](fw::Hal& hal) {
              hal.compute(100'000);  // the writer has sent many packets by now
              hal.store<uint64_t>(kHostKCopy, 5);
              hal.compute(50'000);
              hal.store<uint64_t>(kHostKCopy, 4);
            }),
            only(slmpm::kRuleKMonotonic));
}

// The remote-read checker armed in every hybrid model: the accelerator reads the host's ring
// across PCIe.
TEST(RemoteReadCheckerNegative, AReadOfTheHostRingAcrossPcieIsReportedByName) {
  static runner::HybridModel model;
  ParamRegistry::instance().finalize();
  model.node.accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    hal.load<uint64_t>(amap::host_via_pcie(0) + shm::host_region(0) + shm::kRing);
  });
  sc_core::sc_start();
  EXPECT_EQ(CheckRegistry::instance().failed_checks(),
            only("SLMPM: no remote read of ring data or counter copies"));
}

TEST(PinningCheckerNegative, AnUnsafeUnpinLetsADmaWriteIntoTheRegionAndIsReportedByName) {
  const Json r = hs::testing::run_scenario("pin_dma_unpin",
                                           {"workload.max_bytes=65536", "workload.rule=unsafe"});
  ASSERT_FALSE(hs::testing::passed(r)) << r.dump();
  EXPECT_EQ(r["checks"]["violations"][0]["check"],
            "pin/DMA/unpin: no DMA write into a region after its unpin")
      << hs::testing::violations(r);
}

TEST(CacheCheckerNegative, AnEvictedInUseRegistrationIsReportedByNameAsDmaIntoUnpinnedMemory) {
  const Json r = hs::testing::run_scenario(
      "dma_transfers", {"workload.transfers=200", "workload.buffers=8",
                        "node0.host.slmpm.cache.max_entries=4", "workload.window=6"});
  ASSERT_FALSE(hs::testing::passed(r)) << r.dump();
  EXPECT_EQ(r["checks"]["violations"][0]["check"],
            "SLMPM transfers: DMA touches only pinned host memory")
      << hs::testing::violations(r);
}
