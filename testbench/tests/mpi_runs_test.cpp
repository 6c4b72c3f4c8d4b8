// The message-passing layer on small tori: every node mode with several mappings and a
// mapping file, point-to-point semantics, each collective algorithm's verified result, the
// motifs, timing against analytic bounds, and bad input refused before the run. Each run is a
// forked child (a SystemC kernel elaborates once per process).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "sw/mpi/coll_algorithms.h"
#include "testbench/support/scenario_run.h"
#include "testbench/support/temp_path.h"

using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;
using nlohmann::json;
namespace mpi = hs::fw::mpi;

namespace {

std::vector<std::string> torus(int x, int y, int z) {
  return {"torus.network.x=" + std::to_string(x), "torus.network.y=" + std::to_string(y),
          "torus.network.z=" + std::to_string(z)};
}

json run(const std::string& scenario, std::vector<std::string> sets,
         const std::vector<std::string>& more = {}) {
  sets.insert(sets.end(), more.begin(), more.end());
  return run_scenario(scenario, sets);
}

std::string error(const json& r) {
  return r.value("error", std::string());
}

// Small enough thresholds that short messages still cover eager, split and rendezvous.
const std::vector<std::string> kSmallProtocols = {"mpi.eager_limit=256", "mpi.split_limit=2048",
                                                  "workload.largest_message=4000",
                                                  "workload.bytes=256"};

}  // namespace

// ---- Every node mode and mapping: point to point and every collective, all verified. ----

class ModesAndMappings
    : public ::testing::TestWithParam<std::tuple<std::string, std::string, std::string>> {};

TEST_P(ModesAndMappings, ConformanceRunPassesWithEverythingVerified) {
  const auto& [shape, mode, mapping] = GetParam();
  std::vector<std::string> sets = shape == "2x2x2" ? torus(2, 2, 2) : torus(4, 4, 2);
  sets.push_back("mpi.mode=" + mode);
  sets.push_back("mpi.mapping=" + mapping);
  const json r = run("mpi_conformance", sets, kSmallProtocols);
  ASSERT_TRUE(passed(r)) << violations(r) << error(r);
  const json& w = r["results"];
  const int rpn = mode == "smp" ? 1 : mode == "dual" ? 2 : 4;
  const int nodes = shape == "2x2x2" ? 8 : 32;
  EXPECT_EQ(w["ranks"], nodes * rpn);
  EXPECT_EQ(w["ranks_finished"], nodes * rpn);
  EXPECT_EQ(w["mapping"], mapping);
  EXPECT_EQ(w["collectives_verified"], 10);  // 3 barriers in the point-to-point part
  EXPECT_GT(w["collective_result_bytes_verified"].get<uint64_t>(), 0u);
  EXPECT_EQ(w["messages_checked"], w["messages"]);
  EXPECT_GT(w["unexpected_messages"].get<uint64_t>(), 0u);
  // Per rank: the ring at 4 sizes, 4 unexpected, 3 wildcard and 1 posted; rank 0 checks the
  // others' many-to-one messages.
  EXPECT_EQ(w["p2p_buffers_checked"], nodes * rpn * 12 + nodes * rpn - 1);
}

INSTANTIATE_TEST_SUITE_P(SmallTori, ModesAndMappings,
                         ::testing::Combine(::testing::Values("2x2x2", "4x4x2"),
                                            ::testing::Values("smp", "dual", "vn"),
                                            ::testing::Values("XYZT", "TXYZ", "ZYXT")),
                         [](const auto& p) {
                           return std::get<0>(p.param) + "_" + std::get<1>(p.param) + "_" +
                                  std::get<2>(p.param);
                         });

TEST(MpiMapping, EveryOtherOrderRunsOnTwoByTwoByTwoInVnMode) {
  for (const char* order : {"XTYZ", "YZXT", "TZYX", "ZTXY"}) {
    std::vector<std::string> sets = torus(2, 2, 2);
    sets.push_back("mpi.mode=vn");
    sets.push_back(std::string("mpi.mapping=") + order);
    sets.push_back("workload.p2p=false");
    const json r = run("mpi_conformance", sets, {"workload.bytes=64"});
    EXPECT_TRUE(passed(r)) << order << violations(r) << error(r);
  }
}

TEST(MpiMapping, AMappingFileRunsAndMistakesInItAreRefusedWithFileAndLine) {
  const std::string path = hs::testing::temp_path("mpi_mapping.txt");
  {
    std::ofstream f(path);
    f << "# 2x2x2 in dual mode, ranks from the far corner back\n";
    for (int n = 7; n >= 0; --n) {
      for (int t = 0; t < 2; ++t)
        f << n % 2 << ' ' << n / 2 % 2 << ' ' << n / 4 << ' ' << t << '\n';
    }
  }
  std::vector<std::string> sets = torus(2, 2, 2);
  sets.push_back("mpi.mode=dual");
  sets.push_back("mpi.mapping_file=" + path);
  const json r = run("mpi_conformance", sets, kSmallProtocols);
  ASSERT_TRUE(passed(r)) << violations(r) << error(r);
  EXPECT_EQ(r["results"]["mapping"], path);

  {
    std::ofstream f(path);
    f << "0 0 0 0\n0 0 0 0\n1 0 0 7\n";
  }
  const json bad = run("mpi_conformance", sets);
  const std::string e = error(bad);
  EXPECT_NE(e.find("mpi.mapping_file"), std::string::npos) << e;
  EXPECT_NE(e.find(path + ":2: 0 0 0 0 is already taken by line 1"), std::string::npos) << e;
  EXPECT_NE(e.find(path + ":3: t = 7 is outside 0..1"), std::string::npos) << e;
  std::remove(path.c_str());
}

// ---- Each collective algorithm: its result verified by the checker. ----

class Algorithm : public ::testing::TestWithParam<std::tuple<mpi::Collective, std::string>> {};

TEST_P(Algorithm, ResultsVerifiedOnSixteenRanksAndOnSix) {
  const auto& [c, name] = GetParam();
  const std::string param = std::string("mpi.algorithm.") + mpi::collective_name(c) + "=" + name;
  std::vector<std::string> sets = torus(2, 2, 2);
  sets.push_back("mpi.mode=dual");
  sets.push_back("workload.p2p=false");
  sets.push_back(param);
  const json r = run("mpi_conformance", sets, {"workload.bytes=1000", "workload.repeat=2"});
  ASSERT_TRUE(passed(r)) << violations(r) << error(r);
  EXPECT_EQ(r["results"]["collectives_verified"], 14);
  EXPECT_EQ(r["results"]["algorithms"][mpi::collective_name(c)], name);
  std::string why;
  if (!mpi::find_algorithm(c, name, 6, why)) return;  // power-of-two only
  // Six ranks: the non-power-of-two paths; the others' power-of-two-only defaults swapped.
  sets = torus(3, 2, 1);
  sets.insert(sets.end(), {"mpi.mode=smp", "workload.p2p=false", "mpi.algorithm.alltoall=ring",
                           "mpi.algorithm.alltoallv=ring", "workload.datatype=double", param});
  const json six = run("mpi_conformance", sets, {"workload.bytes=520"});
  ASSERT_TRUE(passed(six)) << violations(six) << error(six);
  EXPECT_EQ(six["results"]["collectives_verified"], 7);
}

std::vector<std::tuple<mpi::Collective, std::string>> every_algorithm() {
  std::vector<std::tuple<mpi::Collective, std::string>> v;
  for (auto c : mpi::kAllCollectives) {
    for (const auto& a : mpi::algorithms(c)) {
      if (!a.fits) v.emplace_back(c, a.name);  // placement-bound ones: mpi_deposit_test.cpp
    }
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Every, Algorithm, ::testing::ValuesIn(every_algorithm()),
                         [](const auto& p) {
                           return std::string(mpi::collective_name(std::get<0>(p.param))) + "_" +
                                  std::get<1>(p.param);
                         });

TEST(MpiReductions, MaxAndMinOfDoublesAreVerified) {
  for (const char* op : {"max", "min"}) {
    std::vector<std::string> sets = torus(2, 2, 2);
    sets.insert(sets.end(), {"workload.p2p=false", "workload.datatype=double",
                             std::string("workload.op=") + op, "workload.bytes=800"});
    const json r = run("mpi_conformance", sets);
    EXPECT_TRUE(passed(r)) << op << violations(r) << error(r);
  }
}

// Every message of a 128-rank alltoall in flight at once, by rendezvous: more receives than a
// rank's 64 reception counters, so RTSs wait for counters to free.
TEST(MpiAlgorithms, LinearAlltoallWithMoreRendezvousReceivesThanCounters) {
  std::vector<std::string> sets = torus(4, 4, 2);
  sets.insert(sets.end(), {"mpi.mode=vn", "workload.p2p=false", "mpi.algorithm.alltoall=linear",
                           "mpi.algorithm.alltoallv=linear", "mpi.split_limit=0",
                           "mpi.eager_limit=0", "workload.bytes=64"});
  const json r = run("mpi_conformance", sets);
  ASSERT_TRUE(passed(r)) << violations(r) << error(r);
  EXPECT_EQ(r["results"]["ranks"], 128);
  EXPECT_EQ(r["results"]["collectives_verified"], 7);
}

// ---- Motifs. ----

TEST(MpiMotifs, Halo3dSwapsSixFacesPerRankInEveryMode) {
  for (const char* mode : {"smp", "dual", "vn"}) {
    std::vector<std::string> sets = torus(2, 2, 2);
    sets.insert(sets.end(),
                {std::string("mpi.mode=") + mode, "workload.cells=8", "workload.iterations=2"});
    const json r = run("halo3d", sets);
    ASSERT_TRUE(passed(r)) << mode << violations(r) << error(r);
    const json& w = r["results"];
    const int ranks = w["ranks"];
    EXPECT_DOUBLE_EQ(w["messages_per_iteration"].get<double>(), 6.0 * ranks) << mode;
    EXPECT_DOUBLE_EQ(w["bytes_per_iteration"].get<double>(), 6.0 * ranks * 8 * 8 * 8) << mode;
    const double f = w["compute_fraction"];
    EXPECT_GT(f, 0.0);
    EXPECT_LT(f, 1.0);
    EXPECT_GT(w["time_per_iteration_ns"].get<double>(), 8 * 8 * 8 * 20 / 0.85);
  }
  // A 2x2x1 grid of ranks has no neighbours along z: four faces each.
  std::vector<std::string> flat = torus(2, 2, 1);
  flat.insert(flat.end(), {"mpi.mode=smp", "workload.cells=4", "workload.iterations=1"});
  const json r = run("halo3d", flat);
  ASSERT_TRUE(passed(r)) << violations(r) << error(r);
  EXPECT_EQ(r["results"]["grid"], "2x2x1");
  EXPECT_DOUBLE_EQ(r["results"]["messages_per_iteration"].get<double>(), 4.0 * 4);
}

// Recursive doubling takes log2(P) exchange steps: each rank sends log2(P) messages per
// allreduce, and a short vector's latency grows with the steps.
TEST(MpiTiming, AllreduceStepsGrowAsLog2OfTheRanks) {
  std::vector<double> t;
  for (const auto& [shape, steps] : std::vector<std::pair<std::vector<std::string>, int>>{
           {torus(2, 2, 2), 3}, {torus(4, 4, 2), 5}}) {
    std::vector<std::string> sets = shape;
    sets.insert(sets.end(), {"workload.compute_cycles=0", "workload.iterations=4"});
    const json r = run("allreduce", sets);
    ASSERT_TRUE(passed(r)) << violations(r) << error(r);
    const json& w = r["results"];
    const int ranks = w["ranks"];
    EXPECT_DOUBLE_EQ(w["messages_per_iteration"].get<double>(), double(ranks) * steps);
    t.push_back(w["time_per_iteration_ns"].get<double>() / steps);
  }
  // The time per step stays within a factor of the small machine's (longer routes, same count).
  EXPECT_GT(t[1] / t[0], 0.7);
  EXPECT_LT(t[1] / t[0], 2.0);
}

// Half the ranks send every other half (P/2)^2 blocks across the bisection, whose links in one
// direction number 2 Y Z when the x dimension is cut: no alltoall can be faster.
TEST(MpiTiming, AlltoallIsNoFasterThanTheBisectionBound) {
  std::vector<std::string> sets = torus(4, 4, 2);
  sets.insert(sets.end(), {"mpi.mode=dual", "workload.p2p=false", "workload.bytes=8192"});
  const json r = run("mpi_conformance", sets);
  ASSERT_TRUE(passed(r)) << violations(r) << error(r);
  const double p = r["results"]["ranks"].get<double>(), links = 2 * 4 * 2, link_rate = 425e6;
  EXPECT_EQ(p, 64);
  const double bound_ns = (p / 2) * (p / 2) * 8192 / (links * link_rate) * 1e9;
  const double measured = r["results"]["collective_ns"]["alltoall"];
  EXPECT_GE(measured, bound_ns);
  EXPECT_LT(measured, 5 * bound_ns) << "the bound should be within reach";
}

// ---- Bad input, refused before the run. ----

TEST(MpiInput, UnknownModeMappingAndAlgorithmAreRefused) {
  const auto refused = [](const std::string& set, const std::string& says) {
    std::vector<std::string> sets = torus(2, 2, 2);
    sets.push_back(set);
    const json r = run("mpi_conformance", sets);
    EXPECT_NE(error(r).find(says), std::string::npos) << set << ": " << r.dump().substr(0, 400);
  };
  refused("mpi.mode=quad", "mpi.mode");
  refused("mpi.mapping=XYZ", "mpi.mapping");
  refused("mpi.algorithm.allreduce=butterfly", "mpi.algorithm.allreduce");
  refused("mpi.mapping_file=/nonexistent/map.txt", "/nonexistent/map.txt: cannot open");
}

TEST(MpiInput, AChosenPowerOfTwoAlgorithmOnSixRanksIsRefused) {
  std::vector<std::string> sets = torus(3, 2, 1);
  sets.insert(sets.end(), {"mpi.mode=smp", "mpi.algorithm.alltoall=pairwise"});
  const json r = run("mpi_conformance", sets);
  EXPECT_NE(
      error(r).find(
          "alltoall algorithm 'pairwise' needs a power-of-two number of ranks; the job has 6"),
      std::string::npos)
      << r.dump().substr(0, 400);
}

TEST(MpiInput, APowerOfTwoDefaultOnSixRanksGivesWayAndTheResultsSaySo) {
  std::vector<std::string> sets = torus(3, 2, 1);
  sets.insert(sets.end(), {"mpi.mode=smp", "workload.p2p=false"});
  const json r = run("mpi_conformance", sets, {"workload.bytes=520"});
  ASSERT_TRUE(passed(r)) << violations(r) << error(r);
  EXPECT_EQ(r["results"]["algorithms"]["alltoall"], "ring");
  EXPECT_EQ(r["results"]["algorithms"]["alltoallv"], "ring");
  EXPECT_EQ(r["results"]["algorithms"]["allreduce"], "recursive_doubling");
}

TEST(MpiInput, TooFewCoresOrFifosForTheModeAreRefused) {
  std::vector<std::string> sets = torus(2, 2, 2);
  sets.insert(sets.end(), {"mpi.mode=vn", "torus.node.cores=2"});
  json r = run("mpi_conformance", sets);
  EXPECT_NE(error(r).find("vn mode runs 4 ranks a node"), std::string::npos) << error(r);
  sets = torus(2, 2, 2);
  sets.insert(sets.end(), {"mpi.mode=vn", "torus.node.dma.injection_fifos=8"});
  r = run("mpi_conformance", sets);
  EXPECT_NE(error(r).find("leave 2 each"), std::string::npos) << error(r);
}
