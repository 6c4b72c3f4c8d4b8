// The torus machine at scale, as far as tests can hold it without wall time: axes up to 128
// nodes, DMA engines that hold no thread (a machine of any size runs within the kernel's
// default map count), and what a node costs in memory. Speed and the full 72x32x32 machine
// are held by the torus_scale benchmark.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "hw/torus/dma/torus_dma_interface.h"
#include "hw/torus/node/torus_machine.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"
#include "tlm/common/errors.h"
#include "tlm/link/delivery_workers.h"
#include "tlm/params/param_registry.h"

using namespace hs;
using hs::testing::set_param;

namespace {

void set_shape(int x, int y, int z) {
  set_param("torus.network.x", x);
  set_param("torus.network.y", y);
  set_param("torus.network.z", z);
}

std::string finalize_error() {
  try {
    ParamRegistry::instance().finalize();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Thread processes anywhere below `objects`.
int threads_below(const std::vector<sc_core::sc_object*>& objects) {
  int n = 0;
  for (const sc_core::sc_object* o : objects) {
    n += std::string(o->kind()) == "sc_thread_process";
    n += threads_below(o->get_child_objects());
  }
  return n;
}

// Resident bytes of this process now.
double resident_bytes() {
  long pages = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  const int got = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return got == 2 ? static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) : 0;
}

}  // namespace

TEST(TorusScale, AxesOf128NodesAreAccepted) {
  set_shape(128, 1, 1);
  torus::TorusMachine m("torus");
  EXPECT_EQ(finalize_error(), "");
  EXPECT_EQ(m.shape().size(0), 128);
  EXPECT_EQ(m.nodes.size(), 128u);
}

TEST(TorusScale, AnAxisBeyond128IsRefusedByName) {
  set_shape(1, 1, 129);
  torus::TorusMachine m("torus");
  const std::string e = finalize_error();
  EXPECT_NE(e.find("torus.network.z"), std::string::npos) << e;
  EXPECT_NE(e.find("128"), std::string::npos) << e;
}

// A reception FIFO entry names the node that sent it, up to the last node of the largest torus.
TEST(TorusScale, FifoEntriesNameEverySourceNode) {
  const torus::TorusShape largest(128, 128, 128, true);
  const auto last = static_cast<uint32_t>(largest.nodes() - 1);
  torus::dma::FifoEntryHeader h{};
  h.src = last;
  h.payload = 256;  // a full packet's payload
  EXPECT_EQ(h.src, last);
  EXPECT_EQ(h.payload, 256u);
}

// Only firmware needs a thread: the DMA engines of idle nodes and of the node that sends are
// methods, so the machine's threads are its firmware's, however many nodes it has.
// Firmware runs in a fiber, not a kernel thread: a full machine with a rank on every core
// holds no thread stack (and no memory mapping) per core.
TEST(TorusScale, NoNodeHoldsAThreadEvenWithFirmware) {
  set_shape(4, 4, 4);
  torus::TorusMachine m("torus");
  ASSERT_EQ(finalize_error(), "");
  for (int n = 0; n < m.shape().nodes(); ++n) {
    m.node(n).core_list[0]->set_firmware([](fw::Hal& hal) { hal.compute(10); });
  }
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration complete, firmware started
  EXPECT_EQ(threads_below(m.get_child_objects()), 0);
  sc_core::sc_start();
  EXPECT_TRUE(m.node(5).core_list[0]->finished());
}

// Every node receiving at once (a halo exchange: each of 64 nodes takes packets from six
// neighbours in the same window) borrows no delivery thread: the reception units take packets
// in methods, so the full machine needs no thread stack per receiving node.
TEST(TorusScale, NodesReceivingAtOnceBorrowNoThread) {
  const auto r = hs::testing::run_scenario_here(
      "halo3d",
      {"torus.network.x=4", "torus.network.y=4", "torus.network.z=4", "workload.iterations=1"});
  ASSERT_TRUE(hs::testing::passed(r)) << hs::testing::violations(r);
  EXPECT_GE(r["stats"]["torus.dma"]["packets_received"].get<double>(), 64 * 6);
  EXPECT_EQ(DeliveryWorkers::instance().workers(), 0u);
}

// A node (four cores, DRAM, bus, DMA engine with two counter banks, its share of the network)
// costs little while idle: a 16x16x16 machine adds at most this much resident memory per node.
TEST(TorusScale, AnIdleNodeCostsLittleMemory) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr double kBytesPerNode = 160 * 1024;  // AddressSanitizer's redzones and shadow
#else
  constexpr double kBytesPerNode = 64 * 1024;
#endif
  set_shape(16, 16, 16);
  const double before = resident_bytes();
  torus::TorusMachine m("torus");
  ASSERT_EQ(finalize_error(), "");
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // ports bound, processes created
  const double per_node = (resident_bytes() - before) / m.shape().nodes();
  EXPECT_GT(per_node, 0);
  EXPECT_LT(per_node, kBytesPerNode);
}
