// Memory follows the partition: a partitioned process keeps the torus network's per-router,
// per-link and per-output state for its own routers only (no halo: what a router does to a
// neighbour across the cut is a message), so the routers all processes keep add up to the
// machine and each process's share falls with the number of processes. Read off the arrays'
// sizes (TorusNetwork::footprint), not from the memory the process happens to take.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "hw/torus/network/partition.h"
#include "hw/torus/network/torus_network.h"

using namespace hs::torus;

namespace {

NetworkConfig machine(int x, int y, int z, bool wrap = true) {
  NetworkConfig cfg;
  std::tie(cfg.x, cfg.y, cfg.z, cfg.wrap) = std::make_tuple(x, y, z, wrap);
  return cfg;
}

// What each of the `parts` processes keeps when `scheme` cuts the machine `cfg` describes.
std::vector<TorusNetwork::Footprint> footprints(const NetworkConfig& cfg, const char* scheme,
                                                int parts) {
  static int made = 0;  // every network a module of its own name
  const TorusShape shape(cfg.x, cfg.y, cfg.z, cfg.wrap);
  const Partitioner::Cut cut = partitioners().get(scheme).cut(shape, parts, -1, {0, 0, 0});
  std::vector<TorusNetwork::Footprint> out;
  for (int self = 0; self < parts; ++self) {
    const Partition p(shape, parts, self, cut.owner, cut.description);
    const TorusNetwork net(fmt::format("net{}", made++).c_str(), cfg, &p);
    const TorusNetwork::Footprint f = net.footprint();
    EXPECT_EQ(f.routers, p.local_nodes().size())
        << scheme << " P=" << parts << " partition " << self << ": its own routers, no halo";
    EXPECT_EQ(f.links, p.local_nodes().size() * kDirs) << scheme << " P=" << parts;
    EXPECT_EQ(net.kept_routers(), p.local_nodes().size());
    out.push_back(f);
  }
  return out;
}

size_t largest(const std::vector<TorusNetwork::Footprint>& fs) {
  size_t most = 0;
  for (const auto& f : fs) most = std::max(most, f.routers);
  return most;
}

}  // namespace

TEST(ParallelMemory, OneProcessKeepsTheWholeMachine) {
  const NetworkConfig cfg = machine(4, 4, 4);
  const TorusNetwork net("whole", cfg);
  EXPECT_EQ(net.footprint().routers, 64u);
  EXPECT_EQ(net.footprint().links, 64u * kDirs);
  const Partition whole(TorusShape(4, 4, 4, true));
  const TorusNetwork net1("whole1", cfg, &whole);
  EXPECT_EQ(net1.footprint().routers, 64u) << "mpirun -np 1: the whole machine, as one process";
}

// Slabs and boxes, even and uneven: each process keeps exactly its own routers, the processes
// together the machine once, and the largest share falls as P grows.
TEST(ParallelMemory, EachProcessKeepsItsOwnRoutersOnlyAndTheShareFallsWithP) {
  const NetworkConfig cfg = machine(8, 8, 8);
  for (const char* scheme : {"slab", "box"}) {
    size_t before = 512;
    for (int parts : {2, 4, 8}) {
      const auto fs = footprints(cfg, scheme, parts);
      size_t total = 0;
      for (const auto& f : fs) total += f.routers;
      EXPECT_EQ(total, 512u) << scheme << " P=" << parts << ": no router kept twice";
      EXPECT_EQ(largest(fs), 512u / static_cast<size_t>(parts)) << scheme << " P=" << parts;
      EXPECT_LT(largest(fs), before) << scheme << " P=" << parts;
      before = largest(fs);
    }
  }
  // Three slabs of 8 planes (3, 3 and 2) and a mesh cut into boxes.
  const auto uneven = footprints(cfg, "slab", 3);
  ASSERT_EQ(uneven.size(), 3u);
  EXPECT_EQ(uneven[0].routers, 192u);
  EXPECT_EQ(uneven[2].routers, 128u);
  EXPECT_EQ(largest(footprints(machine(6, 4, 2, false), "box", 4)), 12u);
}

// With CRC errors injected the network counts each link's errors: for its own links too.
TEST(ParallelMemory, LinkErrorCountsAreKeptForOwnLinksOnly) {
  NetworkConfig cfg = machine(4, 4, 4);
  cfg.link_crc_error.rate = 0.01;
  cfg.link_crc_error.name = "crc";
  const auto fs = footprints(cfg, "slab", 4);
  EXPECT_EQ(largest(fs), 16u);
}
