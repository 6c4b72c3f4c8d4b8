// Traffic patterns (where synthetic sources send), permutation files, and link utilisation by
// direction and per link (report and --link-csv), run as a user would.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "hw/torus/network/traffic_patterns.h"
#include "testbench/support/cli_run.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

using namespace hs;
using namespace hs::torus;
using hs::testing::hybridsim;
using Json = nlohmann::json;

namespace {

std::vector<int> destinations(const std::string& pattern, const TorusShape& s,
                              const std::string& scope) {
  auto p = traffic_pattern(pattern, "workload.pattern").make(s, ParamScope(scope));
  std::mt19937_64 rng(1);
  std::vector<int> d(s.nodes());
  for (int n = 0; n < s.nodes(); ++n) d[n] = p->sends(n) ? p->destination(n, rng) : -1;
  return d;
}

// The CSV as rows of name -> text.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::istringstream h(line);
  for (std::string f; std::getline(h, f, ',');) header.push_back(f);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::istringstream r(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size(); ++i) std::getline(r, row[header[i]], ',');
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST(TrafficPatterns, TornadoMovesEveryCoordinateJustUnderHalfWayInOneDirection) {
  const TorusShape s(8, 8, 8, true);
  const auto d = destinations("tornado", s, "a");
  for (int n = 0; n < s.nodes(); ++n) {
    for (int dim = 0; dim < 3; ++dim) EXPECT_EQ(s.offset(n, d[n], dim), 3) << s.name(n);
  }
}

TEST(TrafficPatterns, BitComplementMirrorsEveryCoordinate) {
  const TorusShape s(8, 4, 2, true);
  const auto d = destinations("bitcomp", s, "b");
  for (int n = 0; n < s.nodes(); ++n) {
    const Coord c = s.coord(n), t = s.coord(d[n]);
    EXPECT_EQ(t.v[0], 7 - c.v[0]);
    EXPECT_EQ(t.v[1], 3 - c.v[1]);
    EXPECT_EQ(t.v[2], 1 - c.v[2]);
  }
}

TEST(TrafficPatterns, FixedPatternsArePermutationsAndFixedPointsSendNothing) {
  const TorusShape s(5, 5, 3, true);  // odd sizes: bit complement has a fixed point
  for (const std::string name : {"transpose", "bitcomp", "tornado"}) {
    const auto d = destinations(name, s, "c" + name);
    std::set<int> seen;
    for (int n = 0; n < s.nodes(); ++n) {
      if (d[n] < 0) continue;
      EXPECT_NE(d[n], n) << name;
      EXPECT_TRUE(seen.insert(d[n]).second) << name << ": two sources send to " << s.name(d[n]);
    }
  }
  EXPECT_EQ(destinations("bitcomp", s, "c2")[s.node({{2, 2, 1}})], -1)
      << "the centre maps to itself";
}

TEST(TrafficPatterns, HotSpotSendsItsShareToTheHotNodeAndTheRestUniformly) {
  const TorusShape s(4, 4, 4, true);
  auto& reg = ParamRegistry::instance();
  reg.set_override("h.hotspot_fraction", 0.25, {"test", 1});
  reg.set_override("h.hotspot", "1,2,3", {"test", 1});
  auto p = traffic_pattern("hotspot", "workload.pattern").make(s, ParamScope("h"));
  const int hot = s.node({{1, 2, 3}});
  std::mt19937_64 rng(7);
  int to_hot = 0, self = 0;
  const int draws = 40000;
  for (int i = 0; i < draws; ++i) {
    const int d = p->destination(0, rng);
    to_hot += d == hot;
    self += d == 0;
  }
  // 25% directly plus 1/63 of the uniform rest.
  EXPECT_NEAR(double(to_hot) / draws, 0.25 + 0.75 / 63, 0.01);
  EXPECT_EQ(self, 0);
}

TEST(TrafficPatterns, UnknownPatternNamesTheParameterAndTheChoices) {
  try {
    traffic_pattern("tornade", "workload.pattern");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("workload.pattern = 'tornade'"), std::string::npos) << m;
    EXPECT_NE(m.find("tornado"), std::string::npos) << m;
  }
}

TEST(PermutationFile, ReadsSourceDestinationPairsWithCommentsAndSpaces) {
  const TorusShape s(4, 4, 1, true);
  const std::string path = hs::testing::write_temp_file(
      "perm.txt", "# a swap and a self-map\n0,0,0 3,3,0\n3, 3, 0   0,0,0  # back\n\n1,1,0 1,1,0\n");
  const auto d = load_permutation(path, s);
  EXPECT_EQ(d[s.node({{0, 0, 0}})], s.node({{3, 3, 0}}));
  EXPECT_EQ(d[s.node({{3, 3, 0}})], s.node({{0, 0, 0}}));
  EXPECT_EQ(d[s.node({{1, 1, 0}})], -1) << "a node mapped to itself sends nothing";
  EXPECT_EQ(d[s.node({{2, 2, 0}})], -1) << "a node not listed sends nothing";
}

TEST(PermutationFile, EveryMistakeNamesTheFileAndLine) {
  const TorusShape s(4, 4, 1, true);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0,0,0 1,1\n", ":1: expected 'x,y,z x,y,z'"},
      {"\n0,0,0 4,0,0\n", ":2: destination '4,0,0': x = 4 is outside the machine (0 to 3)"},
      {"0,0,0 1,0,0\n0,0,0 2,0,0\n", ":2: source (0,0,0) already sends (line 1)"},
      {"0,0,0 1,0,0\n2,0,0 1,0,0\n", ":2: destination (1,0,0) already receives (line 1)"},
      {"0,0,0 a,0,0\n", ":1: destination 'a,0,0': 'a' is not a coordinate"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string path =
        hs::testing::write_temp_file("bad" + std::to_string(i) + ".txt", cases[i].first);
    try {
      load_permutation(path, s);
      ADD_FAILURE() << "accepted: " << cases[i].first;
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind(path, 0), 0u) << m;
      EXPECT_NE(m.find(cases[i].second), std::string::npos) << m;
    }
  }
  EXPECT_THROW(load_permutation(hs::testing::temp_path("missing.txt"), s), InputError);
}

// Tornado on a ring of 8 loads the + direction only: the report says so by direction, and the
// CSV's rows agree with it.
TEST(LinkUtilisation, TornadoOnARingLoadsOnlyThePlusDirection) {
  const std::string csv = hs::testing::temp_path("tornado.csv");
  const std::string report = hs::testing::temp_path("tornado.json");
  auto r = hybridsim(
      "run torus_traffic --quiet --set torus.network.x=8 --set torus.network.y=1 --set "
      "torus.network.z=1 --set workload.pattern=tornado --set workload.load=0.2 --set "
      "workload.warmup=5000 --set workload.duration=20000 --link-csv " +
      csv + " --report " + report);
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream f(report);
  const Json rep = Json::parse(f);
  const Json& lu = rep["results"]["link_utilisation"];
  EXPECT_DOUBLE_EQ(lu["window_start_ns"].get<double>(), 5000);
  EXPECT_DOUBLE_EQ(lu["window_end_ns"].get<double>(), 25000);
  const double plus = lu["by_direction"]["+x"]["mean"].get<double>();
  EXPECT_GT(plus, 0.05);
  EXPECT_LE(lu["by_direction"]["+x"]["max"].get<double>(), 1.0);
  EXPECT_EQ(lu["by_direction"]["-x"]["mean"].get<double>(), 0.0);
  EXPECT_FALSE(lu["by_direction"].contains("+y")) << "a ring has no y links";

  const auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 16u);
  double sum_plus = 0;
  for (const auto& row : rows) {
    const double u = std::stod(row.at("utilisation"));
    EXPECT_GE(u, 0.0);
    EXPECT_LE(u, 1.0);
    if (row.at("direction") == "+x") sum_plus += u;
    if (row.at("direction") == "-x") {
      EXPECT_EQ(u, 0.0);
    }
  }
  EXPECT_NEAR(sum_plus / 8, plus, 1e-5);
}

// Every source sends only to the hot node: the busiest links are those that end there.
TEST(LinkUtilisation, UnderHotSpotTrafficTheBusiestLinksLeadIntoTheHotNode) {
  const std::string csv = hs::testing::temp_path("hot.csv");
  auto r = hybridsim(
      "run torus_traffic --quiet --set torus.network.x=4 --set torus.network.y=4 --set "
      "torus.network.z=1 --set workload.pattern=hotspot --set workload.hotspot=1,2,0 --set "
      "workload.hotspot_fraction=1 --set workload.load=0.3 --set workload.duration=20000 "
      "--link-csv " +
      csv);
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = read_csv(csv);
  ASSERT_FALSE(rows.empty());
  const auto* busiest = &rows.front();
  for (const auto& row : rows) {
    if (std::stod(row.at("utilisation")) > std::stod(busiest->at("utilisation"))) busiest = &row;
  }
  EXPECT_EQ(busiest->at("to_x") + "," + busiest->at("to_y") + "," + busiest->at("to_z"), "1,2,0");
}

TEST(LinkUtilisation, LinkCsvOnAMachineWithoutLinksIsRefusedBeforeTheRun) {
  const std::string csv = hs::testing::temp_path("none.csv");
  auto r = hybridsim("run default --link-csv " + csv);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--link-csv"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Simulated time"), std::string::npos) << "it ran";
  EXPECT_FALSE(std::ifstream(csv).good());
}

TEST(LinkUtilisation, PermutationWithoutAFileIsBadInputNamingTheParameter) {
  auto r = hybridsim("run torus_traffic --set workload.pattern=permutation");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("workload.permutation"), std::string::npos) << r.output;
}
