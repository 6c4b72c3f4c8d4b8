// Sampled sweeps (the seed soak): points drawn at random from the axes, one seed each,
// reproducible and independent of how many points are asked for.
#include <gtest/gtest.h>

#include <set>

#include "testbench/support/cli_run.h"
#include "testbench/sweep/sweep_file.h"
#include "tlm/common/errors.h"

using hs::sweep::expand;
using hs::sweep::SweepSpec;
using Json = nlohmann::json;

namespace {

SweepSpec sampled_spec(size_t points, uint64_t draw) {
  SweepSpec s;
  s.axes = {{{"a"}, {{1, 2, 3}}},
            {{"b"}, {{"x", "y"}}},
            {{"c", "d"}, {{10, 20, 30, 40}, {"ten", "twenty", "thirty", "forty"}}}};
  s.seeds = {100};
  s.sample_points = points;
  s.sample_draw = draw;
  return s;
}

}  // namespace

TEST(SweepSample, EveryPointDrawsFromItsAxesWithASeedOfItsOwn) {
  const SweepSpec s = sampled_spec(400, 1);
  const auto points = expand(s);
  ASSERT_EQ(points.size(), 400u);
  std::set<Json> seen_a, seen_b, seen_c;
  std::set<std::string> keys;
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    EXPECT_EQ(p.index, i);
    EXPECT_EQ(p.seed, 100 + i);
    ASSERT_EQ(p.values.size(), 4u);
    seen_a.insert(p.values[0]);
    seen_b.insert(p.values[1]);
    seen_c.insert(p.values[2]);
    // A zipped axis is drawn as one: c and d always come from the same position.
    const auto& c = s.axes[2].values[0];
    const size_t k = static_cast<size_t>(std::find(c.begin(), c.end(), p.values[2]) - c.begin());
    ASSERT_LT(k, c.size());
    EXPECT_EQ(p.values[3], s.axes[2].values[1][k]);
    keys.insert(p.key);
  }
  // Every value of every axis is drawn somewhere in 400 points, and no two points share inputs.
  EXPECT_EQ(seen_a.size(), 3u);
  EXPECT_EQ(seen_b.size(), 2u);
  EXPECT_EQ(seen_c.size(), 4u);
  EXPECT_EQ(keys.size(), points.size());
}

TEST(SweepSample, TheFirstPointsDoNotDependOnHowManyAreDrawn) {
  const auto few = expand(sampled_spec(20, 7));
  const auto many = expand(sampled_spec(300, 7));
  for (size_t i = 0; i < few.size(); ++i) {
    EXPECT_EQ(few[i].values, many[i].values) << "point " << i;
    EXPECT_EQ(few[i].key, many[i].key) << "point " << i;
  }
}

TEST(SweepSample, AnotherDrawSeedDrawsOtherPoints) {
  const auto one = expand(sampled_spec(50, 1));
  const auto two = expand(sampled_spec(50, 2));
  size_t same = 0;
  for (size_t i = 0; i < one.size(); ++i) same += one[i].values == two[i].values;
  // 3 x 2 x 4 = 24 combinations: two independent draws agree on about 1 point in 24.
  EXPECT_LT(same, 10u);
}

TEST(SweepSample, ASampledSweepFileIsReadCheckedAndFrozen) {
  const std::string path = hs::testing::write_temp_file(
      "sampled.json",
      R"({"scenario": "default", "sample": {"points": 25, "draw": 3}, "seed": 11,
          "params": {"workload.spes": [1, 2, 8]}})");
  const SweepSpec s = hs::sweep::load_sweep(path);
  EXPECT_TRUE(s.sampled());
  EXPECT_EQ(s.point_count(), 25u);
  EXPECT_EQ(s.sample_draw, 3u);
  EXPECT_EQ(s.seeds, std::vector<uint64_t>{11});
  const SweepSpec back = SweepSpec::from_json(s.to_json(), "frozen");
  EXPECT_EQ(back.sample_points, 25u);
  EXPECT_EQ(back.sample_draw, 3u);
  const auto a = expand(s), b = expand(back);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].key, b[i].key);
}

TEST(SweepSample, BadSampleFieldsAreRefusedNamingTheFile) {
  auto refused = [](const std::string& text, const std::string& why) {
    const std::string path = hs::testing::write_temp_file("bad_sample.json", text);
    try {
      hs::sweep::load_sweep(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const hs::InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(path), std::string::npos) << msg;
      EXPECT_NE(msg.find(why), std::string::npos) << msg;
    }
  };
  const std::string head = R"({"scenario": "default", "params": {"workload.spes": [1]}, )";
  refused(head + R"("sample": {"points": 0}})", "'sample'.points must be 1 to 1000000");
  refused(head + R"("sample": {"points": 2000000}})", "'sample'.points must be 1 to 1000000");
  refused(head + R"("sample": 10})", "'sample' must be");
  refused(head + R"("sample": {"points": 5, "seeds": 1}})", "unknown field 'seeds'");
  refused(head + R"("sample": {"points": 5}, "repeats": 3})", "'repeats' and 'seeds' do not");
  refused(head + R"("sample": {"points": -5}})", "non-negative integer");
}
