// Parameter registry: declaration, overrides, wildcards, priorities, units, validation.
#include <gtest/gtest.h>

#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"
#include "tlm/params/quantity.h"

using namespace hs;

namespace {
ParamRegistry& reg() {
  auto& r = ParamRegistry::instance();
  r.reset();
  return r;
}
std::string finalize_error(ParamRegistry& r) {
  try {
    r.finalize();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Params, DefaultsApplyWhenNothingOverrides) {
  auto& r = reg();
  EXPECT_EQ(r.declare_int("a.b", 7, "B", "x"), 7);
  EXPECT_EQ(r.find("a.b")->source, "default");
  EXPECT_EQ(finalize_error(r), "");
}

TEST(Params, CommandLineBeatsScenarioFile) {
  auto& r = reg();
  r.set_override("n.lanes", 4, {"s.json:3", 1});
  r.set_from_assignment("n.lanes=16", "--set n.lanes=16");
  EXPECT_EQ(r.declare_int("n.lanes", 8, "", "lanes"), 16);
  EXPECT_EQ(r.find("n.lanes")->source, "--set n.lanes=16");
}

TEST(Params, ExactNameBeatsWildcardFromTheSameSource) {
  auto& r = reg();
  r.set_override("*.lanes", 2, {"f:1", 1});
  r.set_override("n1.lanes", 4, {"f:2", 1});
  EXPECT_EQ(r.declare_int("n0.lanes", 8, "", ""), 2);
  EXPECT_EQ(r.declare_int("n1.lanes", 8, "", ""), 4);
  EXPECT_EQ(finalize_error(r), "");
}

TEST(Params, UnknownNameIsRejectedWithSuggestionAndSource) {
  auto& r = reg();
  r.declare_int("node0.pcie0.lanes", 8, "", "");
  r.set_override("node0.pcie0.lane", 4, {"s.json:12", 1});
  const std::string e = finalize_error(r);
  EXPECT_NE(e.find("s.json:12: unknown parameter 'node0.pcie0.lane'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'node0.pcie0.lanes'"), std::string::npos) << e;
}

TEST(Params, WildcardMatchingNothingIsRejected) {
  auto& r = reg();
  r.declare_int("node0.pcie0.lanes", 8, "", "");
  r.set_override("*.nothing", 1, {"--set", 2});
  EXPECT_NE(finalize_error(r).find("matches no parameter"), std::string::npos);
}

TEST(Params, WrongTypeAndOutOfRangeAreAllReportedTogether) {
  auto& r = reg();
  r.set_override("x.flag", 3, {"a:1", 1});
  r.set_override("x.n", 99, {"a:2", 1});
  r.set_override("x.mode", "fast", {"a:3", 1});
  r.declare_bool("x.flag", false, "");
  r.declare_int("x.n", 1, "", "", Range::between(1, 10));
  r.declare_string("x.mode", "rcb", "", {"rcb", "mps"});
  const std::string e = finalize_error(r);
  EXPECT_NE(e.find("a:1: parameter 'x.flag' expects a bool"), std::string::npos) << e;
  EXPECT_NE(e.find("a:2: parameter 'x.n' value 99 is above the maximum (1..10)"), std::string::npos)
      << e;
  EXPECT_NE(e.find("a:3: parameter 'x.mode' value \"fast\" is not one of rcb,mps"),
            std::string::npos)
      << e;
}

TEST(Params, IntegersRejectFractions) {
  auto& r = reg();
  r.set_override("x.n", 2.5, {"a:1", 1});
  r.declare_int("x.n", 1, "", "");
  EXPECT_NE(finalize_error(r).find("expects an integer"), std::string::npos);
}

TEST(Params, UnitSuffixesScaleToTheDeclaredUnit) {
  auto& r = reg();
  r.set_override("m.size", "4GiB", {"a", 1});
  r.set_override("m.latency", "1.5us", {"a", 1});
  r.set_override("m.clock", "3.2GHz", {"a", 1});
  EXPECT_EQ(r.declare_int("m.size", 0, "B", ""), int64_t{4} << 30);
  EXPECT_DOUBLE_EQ(r.declare_real("m.latency", 0, "ns", ""), 1500.0);
  EXPECT_DOUBLE_EQ(r.declare_real("m.clock", 0, "Hz", ""), 3.2e9);
  EXPECT_EQ(finalize_error(r), "");
}

TEST(Params, UnknownUnitSuffixIsAnError) {
  auto& r = reg();
  r.set_override("m.latency", "3 furlongs", {"a", 1});
  r.declare_real("m.latency", 0, "ns", "");
  EXPECT_NE(finalize_error(r).find("expects a number in ns"), std::string::npos);
}

TEST(Params, AnUnknownUnitIsNamedWithTheKnownOnes) {
  auto& r = reg();
  r.set_override("m.size", "1PB", {"a", 1});
  r.declare_int("m.size", 0, "B", "");
  const auto e = finalize_error(r);
  EXPECT_NE(e.find("'PB' is not a unit of B (write one of B, KiB"), std::string::npos) << e;
}

TEST(Params, AWordIsNotANumber) {
  auto& r = reg();
  r.set_override("m.size", "lots", {"a", 1});
  r.declare_int("m.size", 0, "B", "");
  EXPECT_NE(finalize_error(r).find("'lots' is not a number"), std::string::npos);
}

TEST(Params, SuffixesIgnoreCaseAndSizesTakeBothPrefixes) {
  auto& r = reg();
  r.set_override("m.clock", "1.5ghz", {"a", 1});
  r.set_override("m.memory", "1TiB", {"a", 2});
  r.set_override("m.disk", "2TB", {"a", 3});
  r.set_override("m.line", "4kB", {"a", 4});
  r.set_override("m.wait", "20US", {"a", 5});
  EXPECT_DOUBLE_EQ(r.declare_real("m.clock", 0, "Hz", ""), 1.5e9);
  EXPECT_EQ(r.declare_int("m.memory", 0, "B", ""), int64_t{1} << 40);
  EXPECT_EQ(r.declare_int("m.disk", 0, "B", ""), int64_t{2000000000000});
  EXPECT_EQ(r.declare_int("m.line", 0, "B", ""), 4000);
  EXPECT_DOUBLE_EQ(r.declare_real("m.wait", 0, "ns", ""), 20000.0);
  EXPECT_EQ(finalize_error(r), "");
}

// A bare number is in the listed unit; one so small that it is surely a unit forgotten
// (a millisecond written as 0.001, a clock in GHz written bare) is refused, asking for it.
TEST(Params, ABareTimeBelowANanosecondAsksForItsUnit) {
  auto& r = reg();
  r.set_override("m.stop_at", 0.001, {"a", 1});
  r.declare_real("m.stop_at", 0, "ns", "");
  const auto e = finalize_error(r);
  EXPECT_NE(e.find("is bare, and a bare number is in ns: 0.001 would be 1ps; write the unit"),
            std::string::npos)
      << e;
}

TEST(Params, ABareClockBelowAKilohertzAsksForItsUnit) {
  auto& r = reg();
  r.set_override("m.clock", "1.5", {"a", 1});
  r.declare_real("m.clock", 0, "Hz", "");
  EXPECT_NE(finalize_error(r).find("is bare, and a bare number is in Hz: 1.5 would be 1.5 Hz"),
            std::string::npos);
}

TEST(Params, SmallTimesWithTheirUnitAndBareWholeNumbersAreTaken) {
  auto& r = reg();
  r.set_override("m.latency", "0.2ns", {"a", 1});
  r.set_override("m.stop_at", 5000, {"a", 2});
  r.set_override("m.gap", "250", {"a", 3});
  EXPECT_DOUBLE_EQ(r.declare_real("m.latency", 0, "ns", ""), 0.2);
  EXPECT_DOUBLE_EQ(r.declare_real("m.stop_at", 0, "ns", ""), 5000.0);
  EXPECT_DOUBLE_EQ(r.declare_real("m.gap", 0, "ns", ""), 250.0);
  EXPECT_EQ(finalize_error(r), "");
}

TEST(Params, AssignmentWithoutEqualsIsBadInput) {
  auto& r = reg();
  EXPECT_THROW(r.set_from_assignment("node0.lanes", "--set node0.lanes"), InputError);
}

TEST(Params, BareWordsAreStringsAndJsonIsParsed) {
  auto& r = reg();
  r.set_from_assignment("a.mode=mps", "--set");
  r.set_from_assignment("a.on=true", "--set");
  EXPECT_EQ(r.declare_string("a.mode", "rcb", "", {"rcb", "mps"}), "mps");
  EXPECT_TRUE(r.declare_bool("a.on", false, ""));
}

TEST(Params, WildcardStarsMatchAnyRunOfCharactersDotsIncluded) {
  auto& r = reg();
  r.set_override("*.pcie*.lanes", 4, {"f:1", 1});
  r.set_override("n*e*0.acc*", 2, {"f:2", 1});
  r.set_override("**y*", 3, {"f:3", 1});
  r.set_override("a*a*a", 5, {"f:4", 1});
  EXPECT_EQ(r.declare_int("node0.pcie12.lanes", 8, "", ""), 4);
  EXPECT_EQ(r.declare_int("node0.pcie0.lanes.max", 8, "", ""), 8);  // must end in .lanes
  EXPECT_EQ(r.declare_int("node0.acc", 8, "", ""), 2);              // '*' matches nothing too
  EXPECT_EQ(r.declare_int("ay", 8, "", ""), 3);
  EXPECT_EQ(r.declare_int("aaa", 8, "", ""), 5);
  EXPECT_EQ(r.declare_int("aa", 8, "", ""), 8);  // the three a's must be distinct
  EXPECT_EQ(finalize_error(r), "");
}

TEST(Params, PatternsWithManyStarsMatchInPolynomialTime) {
  // Backtracking over every way to split the name among 40 stars never finishes; matching
  // with one resume point per star answers at once.
  auto& r = reg();
  r.set_override(std::string(40, '*') + "Z", 1, {"--set", 2});
  r.set_override(std::string(40, '*') + "y", 2, {"--set", 2});
  EXPECT_EQ(r.declare_int(std::string(200, 'a') + "." + std::string(200, 'b'), 0, "", ""), 0);
  EXPECT_EQ(r.declare_int(std::string(400, 'x') + "y", 0, "", ""), 2);
  EXPECT_NE(finalize_error(r).find("matches no parameter"), std::string::npos);
}

TEST(Params, IntegersBeyondSixtyFourBitsAreRefusedNotWrapped) {
  auto& r = reg();
  r.set_override("x.huge", 1e30, {"a:1", 1});
  r.set_override("x.units", "1e30GiB", {"a:2", 1});
  r.set_override("x.just_over", 9223372036854775808ull, {"a:3", 1});
  r.set_override("x.max", 9223372036854775807ll, {"a:4", 1});
  r.set_override("x.min", "-9223372036854775808B", {"a:5", 1});
  r.declare_int("x.huge", 1, "", "");
  r.declare_int("x.units", 1, "B", "");
  r.declare_int("x.just_over", 1, "", "");
  EXPECT_EQ(r.declare_int("x.max", 1, "", ""), INT64_MAX);  // every digit kept
  EXPECT_EQ(r.declare_int("x.min", 1, "B", ""), INT64_MIN);
  const std::string e = finalize_error(r);
  EXPECT_NE(e.find("a:1: parameter 'x.huge' value 1e+30 does not fit a 64-bit integer"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("a:2: parameter 'x.units' value \"1e30GiB\" does not fit"), std::string::npos)
      << e;
  EXPECT_NE(e.find("a:3: parameter 'x.just_over' value 9223372036854775808 does not fit"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find("-9223372036854775808"), std::string::npos) << e;
}

TEST(Params, SetValuesNestedTooDeepOrWithDuplicateKeysAreRefused) {
  auto& r = reg();
  const std::string deep = "a.b=" + std::string(100000, '[');
  try {
    r.set_from_assignment(deep, "--set a.b");
    ADD_FAILURE() << "accepted 100000 nested arrays";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--set a.b: '[0][0]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("deeper than 64 levels"), std::string::npos) << e.what();
  }
  try {
    r.set_from_assignment("a.b={\"x\": 1, \"x\": 2}", "--set a.b");
    ADD_FAILURE() << "accepted a repeated key";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--set a.b: key 'x' appears twice in the top-level object");
  }
}

TEST(Params, CommandLineBytesThatAreNotUtf8AreReportedNotThrown) {
  auto& r = reg();
  r.set_from_assignment("a.mode=\xff\xfe", "--set a.mode");
  r.set_from_assignment("a.n=\xff", "--set a.n");
  r.declare_string("a.mode", "rcb", "", {"rcb", "mps"});
  r.declare_int("a.n", 1, "", "");
  const std::string e = finalize_error(r);
  EXPECT_NE(
      e.find("--set a.mode: parameter 'a.mode' value \"\xEF\xBF\xBD\xEF\xBF\xBD\" is not one of"),
      std::string::npos)
      << e;
  EXPECT_NE(e.find("--set a.n: parameter 'a.n' expects a number"), std::string::npos) << e;
}

// What the parameter listing prints reads back through --set unchanged.
TEST(Quantity, FormatsInTheLargestExactUnitAndReadsBack) {
  EXPECT_EQ(hs::format_quantity(17179869184.0, "B", true), "16GiB");
  EXPECT_EQ(hs::format_quantity(1e6, "B", true), "1MB");
  EXPECT_EQ(hs::format_quantity(1000, "B", true), "1KB");
  EXPECT_EQ(hs::format_quantity(1023, "B", true), "1023B");
  EXPECT_EQ(hs::format_quantity(1.8e9, "Hz"), "1.8GHz");
  EXPECT_EQ(hs::format_quantity(0.5, "ns"), "500ps");
  EXPECT_EQ(hs::format_quantity(425e6, "B/s"), "425MB/s");
  EXPECT_EQ(hs::format_quantity(0, "ns"), "0ns");
  EXPECT_EQ(hs::format_quantity(4, "packets", true), "4 packets");
  EXPECT_EQ(hs::format_quantity(123456789.0, "Hz"), "123456789Hz")
      << "six digits would round it: the plain number instead";
  for (const auto& [v, unit] : std::vector<std::pair<double, std::string>>{
           {17179869184.0, "B"}, {1.8e9, "Hz"}, {0.5, "ns"}, {123456789.0, "Hz"}, {2.5e-3, "ns"}}) {
    const auto back = hs::parse_quantity(hs::format_quantity(v, unit), unit);
    ASSERT_TRUE(back.has_value()) << v << unit;
    EXPECT_DOUBLE_EQ(*back, v) << hs::format_quantity(v, unit);
  }
}

TEST(Quantity, RangeErrorsKeepTheUnit) {
  auto& reg = hs::ParamRegistry::instance();
  reg.set_from_assignment("q.clock=5kHz", "--set q.clock=5kHz");
  reg.declare_real("q.clock", 1e9, "Hz", "a clock", hs::Range::between(1e8, 1e10));
  const auto errors = reg.value_errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("value 5kHz is below the minimum (100MHz..10GHz)"), std::string::npos)
      << errors[0];
}
