// The communication motifs on small tori in SMP and VN modes: exact message and byte counts,
// every payload checked (by the ranks and by the MPI checker), timing against analytic lower
// bounds, the 26-neighbour halo, communicators split by colour and key, and bad parameters
// refused before the run. Each run is a forked child (a SystemC kernel elaborates once per
// process).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "hw/torus/network/network_config.h"
#include "sw/apps/motif_pingpong_pairs.h"
#include "sw/apps/motif_random_permutation.h"
#include "testbench/support/scenario_run.h"

using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;
using nlohmann::json;
namespace motifs = hs::fw::motifs;

namespace {

std::vector<std::string> torus(int x, int y, int z, const std::string& mode,
                               std::vector<std::string> more = {}) {
  std::vector<std::string> v = {"torus.network.x=" + std::to_string(x),
                                "torus.network.y=" + std::to_string(y),
                                "torus.network.z=" + std::to_string(z), "mpi.mode=" + mode};
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

// Runs and expects a pass with every message checked and every rank finished, and (unless
// every message stays on its node) links busy.
json run_ok(const std::string& workload, const std::vector<std::string>& sets,
            bool links_busy = true) {
  const json r = run_scenario(workload, sets);
  EXPECT_TRUE(passed(r)) << workload << ": " << violations(r) << r.value("error", "");
  if (!passed(r)) return json::object();
  const json& w = r["results"];
  EXPECT_EQ(w["ranks_finished"], w["ranks"]);
  EXPECT_EQ(w["messages_checked"], w["messages"]);
  if (links_busy) {
    EXPECT_GT(w["link_utilisation"]["max"].get<double>(), 0.0);
  }
  // Within rounding: on evenly loaded links the mean of equal values may differ in its last bit.
  EXPECT_GE(w["link_utilisation"]["max"].get<double>(),
            w["link_utilisation"]["mean"].get<double>() * (1 - 1e-12));
  return w;
}

double per_iteration(const json& w, const char* what) {
  return w[what].get<double>();
}

std::string error_of(const std::string& workload, const std::vector<std::string>& sets) {
  return run_scenario(workload, sets).value("error", std::string());
}

constexpr double kCoreGHz = 0.85;

// A packet of `payload` bytes over one link with no load: no message is faster.
double one_hop_ns(uint32_t payload) {
  const hs::torus::NetworkConfig n;
  return n.zero_load_latency_ns(1, n.chunks_for(payload));
}

}  // namespace

// ---- halo3d with 26 neighbours. ----

TEST(Halo3d26, EveryRankSwapsFacesEdgesAndCornersWithTwentySixNeighbours) {
  // 3x3x3 in SMP: a 3x3x3 grid of ranks, every dimension >= 3, so 26 distinct neighbours
  // (27 ranks: alltoall algorithms that allow them).
  const json w =
      run_ok("halo3d", torus(3, 3, 3, "smp",
                             {"workload.neighbours=26", "workload.cells=4", "workload.iterations=1",
                              "mpi.algorithm.alltoall=ring", "mpi.algorithm.alltoallv=ring"}));
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w["grid"], "3x3x3");
  EXPECT_DOUBLE_EQ(per_iteration(w, "messages_per_iteration"), 26.0 * 27);
  // 6 faces of 4x4 cells, 12 edges of 4, 8 corners of 1, at 8 B a cell.
  EXPECT_DOUBLE_EQ(per_iteration(w, "bytes_per_iteration"), 27.0 * (6 * 16 + 12 * 4 + 8) * 8);
  // VN on 2x2x2: 32 ranks as 4x4x2, every neighbour present (some twice over).
  const json vn = run_ok(
      "halo3d", torus(2, 2, 2, "vn",
                      {"workload.neighbours=26", "workload.cells=4", "workload.iterations=1"}));
  ASSERT_FALSE(vn.empty());
  EXPECT_DOUBLE_EQ(per_iteration(vn, "messages_per_iteration"), 26.0 * 32);
}

TEST(Halo3d26, SixNeighboursStaysTheDefault) {
  const json w =
      run_ok("halo3d", torus(2, 2, 2, "smp", {"workload.cells=4", "workload.iterations=1"}));
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w["neighbours"], 6);
  EXPECT_DOUBLE_EQ(per_iteration(w, "messages_per_iteration"), 6.0 * 8);
}

// A grid shaped like the torus puts every neighbour one hop away; the balanced grid of the
// same 64 ranks (4x4x4) does not fit an 8x4x2 torus, so its x and y neighbours are further
// and share links, and the exchange takes longer.
TEST(Halo3dGrid, AGridShapedLikeTheTorusKeepsEveryNeighbourOneHopAway) {
  const auto sets = [](const std::string& grid) {
    return torus(8, 4, 2, "smp", {"workload.iterations=1", "workload.grid=" + grid});
  };
  const json matched = run_ok("halo3d", sets("8x4x2"));
  const json balanced = run_ok("halo3d", sets("balanced"));
  const json cube = run_ok("halo3d", torus(4, 4, 4, "smp", {"workload.iterations=1"}));
  ASSERT_FALSE(matched.empty() || balanced.empty() || cube.empty());
  EXPECT_EQ(matched["grid"], "8x4x2");
  EXPECT_EQ(balanced["grid"], "4x4x4");
  // One hop to every neighbour: the same time as the cube, whose balanced grid is its shape.
  EXPECT_NEAR(per_iteration(matched, "time_per_iteration_ns"),
              per_iteration(cube, "time_per_iteration_ns"), 50.0);
  EXPECT_GT(per_iteration(balanced, "communication_ns_per_iteration"),
            1.05 * per_iteration(matched, "communication_ns_per_iteration"));
  EXPECT_GT(balanced["link_utilisation"]["max"].get<double>(),
            2 * matched["link_utilisation"]["max"].get<double>());
}

// ---- sweep3d. ----

TEST(Sweep3d, MessagesFollowTheGridAndTheIterationOutlastsThePipeline) {
  for (const char* mode : {"smp", "vn"}) {
    const json w = run_ok("sweep3d", torus(2, 2, 2, mode,
                                           {"workload.cells=4", "workload.nz=8",
                                            "workload.kblock=2", "workload.iterations=1"}));
    ASSERT_FALSE(w.empty()) << mode;
    const int ranks = w["ranks"], px = 2, py = ranks / px, blocks = 4, octants = 8;
    EXPECT_EQ(w["grid"], "2x" + std::to_string(py));
    const double per_block = (px - 1) * py + px * (py - 1);
    EXPECT_DOUBLE_EQ(per_iteration(w, "messages_per_iteration"), per_block * blocks * octants)
        << mode;
    EXPECT_DOUBLE_EQ(per_iteration(w, "bytes_per_iteration"),
                     per_block * blocks * octants * 4 * 2 * 8)
        << mode;
    // Each sweep's last block leaves the far corner px + py - 2 steps after the first block
    // starts: no sweep is shorter than (blocks + px + py - 2) blocks' compute.
    const double block_ns = 4 * 4 * 2 * 10 / kCoreGHz;
    EXPECT_GE(w["time_per_iteration_ns"].get<double>(), octants * (blocks + px + py - 2) * block_ns)
        << mode;
  }
}

// ---- transpose. ----

TEST(Transpose, RowAndColumnAlltoallsCountAndVerify) {
  const json w = run_ok("transpose", torus(4, 2, 2, "smp", {"workload.bytes=256"}));
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w["grid"], "4x4");
  EXPECT_DOUBLE_EQ(per_iteration(w, "messages_per_iteration"), 16.0 * (3 + 3));
  EXPECT_DOUBLE_EQ(per_iteration(w, "bytes_per_iteration"), 16.0 * 6 * 256);
  // An alltoall an iteration on each of the 4 row and 4 column communicators, over the
  // scenario's 2 iterations and a warm-up, all verified; the splits' allgathers too.
  EXPECT_EQ(w["collectives_verified"], 2 + 8 * 3);
  const json vn = run_ok("transpose", torus(2, 2, 2, "vn", {"workload.bytes=64"}));
  ASSERT_FALSE(vn.empty());
  EXPECT_EQ(vn["grid"], "4x8");
  EXPECT_DOUBLE_EQ(per_iteration(vn, "messages_per_iteration"), 32.0 * (7 + 3));
}

// Rows of 4 ranks are x rings of the 4x4x2 torus, columns of 8 its y-z planes. A ring's
// alltoall sends 4 blocks each way across its 2 cut links a direction; a 4x2 plane's sends 16
// across the 4 links that cut it in y. Neither exchange can beat its cut's bandwidth.
TEST(Transpose, NoFasterThanTheBisectionBound) {
  const uint32_t bytes = 8192;
  const json w = run_ok("transpose", torus(4, 4, 2, "smp",
                                           {"workload.rows=8", "workload.compute_cycles=0",
                                            "workload.bytes=" + std::to_string(bytes)}));
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w["grid"], "8x4");
  const double rate = hs::torus::NetworkConfig{}.link_bytes_per_second;
  const double bound_ns = (4.0 * bytes / 2 + 16.0 * bytes / 4) / rate * 1e9;
  const double t = w["time_per_iteration_ns"];
  EXPECT_GE(t, bound_ns);
  EXPECT_LT(t, 6 * bound_ns) << "the bound should be within reach";
}

// ---- random_permutation. ----

TEST(RandomPermutation, DerangementsAreSeededPermutationsWithoutFixedPoints) {
  for (int n : {2, 3, 8, 33}) {
    const auto p = motifs::derangement(n, 7, 0);
    std::set<int> seen(p.begin(), p.end());
    EXPECT_EQ(seen.size(), static_cast<size_t>(n));
    EXPECT_EQ(*seen.begin(), 0);
    EXPECT_EQ(*seen.rbegin(), n - 1);
    for (int i = 0; i < n; ++i) EXPECT_NE(p[static_cast<size_t>(i)], i);
    EXPECT_EQ(p, motifs::derangement(n, 7, 0)) << "the same on every rank";
  }
  EXPECT_NE(motifs::derangement(64, 7, 0), motifs::derangement(64, 7, 1));
  EXPECT_NE(motifs::derangement(64, 7, 0), motifs::derangement(64, 8, 0));
}

TEST(RandomPermutation, OneMessageARankAndEachAtLeastAHop) {
  for (const char* mode : {"smp", "vn"}) {
    const json w = run_ok("random_permutation",
                          torus(2, 2, 2, mode, {"workload.bytes=1000", "workload.seed=5"}));
    ASSERT_FALSE(w.empty()) << mode;
    const double ranks = w["ranks"];
    EXPECT_DOUBLE_EQ(per_iteration(w, "messages_per_iteration"), ranks) << mode;
    EXPECT_DOUBLE_EQ(per_iteration(w, "bytes_per_iteration"), ranks * 1000) << mode;
    if (std::string(mode) == "smp") {
      // Every partner is on another node.
      EXPECT_GE(w["time_per_iteration_ns"].get<double>(), one_hop_ns(1000));
    }
  }
}

// ---- pingpong_pairs. ----

TEST(PingpongPairs, NeighbourPairsAreOneHopApartAndEveryRankIsPaired) {
  const hs::torus::TorusShape shape(4, 3, 2, true);
  for (int rpn : {1, 4}) {
    const auto map = hs::fw::mpi::RankMap::by_order(shape, rpn, "XYZT");
    for (auto pairing :
         {motifs::Pairing::Neighbour, motifs::Pairing::Random, motifs::Pairing::Bisection}) {
      const auto partner = motifs::pair_ranks(pairing, map, shape, 3);
      for (int r = 0; r < map.size(); ++r) {
        const int p = partner[static_cast<size_t>(r)];
        ASSERT_NE(p, r);
        EXPECT_EQ(partner[static_cast<size_t>(p)], r);
        if (pairing != motifs::Pairing::Neighbour) continue;
        const auto a = shape.coord(map.place(r).node), b = shape.coord(map.place(p).node);
        EXPECT_EQ(std::abs(a.v[0] - b.v[0]) + std::abs(a.v[1] - b.v[1]) + std::abs(a.v[2] - b.v[2]),
                  1);
        EXPECT_EQ(map.place(r).t, map.place(p).t);
      }
    }
  }
  const hs::torus::TorusShape odd(3, 3, 1, true);
  const auto map = hs::fw::mpi::RankMap::by_order(odd, 2, "XYZT");
  EXPECT_THROW(motifs::pair_ranks(motifs::Pairing::Neighbour, map, odd, 1), std::invalid_argument);
}

TEST(PingpongPairs, HalfRoundTripIsNoShorterThanTheLinkLatency) {
  for (const std::string mode : {"smp", "vn"}) {
    for (const std::string pairing : {"neighbour", "random", "bisection"}) {
      // In VN mode rank r + size/2 is on r's node (XYZT: t varies slowest): no link is used.
      const bool on_node = mode == "vn" && pairing == "bisection";
      const json w = run_ok(
          "pingpong_pairs",
          torus(2, 2, 2, mode,
                {"workload.pairing=" + pairing, "workload.iterations=4", "workload.bytes=64"}),
          !on_node);
      ASSERT_FALSE(w.empty()) << mode << " " << pairing;
      if (on_node) {
        EXPECT_EQ(w["link_utilisation"]["max"].get<double>(), 0.0);
      }
      const double ranks = w["ranks"];
      EXPECT_EQ(w["pairs"], ranks / 2);
      EXPECT_DOUBLE_EQ(per_iteration(w, "messages_per_iteration"), ranks) << pairing;
      EXPECT_DOUBLE_EQ(per_iteration(w, "bytes_per_iteration"), ranks * 64) << pairing;
      const json& h = w["half_round_trip_ns"];
      EXPECT_LE(h["min"].get<double>(), h["mean"].get<double>());
      EXPECT_LE(h["mean"].get<double>(), h["max"].get<double>());
      const json& bw = w["bandwidth_MBps"];
      EXPECT_NEAR(bw["max"].get<double>(), 64 / h["min"].get<double>() * 1e3, 1e-6);
      if (pairing == "neighbour") {
        EXPECT_GE(h["min"].get<double>(), one_hop_ns(64));
      }
    }
  }
}

// ---- Bad parameters, refused before the run. ----

TEST(MotifInput, ImpossibleGridsAndPairingsAreRefused) {
  EXPECT_NE(error_of("halo3d", torus(2, 2, 2, "smp", {"workload.neighbours=8"}))
                .find("workload.neighbours"),
            std::string::npos);
  for (const char* grid : {"8x4", "0x2x4", "2x2x2x", "2 x2x2", "9999999x1x1"}) {
    const std::string e =
        error_of("halo3d", torus(2, 2, 2, "smp", {std::string("workload.grid=") + grid}));
    EXPECT_NE(e.find("workload.grid"), std::string::npos) << grid << ": " << e;
  }
  const std::string wrong = error_of("halo3d", torus(2, 2, 2, "smp", {"workload.grid=2x2x4"}));
  EXPECT_NE(wrong.find("holds 16 ranks; the job has 8"), std::string::npos) << wrong;
  EXPECT_NE(error_of("sweep3d", torus(2, 2, 2, "smp", {"workload.px=3"})).find("workload.px"),
            std::string::npos);
  EXPECT_NE(error_of("transpose", torus(2, 2, 2, "smp", {"workload.rows=3"})).find("workload.rows"),
            std::string::npos);
  // 9 ranks (with alltoall algorithms that allow them) cannot all be paired.
  const std::string odd = error_of(
      "pingpong_pairs",
      torus(3, 3, 1, "smp", {"mpi.algorithm.alltoall=ring", "mpi.algorithm.alltoallv=ring"}));
  EXPECT_NE(odd.find("workload.pairing"), std::string::npos) << odd;
  EXPECT_NE(odd.find("9 ranks cannot all be paired"), std::string::npos) << odd;
}
