// Sweep files: expansion into points, statistic selection, CSV fields.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "testbench/runner/sweep.h"
#include "tlm/common/errors.h"

using hs::runner::csv_field;
using hs::runner::expand;
using hs::runner::select_stat;
using hs::runner::SweepSpec;
using Json = nlohmann::json;

TEST(Sweep, TheCrossProductOfListsAndSeedsIsExpandedInOrder) {
  SweepSpec s;
  s.names = {"a", "b"};
  s.values = {{1, 2}, {"x", "y", "z"}};
  s.seeds = {7, 8};
  const auto points = expand(s);
  ASSERT_EQ(points.size(), 12u);
  EXPECT_EQ(points[0].values, (std::vector<Json>{1, "x"}));
  EXPECT_EQ(points[0].seed, 7u);
  EXPECT_EQ(points[1].seed, 8u);
  EXPECT_EQ(points[2].values, (std::vector<Json>{1, "y"}));
  EXPECT_EQ(points[11].values, (std::vector<Json>{2, "z"}));
  for (size_t i = 0; i < points.size(); ++i) EXPECT_EQ(points[i].index, i);
}

TEST(Sweep, StatisticsAreSelectedFromTheReport) {
  const Json report = {{"simulated_time_ns", 12.5},
                       {"stats", {{"node0.pcie0.up", {{"payload_bytes", 4096}}}}},
                       {"results", {{"pairs", Json::array({{{"verified", true}}})}}}};
  EXPECT_EQ(select_stat(report, "simulated_time_ns"), 12.5);
  EXPECT_EQ(select_stat(report, "node0.pcie0.up:payload_bytes"), 4096);
  EXPECT_EQ(select_stat(report, "results:pairs/0/verified"), true);
  EXPECT_TRUE(select_stat(report, "node0.nothing:x").is_null());
  EXPECT_TRUE(select_stat(report, "results:pairs/5/verified").is_null());
}

TEST(Sweep, CsvFieldsAreQuotedOnlyWhenTheyMustBe) {
  EXPECT_EQ(csv_field(3), "3");
  EXPECT_EQ(csv_field("rcb"), "rcb");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field(Json::array({1, 2})), "\"[1,2]\"");
  EXPECT_EQ(csv_field(Json()), "");
}

TEST(Sweep, BadSweepFilesAreRejectedBeforeAnythingRuns) {
  const std::string path = ::testing::TempDir() + "sweep_bad_" + std::to_string(getpid()) + ".json";
  auto rejects = [&](const std::string& text, const std::string& why) {
    std::ofstream(path) << text;
    try {
      hs::runner::load_sweep(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const hs::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  rejects("{\"params\": {\"a\": [1]}}", "'scenario'");
  rejects("{\"scenario\": \"default\", \"params\": {}}", "'params' must be");
  rejects("{\"scenario\": \"default\", \"params\": {\"a\": []}}", "non-empty list");
  rejects("{\"scenario\": \"default\", \"params\": {\"a\": [1]}, \"seeds\": [-1]}", "non-negative");
  rejects("{\"scenario\": \"default\", \"params\": {\"a\": [1]}, \"stat\": []}",
          "unknown sweep field 'stat'");
  rejects("{\"scenario\": \"nope\", \"params\": {\"a\": [1]}}", "not a built-in scenario");
  rejects("{\"scenario\": \"default\",", "malformed JSON");
}
