// Sweep files: value ranges, zipped and crossed axes, seeds, point keys, validation;
// statistic selection; CSV writing and reading.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "testbench/support/temp_path.h"
#include "testbench/sweep/csv.h"
#include "testbench/sweep/point_store.h"
#include "testbench/sweep/progress_bar.h"
#include "testbench/sweep/sweep_file.h"
#include "testbench/sweep/sweep_output.h"
#include "testbench/sweep/value_range.h"
#include "tlm/common/errors.h"

using hs::sweep::csv_field;
using hs::sweep::expand;
using hs::sweep::select_stat;
using hs::sweep::SweepSpec;
using Json = nlohmann::json;

TEST(Sweep, TheCrossProductOfListsAndSeedsIsExpandedInOrder) {
  SweepSpec s;
  s.axes = {{{"a"}, {{1, 2}}}, {{"b"}, {{"x", "y", "z"}}}};
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
  const Json report = {
      {"simulated_time_ns", 12.5},
      {"stats",
       {{"node0.pcie0.up",
         {{"payload_bytes", 4096}, {"tx_queue_depth", {{"mean", 1.5}, {"peak", 4}}}}}}},
      {"results", {{"pairs", Json::array({{{"verified", true}}})}}}};
  EXPECT_EQ(select_stat(report, "simulated_time_ns"), 12.5);
  EXPECT_EQ(select_stat(report, "node0.pcie0.up:payload_bytes"), 4096);
  EXPECT_EQ(select_stat(report, "results:pairs/0/verified"), true);
  // One figure of an occupancy or a histogram, as the statistics CSV names it.
  EXPECT_EQ(select_stat(report, "node0.pcie0.up:tx_queue_depth.peak"), 4);
  EXPECT_EQ(select_stat(report, "node0.pcie0.up:tx_queue_depth.mean"), 1.5);
  EXPECT_TRUE(select_stat(report, "node0.pcie0.up:tx_queue_depth.median").is_null());
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
  const std::string path = hs::testing::temp_path("sweep_bad.json");
  auto rejects = [&](const std::string& text, const std::string& why) {
    std::ofstream(path) << text;
    try {
      hs::sweep::load_sweep(path);
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
  rejects("{\"scenario\": \"nope\", \"params\": {\"a\": [1]}}",
          path + ": scenario 'nope': no such file, and not a built-in scenario");
  rejects("{\"scenario\": \"default\",", "malformed JSON");
  const std::string head = "{\"scenario\": \"default\", ";
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 4}}}", "exactly one of");
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 4, \"step\": 0}}}", "never goes");
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 4, \"step\": -1}}}", "never goes");
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 4, \"stride\": 1}}}",
          "unknown range field 'stride'");
  rejects(head + "\"params\": {\"a\": {\"from\": 0, \"to\": 4, \"count\": 3, \"scale\": \"log\"}}}",
          "above 0");
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 4, \"step\": 1, \"scale\": \"log\"}}}",
          "goes with 'count'");
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 4, \"count\": 0}}}",
          "positive integer");
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 1e9, \"step\": 1}}}",
          "values (1 to 100000 allowed)");
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 4, \"count\": 8, \"scale\": \"log\"}}}",
          "rounding to integers gives");
  rejects(head + "\"params\": {\"a\": {\"from\": \"x\", \"to\": 4, \"step\": 1}}}",
          "params.a.from must be a number");
  rejects(head + "\"params\": {\"a\": [[1]]}}", "numbers, strings or bools");
  rejects(head + "\"params\": {\"a\": [1, 2], \"b\": [1]}, \"zip\": [[\"a\", \"b\"]]}",
          "zipped lists must have equal length");
  rejects(head + "\"params\": {\"a\": [1]}, \"zip\": [[\"a\", \"c\"]]}",
          "\"c\" is not one of 'params'");
  rejects(head + "\"params\": {\"a\": [1], \"b\": [2]}, \"zip\": [[\"a\", \"b\"], [\"b\", \"a\"]]}",
          "'b' is already zipped");
  rejects(head + "\"params\": {\"a\": [1]}, \"zip\": [[\"a\"]]}", "two or more");
  rejects(head + "\"params\": {\"a\": [1]}, \"fixed\": {\"a\": 2}}", "both fixed and swept");
  rejects(head + "\"params\": {\"a\": [1]}, \"fixed\": {\"b\": [2]}}", "fixed.b must be one");
  rejects(head + "\"params\": {\"a\": [1]}, \"seeds\": [1], \"repeats\": 2}",
          "either 'seeds' or 'repeats'");
  rejects(head + "\"params\": {\"a\": [1]}, \"repeats\": 0}", "'repeats' must be 1 to");
  rejects(head + "\"params\": {\"a\": [1]}, \"seeds\": [3, 3]}", "seed 3 is listed twice");
  rejects(head + "\"params\": {\"a\": [1]}, \"stats\": [\"x:\"]}", "GROUP:STAT");
  rejects(head + "\"params\": {\"a\": [1]}, \"stats\": [\"x\", \"x\"]}", "listed twice");
  rejects(head + "\"params\": {\"a\": {\"from\": 1, \"to\": 4, \"count\": 3, \"scale\": 1}}}",
          "params.a.scale must be \"linear\" or \"log\", got 1");
  rejects(head + "\"params\": {\"a\": [1], \"a\": [2]}}", "key 'a' appears twice in 'params'");
  rejects(head + "\"params\": {\"a\": {\"from\": -1e308, \"to\": 1e308, \"count\": 3}}}",
          "which is not a finite number");
  rejects(
      head + "\"params\": {\"a\": {\"from\": 1, \"to\": 10000000000000000000, \"factor\": 10}}}",
      "beyond 64-bit integers");
  rejects(head + "\"params\": {\"a\": [1]}, \"seed\": 18446744073709551615, \"repeats\": 2}",
          "pass the largest seed");
  rejects("{\"scenario\": \"" + std::string(5000, 'x') + "\", \"params\": {\"a\": [1]}}",
          "no such file, and not a built-in scenario");
  rejects(head + "\"params\": {\"a\": " + std::string(1000, '[') + std::string(1000, ']') + "}}",
          "deeper than 64 levels");
}

TEST(Sweep, ADirectoryIsNotASweepFile) {
  try {
    hs::sweep::load_sweep(::testing::TempDir());
    ADD_FAILURE() << "accepted a directory";
  } catch (const hs::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory, not a sweep file"), std::string::npos)
        << e.what();
  }
}

TEST(Sweep, PointCountsThatOverflowAreRefusedBeforeAnythingExpands) {
  // Four axes of 65,536 values: 2^64 points, which a plain product wraps to 0.
  std::string axes;
  for (const char* name : {"a", "b", "c", "d"}) {
    axes += std::string(axes.empty() ? "" : ", ") + "\"" + name +
            "\": {\"from\": 1, \"to\": 65536, \"step\": 1}";
  }
  const std::string path = hs::testing::temp_path("sweep_huge.json");
  std::ofstream(path) << "{\"scenario\": \"default\", \"params\": {" << axes << "}}";
  try {
    hs::sweep::load_sweep(path);
    ADD_FAILURE() << "accepted 2^64 points";
  } catch (const hs::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "the sweep has more than 18446744073709551615 points (a million at most)"),
              std::string::npos)
        << e.what();
  }
  SweepSpec spec;
  spec.seeds = {1, 2};
  for (int a = 0; a < 4; ++a) {
    spec.axes.push_back(
        {{std::string(1, static_cast<char>('a' + a))}, {std::vector<Json>(65536, Json(1))}});
  }
  EXPECT_EQ(spec.point_count(), std::numeric_limits<size_t>::max());
  EXPECT_THROW(expand(spec), hs::InputError);
  spec.axes.resize(1);
  EXPECT_EQ(spec.point_count(), 131072u);
}

TEST(Sweep, EveryProblemInASweepFileIsListedInOneError) {
  const std::string path = hs::testing::temp_path("sweep_many_bad.json");
  std::ofstream(path) << R"({"scenario": "default", "stat": 1,
    "params": {"a": {"from": 4, "to": 1, "factor": 2}, "b": [1, 2], "c": [1], "d": []},
    "zip": [["b", "c"]], "fixed": {"e": [1]}, "repeats": 0, "stats": ["x:", "y", "y"]})";
  hs::InputProblems problems;
  const SweepSpec spec = hs::sweep::read_sweep(path, problems);
  std::string all;
  try {
    problems.throw_if_any();
  } catch (const hs::InputError& e) {
    all = e.what();
  }
  for (const char* why :
       {"unknown sweep field 'stat'", "params.a: a geometric range", "params.d must be a non-empty",
        "zipped lists must have equal length", "fixed.e must be one", "'repeats' must be 1 to",
        "stat 'x:' must be", "stat 'y' is listed twice"}) {
    EXPECT_NE(all.find(why), std::string::npos) << why << " missing from:\n" << all;
  }
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 7) << all;
  // What is sound is kept for the model check: the scenario and the axes of b and c (their
  // zip group is not, so each is an axis of its own); a and d are left out.
  EXPECT_EQ(spec.scenario, "default");
  EXPECT_EQ(spec.swept_names(), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(spec.axes.size(), 2u);
  EXPECT_THROW(hs::sweep::load_sweep(path), hs::InputError);
  std::remove(path.c_str());
}

namespace {

std::vector<Json> values_of(const std::string& range) {
  return hs::sweep::expand_values(Json::parse(range), "test");
}

}  // namespace

TEST(Sweep, LinearStepRangesIncludeBothEnds) {
  EXPECT_EQ(values_of(R"({"from": 1, "to": 16, "step": 3})"),
            (std::vector<Json>{1, 4, 7, 10, 13, 16}));
  EXPECT_EQ(values_of(R"({"from": 10, "to": 1, "step": -4})"), (std::vector<Json>{10, 6, 2}));
  const auto reals = values_of(R"({"from": 0.0, "to": 1.0, "step": 0.1})");
  ASSERT_EQ(reals.size(), 11u);  // 0.1 steps reach 1.0 despite rounding
  EXPECT_TRUE(reals[3].is_number_float());
  EXPECT_EQ(reals[3].dump(), "0.3");  // not 0.30000000000000004
}

TEST(Sweep, CountRangesAreEvenlySpacedLinearlyOrLogarithmically) {
  EXPECT_EQ(values_of(R"({"from": 0.0, "to": 1, "count": 5})"),
            (std::vector<Json>{0.0, 0.25, 0.5, 0.75, 1.0}));
  EXPECT_EQ(values_of(R"({"from": 32, "to": 4194304, "count": 7, "scale": "log"})"),
            (std::vector<Json>{32, 228, 1625, 11585, 82570, 588493, 4194304}));
  EXPECT_EQ(values_of(R"({"from": 5, "to": 9, "count": 1})"), (std::vector<Json>{5}));
}

TEST(Sweep, GeometricRangesMultiplyUpToTheEnd) {
  EXPECT_EQ(values_of(R"({"from": 128, "to": 4096, "factor": 2})"),
            (std::vector<Json>{128, 256, 512, 1024, 2048, 4096}));
  EXPECT_EQ(values_of(R"({"from": 32, "to": 5000, "factor": 4})"),
            (std::vector<Json>{32, 128, 512, 2048}));
}

TEST(Sweep, ZippedAxesWalkTogetherAndCrossTheRest) {
  const std::string path = hs::testing::temp_path("sweep_zip.json");
  std::ofstream(path) << R"({"scenario": "default",
    "fixed": {"workload.spes": 4},
    "params": {"workload.host_bytes": [1024, 2048, 4096], "node0.pcie0.lanes": [4, 8],
               "workload.read_bytes": [64, 128, 256]},
    "zip": [["workload.host_bytes", "workload.read_bytes"]],
    "repeats": 2, "seed": 10})";
  const auto spec = hs::sweep::load_sweep(path);
  ASSERT_EQ(spec.axes.size(), 2u);
  EXPECT_EQ(spec.swept_names(),
            (std::vector<std::string>{"workload.host_bytes", "workload.read_bytes",
                                      "node0.pcie0.lanes"}));
  const auto points = expand(spec);
  ASSERT_EQ(points.size(), 3u * 2u * 2u);
  EXPECT_EQ(points[0].values, (std::vector<Json>{1024, 64, 4}));
  EXPECT_EQ(points[0].seed, 10u);
  EXPECT_EQ(points[1].seed, 11u);
  EXPECT_EQ(points[2].values, (std::vector<Json>{1024, 64, 8}));
  EXPECT_EQ(points[4].values, (std::vector<Json>{2048, 128, 4}));
  EXPECT_EQ(points[11].values, (std::vector<Json>{4096, 256, 8}));
  // Fixed values come first; string values stay JSON strings on the command line.
  EXPECT_EQ(points[0].assignments(spec),
            (std::vector<std::string>{"workload.spes=4", "workload.host_bytes=1024",
                                      "workload.read_bytes=64", "node0.pcie0.lanes=4"}));
}

TEST(Sweep, PointKeysIdentifyTheInputsNotThePosition) {
  SweepSpec s;
  s.scenario = "default";
  s.axes = {{{"a"}, {{1, 2}}}};
  s.seeds = {1, 2};
  const auto points = expand(s);
  std::set<std::string> keys;
  for (const auto& p : points) keys.insert(p.key);
  EXPECT_EQ(keys.size(), 4u);  // every value and seed changes the key
  // The same inputs in a longer sweep keep their key (so resume finds them).
  SweepSpec longer = s;
  longer.axes = {{{"a"}, {{0, 1, 2}}}};
  const auto more = expand(longer);
  EXPECT_EQ(more[2].key, points[0].key);
  EXPECT_EQ(more[2].index, 2u);
  // Another scenario, an edited scenario file, or a changed fixed value is another point.
  SweepSpec other = s;
  other.fixed = {{"b", 1}};
  EXPECT_NE(expand(other)[0].key, points[0].key);
  SweepSpec edited = s;
  edited.scenario_digest = "0123456789abcdef";
  EXPECT_NE(expand(edited)[0].key, points[0].key);
  SweepSpec renamed = s;
  renamed.scenario = "pcie_stream";
  EXPECT_NE(expand(renamed)[0].key, points[0].key);
  // The frozen form gives back the same points.
  const auto thawed = SweepSpec::from_json(s.to_json(), "frozen");
  EXPECT_EQ(expand(thawed)[3].key, points[3].key);
}

TEST(Sweep, CsvFilesAreReadBackFieldForField) {
  const std::string path = hs::testing::temp_path("sweep_csv.csv");
  const std::vector<Json> fields = {"plain", "a,b", "say \"hi\"", "two\nlines", 3.5, Json()};
  std::string text = "c0,c1,c2,c3,c4,c5\n";
  for (size_t i = 0; i < fields.size(); ++i) text += (i ? "," : "") + csv_field(fields[i]);
  std::ofstream(path) << text << "\n";
  const auto t = hs::sweep::read_csv(path);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0],
            (std::vector<std::string>{"plain", "a,b", "say \"hi\"", "two\nlines", "3.5", ""}));
  EXPECT_EQ(t.column("c4"), 4);
  EXPECT_EQ(t.column("zz"), -1);
  std::ofstream(path) << "a,b\n1\n";
  EXPECT_THROW(hs::sweep::read_csv(path), hs::InputError);
  std::ofstream(path) << "a,b\n\"1,2\n";
  EXPECT_THROW(hs::sweep::read_csv(path), hs::InputError);
}

TEST(Sweep, TheProgressLineCountsPointsAndTellsTheTimeToGo) {
  EXPECT_EQ(hs::sweep::ProgressBar::eta_text(-1), "--");
  EXPECT_EQ(hs::sweep::ProgressBar::eta_text(42.4), "42s");
  EXPECT_EQ(hs::sweep::ProgressBar::eta_text(125), "2m05s");
  EXPECT_EQ(hs::sweep::ProgressBar::eta_text(7300), "2h01m");
  // In a log (not a terminal): a line per tenth of the way, and the final state.
  std::FILE* log = std::tmpfile();
  ASSERT_NE(log, nullptr);
  {
    hs::sweep::ProgressBar bar("sweep", 25, 5, true, log);
    for (size_t done = 1; done <= 20; ++done) bar.update(done, done / 10, 2);
    bar.finish();
  }
  std::rewind(log);
  std::vector<std::string> lines;
  char buf[512];
  while (std::fgets(buf, sizeof buf, log)) lines.emplace_back(buf);
  std::fclose(log);
  ASSERT_EQ(lines.size(), 11u);  // 10 tenths of 20 points, then the final line
  EXPECT_EQ(lines[0].rfind("sweep [########......................] 7/25 done, 0 failed, 2 running, "
                           "5 already in results, ETA ",
                           0),
            0u)
      << lines[0];
  EXPECT_NE(lines[10].find("25/25 done, 2 failed, 2 running, 5 already in results, "),
            std::string::npos)
      << lines[10];
  EXPECT_NE(lines[10].find(" elapsed"), std::string::npos) << lines[10];
}

TEST(Sweep, APointCountsAsStartedByASubmissionOnlyIfThatSubmissionStartedIt) {
  // The Slurm backend's progress counts a job's running points this way: each array task
  // marks the points it starts with its submission, so an earlier attempt's run never counts.
  namespace fs = std::filesystem;
  const fs::path dir = hs::testing::temp_path("sweep_started");
  fs::remove_all(dir);
  const hs::sweep::PointStore first(dir.string(), "submit-1"), second(dir.string(), "submit-2");
  const hs::sweep::PointStore local(dir.string());

  first.mark_started("earlier");  // a failed attempt from before this submission
  second.mark_started("started");
  local.mark_started("never");  // a local run marks nothing
  EXPECT_TRUE(second.started_by("started", "submit-2"));
  EXPECT_FALSE(second.started_by("earlier", "submit-2"));
  EXPECT_TRUE(second.started_by("earlier", "submit-1"));
  EXPECT_FALSE(second.started_by("never", "submit-2"));
  EXPECT_FALSE(fs::exists(second.started_path("never")));
  second.mark_started("earlier");  // rerun by this submission
  EXPECT_TRUE(second.started_by("earlier", "submit-2"));
  fs::remove_all(dir);
}
