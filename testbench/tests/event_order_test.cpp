// Results depend only on the scenario, its parameters and the seed. Every torus scenario (each
// traffic pattern and both routings, ping-pong in every protocol, the AMI variants, every motif
// and program, deposit-bit broadcasts, link CRC errors and a failed link) writes the same report
// when its nodes are built in reverse or shuffled order, and when events that do nothing are
// added at every time the model wakes (test hooks HYBRIDSIM_TEST_ELABORATION and
// HYBRIDSIM_TEST_NOISE): same-time events keep an order fixed by who posted them, never by
// what else is pending or by the order components were built in. A different seed gives a
// different run, so the comparison can fail.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "hw/torus/network/torus_network.h"
#include "testbench/support/child_process.h"
#include "testbench/support/scenario_run.h"
#include "tlm/common/random_stream.h"

using hs::testing::passed;
using hs::testing::run_in_child;
using hs::testing::run_scenario_here;
using hs::testing::violations;
using Json = nlohmann::json;

namespace {

struct Case {
  const char* name;
  const char* scenario;
  std::vector<std::string> sets;
  uint64_t seed = 1;
};

// A run's report in a child process with `hook` (NAME=VALUE, or empty) in its environment;
// "run" (wall time, memory) is all that may differ between runs.
Json run(const Case& c, const std::string& hook) {
  Json r = run_in_child([&] {
    if (!hook.empty()) {
      const auto eq = hook.find('=');
      setenv(hook.substr(0, eq).c_str(), hook.substr(eq + 1).c_str(), 1);
    }
    return run_scenario_here(c.scenario, c.sets, c.seed);
  });
  r.erase("run");
  return r;
}

// Where two reports first differ, for the failure message.
std::string first_difference(const Json& a, const Json& b) {
  const Json patch = Json::diff(a, b);
  return patch.empty() ? "" : patch[0].dump().substr(0, 600);
}

std::vector<std::string> small(std::vector<std::string> sets, const char* shape = "4x4x2") {
  const std::string s = shape;
  const auto x = s.find('x'), y = s.rfind('x');
  sets.push_back("torus.network.x=" + s.substr(0, x));
  sets.push_back("torus.network.y=" + s.substr(x + 1, y - x - 1));
  sets.push_back("torus.network.z=" + s.substr(y + 1));
  return sets;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"uniform_adaptive", "torus_traffic",
       small({"workload.load=0.7", "workload.warmup=500", "workload.duration=3000"})},
      {"uniform_deterministic", "torus_traffic",
       small({"workload.load=0.7", "workload.warmup=500", "workload.duration=3000",
              "torus.network.routing=deterministic", "workload.vc=deterministic"})},
      {"hotspot_random_selection", "torus_traffic",
       small({"workload.pattern=hotspot", "workload.load=0.5", "workload.warmup=500",
              "workload.duration=3000", "torus.network.selection=random"})},
      {"transpose_pattern", "torus_traffic",
       small({"workload.pattern=transpose", "workload.load=0.9", "workload.warmup=500",
              "workload.duration=2000"},
             "4x4x4")},
      {"traffic_crc_errors", "torus_traffic",
       small({"workload.load=0.6", "workload.warmup=500", "workload.duration=3000",
              "torus.network.link_crc_error_rate=0.02"})},
      {"pingpong_eager", "torus_pingpong",
       small({"workload.protocol=eager", "workload.bytes=4096", "workload.hops=2"})},
      {"pingpong_rendezvous", "torus_pingpong",
       small({"workload.protocol=rendezvous", "workload.bytes=16384", "workload.hops=2"})},
      {"pingpong_split_crc", "torus_pingpong",
       small({"workload.protocol=split", "workload.bytes=16384", "workload.hops=3",
              "torus.network.link_crc_error_rate=0.01"})},
      {"ami_a", "torus_ami", small({"workload.ami.protocol=A", "workload.bytes=16384"})},
      {"ami_b", "torus_ami", small({"workload.ami.protocol=B", "workload.bytes=16384"})},
      {"ami_c", "torus_ami", small({"workload.ami.protocol=C", "workload.bytes=16384"})},
      {"halo3d_vn", "halo3d",
       small({"mpi.mode=vn", "workload.iterations=2", "workload.cells=8"}, "2x2x2")},
      {"sweep3d", "sweep3d", small({}, "4x2x2")},
      {"transpose", "transpose", small({}, "4x2x2")},
      {"allreduce", "allreduce", small({}, "4x2x2")},
      {"random_permutation", "random_permutation", small({}, "4x2x2")},
      {"pingpong_pairs", "pingpong_pairs", small({}, "4x2x2")},
      {"mpi_conformance_dual", "mpi_conformance",
       small({"mpi.mode=dual", "workload.largest_message=20000"}, "2x2x2")},
      {"program_halo", "program_halo", small({}, "4x2x2")},
      {"program_collectives_deposit_bcast", "program_collectives",
       small({"mpi.mode=smp", "mpi.algorithm.bcast=deposit_rectangle"}, "4x2x2")},
      {"failed_link", "torus_traffic",
       small({"workload.load=0.3", "workload.warmup=200", "workload.duration=1500",
              "torus.network.routing=deterministic", "workload.vc=deterministic",
              "torus.network.failed_links=x1y0z0:+x@700"})},
  };
  return all;
}

// Test names carry the case; GoogleTest prints only the name of a parameter.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

class EventOrder : public ::testing::TestWithParam<Case> {};

TEST_P(EventOrder, SameReportWhateverTheElaborationOrderOrOtherEvents) {
  const Case& c = GetParam();
  const Json base = run(c, "");
  ASSERT_FALSE(base.contains("error")) << base.dump();
  if (std::string(c.name) != "failed_link") {
    ASSERT_TRUE(passed(base)) << violations(base);
  }
  for (const std::string hook :
       {"HYBRIDSIM_TEST_ELABORATION=reverse", "HYBRIDSIM_TEST_ELABORATION=shuffle:7",
        "HYBRIDSIM_TEST_NOISE=3"}) {
    const Json other = run(c, hook);
    EXPECT_TRUE(other == base) << hook << ": " << first_difference(base, other);
  }
}

INSTANTIATE_TEST_SUITE_P(TorusScenarios, EventOrder, ::testing::ValuesIn(cases()),
                         [](const auto& test) { return std::string(test.param.name); });

// The comparison can fail: another seed changes the traffic, and with it the report.
TEST(EventOrder, AnotherSeedGivesAnotherReport) {
  Case c = cases().front();
  const Json a = run(c, "");
  c.seed = 2;
  const Json b = run(c, "");
  ASSERT_TRUE(passed(a) && passed(b)) << violations(a) << violations(b);
  EXPECT_NE(a["stats"]["torus.network"], b["stats"]["torus.network"]);
}

// --seed reaches the routers' output selection: the same packets, injected at the same times
// into a network with random output selection, take other routes under another run seed, and
// the same routes under the same one.
Json routes_under_seed(uint64_t seed) {
  return run_in_child([seed] {
    hs::set_run_seed(seed);
    hs::torus::NetworkConfig cfg;
    cfg.x = cfg.y = cfg.z = 4;
    cfg.selection = "random";
    hs::torus::TorusNetwork net("net", cfg);
    struct Sink : hs::torus::NodeEndpoint {
      hs::torus::TorusNetwork* net;
      bool accept(const hs::torus::Packet&) override { return true; }
      void deliver(hs::torus::Packet* p) override { net->pool().give(p); }
      void injection_ready(int) override {}
    };
    std::vector<Sink> sinks(static_cast<size_t>(cfg.nodes()));
    for (int i = 0; i < cfg.nodes(); ++i) {
      sinks[static_cast<size_t>(i)].net = &net;
      net.attach(i, &sinks[static_cast<size_t>(i)]);
    }
    Json hops = Json::array();
    net.observe_hops([&](const hs::torus::Packet&, int from, int dir) {
      hops.push_back(from * hs::torus::kDirs + dir);
    });
    // Half way round every ring: every minimal direction is a tie, so routes vary most.
    const int far = net.shape().node({{2, 2, 2}});
    for (int i = 0; i < 4; ++i) {
      hs::torus::Packet* p = net.pool().take();
      p->src = 0;
      p->dest = far;
      p->chunks = 1;
      p->vc_class = hs::torus::VcClass::Dynamic;
      net.inject(i, p);
    }
    sc_core::sc_start();
    return Json{{"hops", hops}};
  });
}

TEST(EventOrder, RunSeedReachesOutputSelection) {
  const Json a = routes_under_seed(1), again = routes_under_seed(1), b = routes_under_seed(2);
  ASSERT_FALSE(a.contains("error")) << a.dump();
  EXPECT_EQ(a["hops"].size(), 4u * 6u) << "4 packets, 6 hops each";
  EXPECT_EQ(a, again);
  EXPECT_NE(a, b);
}

}  // namespace
