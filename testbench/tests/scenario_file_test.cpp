// Scenario files: parsing, line numbers, validation, nested parameters.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "testbench/runner/scenario_file.h"
#include "testbench/support/temp_path.h"
#include "tlm/common/errors.h"

using namespace hs;
using hs::runner::load_scenario;

namespace {
std::string write(const std::string& text) {
  static int n = 0;
  std::string path = hs::testing::temp_path("scenario_" + std::to_string(n++) + ".json");
  std::ofstream(path) << text;
  return path;
}
std::string load_error(const std::string& text) {
  try {
    load_scenario(write(text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ScenarioFile, FlatAndNestedParamsGetTheirLineNumbers) {
  auto s = load_scenario(
      write("{\n  \"workload\": \"hybrid_demo\",\n  \"params\": {\n    \"node0.pcie0.lanes\": 4,\n"
            "    \"node0\": {\n      \"host\": {\"clock\": \"2GHz\"}\n    }\n  }\n}\n"));
  EXPECT_EQ(s.params["node0.pcie0.lanes"], 4);
  EXPECT_EQ(s.param_lines["node0.pcie0.lanes"], 4);
  EXPECT_EQ(s.params["node0.host.clock"], "2GHz");
  EXPECT_EQ(s.param_lines["node0.host.clock"], 6);
  EXPECT_EQ(s.workload, "hybrid_demo");
  EXPECT_EQ(s.seed, 1u);
}

TEST(ScenarioFile, MalformedJsonNamesLineAndColumn) {
  const std::string e = load_error("{\n  \"workload\": \"x\",\n  \"seed\": 1,,\n}\n");
  EXPECT_NE(e.find(":3:"), std::string::npos) << e;
  EXPECT_NE(e.find("malformed JSON"), std::string::npos) << e;
}

TEST(ScenarioFile, UnknownFieldIsRejected) {
  const std::string e = load_error("{\"workload\": \"x\",\n \"sed\": 3}");
  EXPECT_NE(e.find(":2: unknown scenario field 'sed'"), std::string::npos) << e;
}

TEST(ScenarioFile, MissingWorkloadIsRejected) {
  EXPECT_NE(load_error("{\"seed\": 3}").find("missing required field 'workload'"),
            std::string::npos);
}

TEST(ScenarioFile, WrongFieldTypesAreRejected) {
  EXPECT_NE(load_error("{\"workload\": 3}").find("'workload' must be a string"), std::string::npos);
  EXPECT_NE(load_error("{\"workload\": \"x\", \"seed\": -1}").find("non-negative integer"),
            std::string::npos);
  EXPECT_NE(load_error("{\"workload\": \"x\", \"params\": [1]}").find("must be an object"),
            std::string::npos);
  EXPECT_NE(load_error("[1, 2]").find("must be a JSON object"), std::string::npos);
}

TEST(ScenarioFile, MissingFileAndUnknownBuiltinAreClear) {
  EXPECT_THROW(load_scenario("/nonexistent/x.json"), InputError);
  try {
    hs::runner::resolve_scenario("no_such_scenario");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a built-in scenario ("), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("default"), std::string::npos) << e.what();
  }
}

TEST(ScenarioFile, BuiltinScenariosAllLoad) {
  for (const auto& name : hs::runner::builtin_scenarios()) {
    EXPECT_NO_THROW(load_scenario(hs::runner::resolve_scenario(name))) << name;
  }
}

TEST(ScenarioFile, DeepNestingIsRefusedBeforeAnythingWalksIt) {
  // Nested parameter objects and nested arrays, deep enough to exhaust the stack of a
  // recursive walk (flattening, printing, freeing).
  std::string params = "{\"workload\": \"x\", \"params\": ";
  for (int i = 0; i < 20000; ++i) params += "{\"a\": ";
  params += "1" + std::string(20000, '}') + "}";
  std::string e = load_error(params);
  EXPECT_NE(e.find(": 'params.a.a.a."), std::string::npos) << e.substr(0, 200);
  EXPECT_NE(e.find("nests objects and arrays deeper than 64 levels"), std::string::npos)
      << e.substr(0, 200);
  const std::string arrays =
      "{\"workload\": \"x\", \"params\": {\"a\": " + std::string(200000, '[') +
      std::string(200000, ']') + "}}";
  e = load_error(arrays);
  EXPECT_NE(e.find(": 'params.a[0][0]"), std::string::npos) << e.substr(0, 200);
  EXPECT_NE(e.find("deeper than 64 levels"), std::string::npos) << e.substr(0, 200);
}

TEST(ScenarioFile, NestingWithinTheLimitStillLoads) {
  std::string text = "{\"workload\": \"x\", \"params\": ";
  for (int i = 0; i < 60; ++i) text += "{\"a\": ";
  text += "1" + std::string(60, '}') + "}";
  std::string name = "a";
  for (int i = 1; i < 60; ++i) name += ".a";
  EXPECT_EQ(load_scenario(write(text)).params[name], 1);
}

TEST(ScenarioFile, DuplicateKeysAreRefusedNamingTheObject) {
  EXPECT_NE(load_error("{\"workload\": \"x\", \"seed\": 1, \"seed\": 2}")
                .find("key 'seed' appears twice in the top-level object"),
            std::string::npos);
  const std::string e = load_error(
      "{\"workload\": \"x\", \"params\": {\"node0\": {\"pcie0\": {\"lanes\": 4, \"lanes\": 8}}}}");
  EXPECT_NE(e.find("key 'lanes' appears twice in 'params.node0.pcie0'"), std::string::npos) << e;
}

TEST(ScenarioFile, AParameterGivenFlatAndNestedMustHaveOneValue) {
  const std::string e =
      load_error("{\"workload\": \"x\", \"params\": {\n  \"a.b\": 1,\n  \"a\": {\"b\": 2}\n}}");
  EXPECT_NE(e.find(":2: parameter 'a.b' is given twice, as 2 (line 3) and 1"), std::string::npos)
      << e;
  // The same value twice is redundant, not contradictory.
  auto s =
      load_scenario(write("{\"workload\": \"x\", \"params\": {\"a.b\": 1, \"a\": {\"b\": 1}}}"));
  EXPECT_EQ(s.params["a.b"], 1);
}

TEST(ScenarioFile, AnEmptyParameterObjectIsRefusedAsSettingNothing) {
  EXPECT_NE(load_error("{\"workload\": \"x\", \"params\": {\"node0\": {\"pcie0\": {}}}}")
                .find("params.node0.pcie0 is an empty object: it sets no parameter"),
            std::string::npos);
}

TEST(ScenarioFile, NamesTheFileSystemRefusesAreNotFoundNotACrash) {
  for (const std::string& name : {std::string(5000, 'x'), std::string(300, 'y') + "/z.json"}) {
    try {
      hs::runner::resolve_scenario(name);
      ADD_FAILURE() << "found " << name.size() << " characters";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(hs::runner::resolve_scenario(::testing::TempDir()), InputError);
}

TEST(ScenarioFile, NumbersBeyondADoublesRangeAreMalformedJsonNamingTheFile) {
  for (const char* number : {"1e+333333330", "-1e+30444444"}) {
    const std::string e = load_error(
        std::string(
            R"({"machine": "hybrid", "workload": "hybrid_demo", "params": {"workload.spes": )") +
        number + "}}");
    EXPECT_NE(e.find("scenario_"), std::string::npos) << e;
    EXPECT_NE(e.find("malformed JSON"), std::string::npos) << e;
    EXPECT_NE(e.find("number overflow"), std::string::npos) << e;
  }
}
