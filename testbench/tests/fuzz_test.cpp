// The fuzzer's parts: every verdict rule fires on the outcome it exists for, mutations are
// reproducible and reach the shapes they promise.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "testbench/fuzz/fuzz_case.h"
#include "testbench/fuzz/mutator.h"

using hs::fuzz::FuzzCase;
using hs::fuzz::judge;

namespace {

FuzzCase file_case() {
  FuzzCase c;
  c.kind = "scenario";
  c.file_path = "/tmp/case/scenario.json";
  c.culprits = {"workload.spes", c.file_path};
  return c;
}

}  // namespace

TEST(FuzzJudge, ACleanExitOrAReportedFailurePasses) {
  EXPECT_TRUE(judge(file_case(), 0, 0, false, "").ok);
  EXPECT_TRUE(judge(file_case(), 1, 0, false, "Checks: FAILED\n").ok);
}

TEST(FuzzJudge, ACrashIsAFailure) {
  const auto v = judge(file_case(), -1, 11, false, "");
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.problem.find("signal 11"), std::string::npos);
}

TEST(FuzzJudge, AHangIsAFailure) {
  const auto v = judge(file_case(), -1, 9, true, "");
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.problem.find("hang"), std::string::npos);
}

TEST(FuzzJudge, AnUnexpectedExitCodeIsAFailure) {
  EXPECT_FALSE(judge(file_case(), 3, 0, false, "").ok);
  EXPECT_FALSE(judge(file_case(), 134, 0, false, "").ok);
}

TEST(FuzzJudge, AnInternalErrorIsAFailureWhateverTheExitCode) {
  EXPECT_FALSE(judge(file_case(), 1, 0, false, "hybridsim: internal error: stoul\n").ok);
  EXPECT_FALSE(judge(file_case(), 1, 0, false, "==1==ERROR: AddressSanitizer: x\n").ok);
}

TEST(FuzzJudge, ARefusalMustNameTheFileOrTheParameterAtFault) {
  const FuzzCase c = file_case();
  EXPECT_TRUE(judge(c, 2, 0, false, "hybridsim: error: /tmp/case/scenario.json:3: bad\n").ok);
  EXPECT_TRUE(judge(c, 2, 0, false, "hybridsim: error: workload.spes = 9 exceeds 8\n").ok);
  const auto unnamed = judge(c, 2, 0, false, "hybridsim: error: unknown machine '*'\n");
  EXPECT_FALSE(unnamed.ok);
  EXPECT_NE(unnamed.problem.find("unknown machine"), std::string::npos);
  EXPECT_FALSE(judge(c, 2, 0, false, "something went wrong\n").ok);
}

TEST(FuzzJudge, AWildcardAssignmentMayBeRefusedUnderTheParameterItMatched) {
  FuzzCase c;
  c.kind = "set";
  c.culprits = {"torus.node.dma.injecti*n_fifos=1", "torus.node.dma.injecti*n_fifos", "--set"};
  EXPECT_TRUE(judge(c, 2, 0, false,
                    "hybridsim: error: parameter 'torus.node.dma.injection_fifos' = 1: too few\n")
                  .ok);
  EXPECT_FALSE(
      judge(c, 2, 0, false, "hybridsim: error: parameter 'torus.node.cores' = 1: too few\n").ok);
}

TEST(FuzzMutator, ACaseIsAFunctionOfTheCampaignSeedAndItsNumber) {
  hs::fuzz::Corpus corpus;
  corpus.scenario_texts = {R"({"machine": "hybrid", "params": {"workload.spes": 8}})"};
  corpus.sweep_texts = {R"({"scenario": "default", "params": {"workload.spes": [1, 2]}})"};
  corpus.params["default"] = {{"workload.spes", "8"}, {"node0.host.clock", "1.8e+09"}};
  corpus.permutation_texts = {"# comment\n0,0,0 1,0,0\n1,0,0 0,0,0\n"};
  corpus.program_texts = {"ranks all {\n  loop 2 { barrier }\n}\n"};
  const std::string dir = ::testing::TempDir();
  for (const auto& kind : hs::fuzz::case_kinds()) {
    for (uint64_t id = 0; id < 50; ++id) {
      const FuzzCase a = hs::fuzz::make_case(corpus, kind, 7, id, dir);
      const FuzzCase b = hs::fuzz::make_case(corpus, kind, 7, id, dir);
      EXPECT_EQ(a.args, b.args) << kind << " " << id;
      EXPECT_EQ(a.file_text, b.file_text) << kind << " " << id;
    }
  }
}

TEST(FuzzMutator, LineMutationsDeleteDuplicateAndBreakNumbers) {
  const std::string base = "0,0,0 1,0,0\n1,0,0 2,0,0\n2,0,0 0,0,0\n";
  hs::fuzz::Rng rng(3);
  bool fewer = false, more = false, word = false, unchanged = false;
  for (int i = 0; i < 500; ++i) {
    const std::string m = hs::fuzz::mutate_lines(base, rng);
    const auto lines = std::count(m.begin(), m.end(), '\n');
    fewer |= lines < 3;
    more |= lines > 3;
    word |= m.find("99999999999999999999") != std::string::npos || m.find('x') != std::string::npos;
    unchanged |= m == base;
  }
  EXPECT_TRUE(fewer);
  EXPECT_TRUE(more);
  EXPECT_TRUE(word);
  EXPECT_FALSE(unchanged) << "every case mutates something";
}

TEST(FuzzMutator, MutationsReachEveryShapeTheyPromise) {
  const std::string base =
      R"({"machine": "hybrid", "workload": "hybrid_demo", "params": {"workload.spes": 8, "node0.pcie0.lanes": 8}})";
  hs::fuzz::Rng rng(1);
  bool unparsable = false, deep = false, duplicate = false, changed_type = false;
  for (int i = 0; i < 2000; ++i) {
    const std::string m = hs::fuzz::mutate_json_text(base, rng);
    if (m.find("[[[[[[[[[[[[[[[[[[[[") != std::string::npos ||
        m.find("{\"a\":{\"a\":{\"a\":{\"a\":") != std::string::npos) {
      deep = true;
      continue;
    }
    const auto j = nlohmann::json::parse(m, nullptr, false);
    if (j.is_discarded()) {
      unparsable = true;
      continue;
    }
    size_t spes = 0;
    for (size_t at = m.find("\"workload.spes\""); at != std::string::npos;
         at = m.find("\"workload.spes\"", at + 1)) {
      ++spes;
    }
    duplicate |= spes > 1;
    if (j.contains("params") && j["params"].is_object() && j["params"].contains("workload.spes")) {
      changed_type |= !j["params"]["workload.spes"].is_number();
    }
  }
  EXPECT_TRUE(unparsable);
  EXPECT_TRUE(deep);
  EXPECT_TRUE(duplicate);
  EXPECT_TRUE(changed_type);
}

TEST(FuzzMutator, TheParamsListingIsReadAsNamesAndValues) {
  const auto p = hs::fuzz::parse_params_listing(
      "Parameters of scenario x.json (2 parameters)\n\n"
      "workload.spes        8       int    SPEs (1..8)\n"
      "node0.host.clock     1.8e+09 Hz    real   core clock\n");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], (std::pair<std::string, std::string>{"workload.spes", "8"}));
  EXPECT_EQ(p[1].first, "node0.host.clock");
}
