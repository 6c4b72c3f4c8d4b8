// The check registry and the checks section of reports: every check listed by its readable
// name with its evaluation count and verdict, torus checkers included.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "testbench/checkers/torus_checkers.h"
#include "testbench/runner/report_text.h"
#include "testbench/support/scenario_run.h"
#include "tlm/check/checker.h"

using namespace hs;
using Json = nlohmann::json;
using Rules = hs::checkers::TorusCheckers;

namespace {

const Json* find_check(const Json& checks, const std::string& name) {
  for (const auto& c : checks["invariants"]) {
    if (c["name"] == name) return &c;
  }
  return nullptr;
}

}  // namespace

TEST(CheckRegistry, CountsEvaluationsAndNamesTheCheckAViolationBroke) {
  auto& reg = CheckRegistry::instance();
  for (int i = 0; i < 3; ++i) HS_CHECK(i != 2, "test rule: i is never 2", "test", "i is 2");
  reg.check("test rule: registered, never evaluated");
  const Json j = reg.to_json();
  EXPECT_FALSE(j["passed"].get<bool>());
  ASSERT_EQ(j["violations"].size(), 1u);
  EXPECT_EQ(j["violations"][0]["check"], "test rule: i is never 2");
  EXPECT_EQ(j["violations"][0]["component"], "test");
  EXPECT_EQ(j["violations"][0]["message"], "i is 2");
  const Json* c = find_check(j, "test rule: i is never 2");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ((*c)["evaluations"], 3);
  EXPECT_EQ((*c)["failures"], 1);
  EXPECT_FALSE((*c)["passed"].get<bool>());
  const Json* idle = find_check(j, "test rule: registered, never evaluated");
  ASSERT_NE(idle, nullptr);
  EXPECT_EQ((*idle)["evaluations"], 0);
  EXPECT_TRUE((*idle)["passed"].get<bool>());
  EXPECT_EQ(reg.failed_checks(), std::vector<std::string>{"test rule: i is never 2"});
}

// A parallel run's partitions, merged: the violations in the order of simulated time, as one
// process records them (same-time ones in partition order), and a replayed event's violation
// at the event's time.
TEST(CheckRegistry, MergedPartitionsListViolationsInTimeOrder) {
  using sc_core::SC_NS;
  using sc_core::sc_time;
  CheckRegistry part0, part1;
  const auto fail_at = [](CheckRegistry& reg, double ns, const char* rule, const char* who) {
    reg.replaying_at(sc_time(ns, SC_NS));
    reg.fail(rule, who, "broken");
    reg.replaying_at(std::nullopt);
  };
  fail_at(part0, 20, "test rule: late", "p0");
  fail_at(part1, 10, "test rule: early", "p1");
  fail_at(part1, 20, "test rule: late", "p1");
  part0.merge(part1.save());
  const auto& v = part0.violations();
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].component, "p1");
  EXPECT_EQ(v[0].at, sc_time(10, SC_NS));
  EXPECT_EQ(v[1].component, "p0");
  EXPECT_EQ(v[2].component, "p1");
  EXPECT_EQ(v[2].at, sc_time(20, SC_NS));
  EXPECT_EQ(part0.failed_checks(),
            (std::vector<std::string>{"test rule: early", "test rule: late"}));
  EXPECT_EQ(part0.check("test rule: late").failures, 2u);
  // Back on simulated time once the replay ends.
  part0.fail("test rule: live", "p0", "broken");
  EXPECT_EQ(part0.violations().back().at, sc_core::sc_time_stamp());
}

TEST(CheckReport, TextListsEveryCheckWithVerdictAndCountAndTagsViolations) {
  auto& reg = CheckRegistry::instance();
  for (int i = 0; i < 4; ++i) HS_CHECK(true, "test rule: always holds", "test", "never");
  HS_CHECK(false, "test rule: broken", "unit", "broke on purpose");
  reg.check("test rule: never reached");
  std::ostringstream out;
  runner::write_checks(reg.to_json(), out);
  const std::string text = out.str();
  EXPECT_NE(text.find("Checks: FAILED (2 checks, 5 evaluations)"), std::string::npos) << text;
  EXPECT_NE(text.find("passed              4  test rule: always holds"), std::string::npos) << text;
  EXPECT_NE(text.find("FAILED              1  test rule: broken"), std::string::npos) << text;
  // A check that never applied is left to the JSON, counted.
  EXPECT_EQ(text.find("test rule: never reached"), std::string::npos) << text;
  EXPECT_NE(text.find("(1 more checks did not apply to this run"), std::string::npos) << text;
  EXPECT_NE(text.find("unit: broke on purpose [test rule: broken]"), std::string::npos) << text;
}

// A check of finished work on a run cut short is listed as not run, with the reason, and the
// verdict does not call the run passed.
TEST(CheckReport, ChecksOfWorkACutShortRunDidNotFinishAreNotRun) {
  auto& reg = CheckRegistry::instance();
  HS_CHECK(true, "test rule: held while it ran", "test", "never");
  reg.set_cut_short(true);
  reg.check_finished_work("test rule: every message arrived", false, "test",
                          [] { return std::string("never built"); });
  ASSERT_TRUE(reg.ok()) << "not evaluated, so not failed";
  std::ostringstream out;
  runner::write_checks(reg.to_json(), out, true);
  const std::string text = out.str();
  EXPECT_NE(text.find("Checks: no violation in the part that ran (2 checks, 1 evaluations)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not run             0  test rule: every message arrived (the run ended "
                      "before the work it checks was done)"),
            std::string::npos)
      << text;
  EXPECT_EQ(find_check(reg.to_json(), "test rule: every message arrived")->value("not_run", ""),
            "the run ended before the work it checks was done");
}

// A torus run (the split protocol, which exercises every torus rule) lists each torus checker
// by name with a non-zero evaluation count, in the JSON and in the text report.
TEST(CheckReport, ATorusRunListsItsCheckersWithNonZeroEvaluations) {
  const Json r = hs::testing::run_scenario(
      "torus_pingpong",
      {"torus.network.x=4", "torus.network.y=4", "torus.network.z=4", "workload.iterations=2",
       "workload.warmup=0", "workload.protocol=split", "workload.hops=2", "workload.bytes=16384"});
  ASSERT_TRUE(hs::testing::passed(r)) << hs::testing::violations(r);
  std::ostringstream out;
  runner::write_text_report(r, out);
  const std::string text = out.str();
  for (const char* rule :
       {Rules::kMinimalHop, Rules::kDeliveredAtDestination, Rules::kExactDecrement,
        Rules::kAscendingConsecutive, Rules::kDescendingConsecutive, Rules::kNoOverlap,
        Rules::kPutAfterRemoteGet, Rules::kMeetAtZero}) {
    EXPECT_GT(hs::testing::evaluations(r, rule), 0u) << rule;
    EXPECT_NE(text.find(rule), std::string::npos) << rule;
  }
  EXPECT_EQ(text.find("Checks: passed (0"), std::string::npos) << text;
}
