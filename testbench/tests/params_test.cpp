// Parameter registry: declaration, overrides, wildcards, priorities, units, validation.
#include <gtest/gtest.h>

#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

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
