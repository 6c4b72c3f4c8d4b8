// SLMPM mode selection: accelerator-ID forms, link choice by load, protocol by operation,
// size and shared-memory utilisation.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sw/slmpm/mode_selection.h"

using namespace hs::fw::slmpm;

namespace {
Monitored two_of_each(uint64_t p0, uint64_t p1, uint64_t e0, uint64_t e1, double shm = 0) {
  Monitored m;
  m.pcie_queue_bytes = {p0, p1};
  m.ethernet_queue_bytes = {e0, e1};
  m.shm_utilisation = shm;
  return m;
}
const AcceleratorId kPcie{AcceleratorId::Form::PcieId, 7};
const AcceleratorId kMac{AcceleratorId::Form::EthernetMac, 0x0200'0000'0001};
const AcceleratorId kGlobal{AcceleratorId::Form::Global, 3};
}  // namespace

TEST(ModeSelection, TheIdFormPicksTheFabric) {
  const Thresholds t;
  const auto m = two_of_each(0, 0, 0, 0);
  EXPECT_EQ(select_mode(Operation::Put, 1 << 20, kPcie, m, t).fabric, Fabric::Pcie);
  EXPECT_EQ(select_mode(Operation::Put, 1 << 20, kMac, m, t).fabric, Fabric::Ethernet);
  EXPECT_EQ(select_mode(Operation::Put, 1 << 20, kGlobal, m, t).fabric, t.default_fabric);
}

TEST(ModeSelection, TheLeastLoadedLinkIsChosen) {
  const Thresholds t;
  EXPECT_EQ(select_mode(Operation::Put, 1 << 20, kPcie, two_of_each(900, 100, 0, 0), t).link, 1);
  EXPECT_EQ(select_mode(Operation::Put, 1 << 20, kPcie, two_of_each(100, 900, 0, 0), t).link, 0);
}

TEST(ModeSelection, AGlobalIdMovesToTheOtherFabricWhenEveryDefaultLinkIsBusy) {
  Thresholds t;
  t.queue_bytes = 1000;
  const auto busy = two_of_each(5000, 6000, 10, 20);
  const Mode m = select_mode(Operation::Send, 100, kGlobal, busy, t);
  EXPECT_EQ(m.fabric, Fabric::Ethernet);
  EXPECT_EQ(m.link, 0);
  // An explicit PCIe ID stays on PCIe however busy it is.
  EXPECT_EQ(select_mode(Operation::Send, 100, kPcie, busy, t).fabric, Fabric::Pcie);
  // And a global ID stays put if the other fabric is as busy.
  EXPECT_EQ(
      select_mode(Operation::Send, 100, kGlobal, two_of_each(5000, 6000, 7000, 8000), t).fabric,
      Fabric::Pcie);
}

TEST(ModeSelection, PutAndGetDefaultToDmaAndSendToSharedMemory) {
  const Thresholds t;
  const auto m = two_of_each(0, 0, 0, 0);
  EXPECT_EQ(select_mode(Operation::Put, 1 << 20, kPcie, m, t).protocol, Protocol::Dma);
  EXPECT_EQ(select_mode(Operation::Get, 1 << 20, kPcie, m, t).protocol, Protocol::Dma);
  EXPECT_EQ(select_mode(Operation::Send, 1 << 20, kPcie, m, t).protocol, Protocol::SharedMemory);
}

TEST(ModeSelection, SmallMessagesGoBySharedMemory) {
  Thresholds t;
  t.dma_min_bytes = 4096;
  const auto m = two_of_each(0, 0, 0, 0);
  EXPECT_EQ(select_mode(Operation::Put, 4095, kPcie, m, t).protocol, Protocol::SharedMemory);
  EXPECT_EQ(select_mode(Operation::Put, 4096, kPcie, m, t).protocol, Protocol::Dma);
}

TEST(ModeSelection, ASendIntoACongestedRingGoesByDma) {
  Thresholds t;
  t.shm_utilisation = 0.5;
  EXPECT_EQ(select_mode(Operation::Send, 1 << 16, kPcie, two_of_each(0, 0, 0, 0, 0.4), t).protocol,
            Protocol::SharedMemory);
  const Mode m = select_mode(Operation::Send, 1 << 16, kPcie, two_of_each(0, 0, 0, 0, 0.9), t);
  EXPECT_EQ(m.protocol, Protocol::Dma);
  EXPECT_NE(m.reason.find("shared-memory threshold"), std::string::npos) << m.reason;
}

TEST(ModeSelection, EthernetCarriesEverythingBySharedMemory) {
  const Thresholds t;
  const auto m = two_of_each(0, 0, 0, 0, 0.99);
  EXPECT_EQ(select_mode(Operation::Put, 1 << 20, kMac, m, t).protocol, Protocol::SharedMemory);
  EXPECT_EQ(select_mode(Operation::Get, 1 << 20, kMac, m, t).protocol, Protocol::SharedMemory);
}

TEST(ModeSelection, AFabricWithoutLinksIsAnError) {
  Monitored m;
  m.pcie_queue_bytes = {0};
  EXPECT_THROW(select_mode(Operation::Send, 10, kMac, m, Thresholds{}), std::invalid_argument);
}
