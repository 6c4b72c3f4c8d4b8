// The hybridsim command line, run as a user would: exit codes, messages, reports,
// determinism, traces.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "testbench/support/cli_run.h"

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

using hs::testing::hybridsim;

// AddressSanitizer warns about SystemC's coroutine stack switches; nothing else may print.
std::string without_sanitizer_notices(const std::string& text) {
  std::string out, line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    const bool notice = line.rfind("==", 0) == 0 ||
                        line.find("False positive error reports") == 0 ||
                        line.find("github.com/google/sanitizers") != std::string::npos;
    if (!notice) out += line + "\n";
  }
  return out;
}

std::string tmp(const std::string& name) {
  return hs::testing::temp_path(name);
}

Json read_json(const std::string& path) {
  std::ifstream f(path);
  return Json::parse(f);
}

}  // namespace

TEST(Cli, DefaultScenarioRunsAndPrintsAReadableReport) {
  auto r = hybridsim("run default");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("Simulated time"), std::string::npos);
  EXPECT_NE(r.output.find("node0.pcie0.down"), std::string::npos);
  EXPECT_NE(r.output.find("\"verified\":true"), std::string::npos);
  EXPECT_NE(r.output.find("Checks: passed"), std::string::npos);
  EXPECT_EQ(r.output.find("SystemC 2.3"), std::string::npos) << "kernel banner leaked";
}

TEST(Cli, UnknownParameterIsBadInputWithSuggestion) {
  auto r = hybridsim("run default --set node0.pcie0.lane=4");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("did you mean 'node0.pcie0.lanes'"), std::string::npos) << r.output;
}

TEST(Cli, OutOfRangeAndWrongTypeNameTheParameterAndSource) {
  auto r = hybridsim("run default --set node0.pcie0.lanes=5 --set node0.pcie0.gen=fast");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find(
                "--set node0.pcie0.lanes=5: parameter 'node0.pcie0.lanes' value 5 is not one of"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("'node0.pcie0.gen' expects a number"), std::string::npos) << r.output;
}

TEST(Cli, MalformedScenarioIsBadInputWithLine) {
  const std::string path = tmp("broken.json");
  std::ofstream(path) << "{\n \"workload\": \"hybrid_demo\"\n \"seed\": 2\n}\n";
  auto r = hybridsim("run " + path);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("broken.json:3:"), std::string::npos) << r.output;
}

TEST(Cli, ScenarioParameterErrorsNameFileAndLine) {
  const std::string path = tmp("badparam.json");
  std::ofstream(path) << "{\n \"workload\": \"hybrid_demo\",\n \"params\": {\n  "
                         "\"node0.pcie0.max_payload\": 300\n }\n}\n";
  auto r = hybridsim("run " + path);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("badparam.json:4: parameter 'node0.pcie0.max_payload' value 300"),
            std::string::npos)
      << r.output;
}

TEST(Cli, BadCommandLineValuesAreBadInput) {
  EXPECT_EQ(hybridsim("run default --seed -1").code, 2);
  EXPECT_EQ(hybridsim("run default --set justaname").code, 2);
  EXPECT_EQ(hybridsim("run no_such_scenario").code, 2);
  EXPECT_EQ(hybridsim("run default --vcd out.txt").code, 2);
  EXPECT_EQ(hybridsim("run default --report /nonexistent/dir/r.json").code, 2);
  EXPECT_EQ(hybridsim("").code, 2);
  EXPECT_EQ(hybridsim("frobnicate").code, 2);
}

TEST(Cli, WorkloadConstraintViolationIsBadInput) {
  auto r = hybridsim("run default --set workload.accelerators=9");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("workload.accelerators = 9"), std::string::npos) << r.output;
}

TEST(Cli, FirmwareFaultExitsWithOne) {
  // The SPUs' DMA into a 4 KiB host DRAM runs past its end: the link reports an unsupported
  // request and the run fails as a model check.
  auto r = hybridsim("run default --set node0.host.dram.size=4096");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("Checks: FAILED"), std::string::npos) << r.output;
}

TEST(Cli, DeadlockedFirmwareIsReported) {
  // A time limit shorter than the workload leaves cores unfinished: reported, exit 1.
  auto r = hybridsim("run default --set sim.time_limit=10us");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("never finished their firmware before sim.time_limit"), std::string::npos)
      << r.output;
}

TEST(Cli, SameSeedGivesIdenticalReports) {
  const std::string a = tmp("a.json"), b = tmp("b.json");
  ASSERT_EQ(hybridsim("run default --quiet --seed 7 --report " + a).code, 0);
  ASSERT_EQ(hybridsim("run default --quiet --seed 7 --report " + b).code, 0);
  Json ja = read_json(a), jb = read_json(b);
  ja.erase("run");  // wall-clock figures of the execution, not of the model
  jb.erase("run");
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(ja["seed"], 7);
}

TEST(Cli, ParamsListsEveryParameterWithDescription) {
  auto r = hybridsim("params default");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("node0.pcie0.lanes"), std::string::npos);
  EXPECT_NE(r.output.find("link width"), std::string::npos);
  EXPECT_NE(r.output.find("node0.acc0.spe7.mfc.outstanding"), std::string::npos);
  EXPECT_NE(r.output.find("[from "), std::string::npos) << "scenario values show their source";
}

TEST(Cli, TracesAreWrittenWhenAsked) {
  const std::string vcd = tmp("t.vcd"), trace = tmp("t.json");
  auto r = hybridsim("run default --quiet --vcd " + vcd + " --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(without_sanitizer_notices(r.output), "") << "--quiet printed something";
  Json t = read_json(trace);
  size_t spans = 0;
  for (const auto& e : t["traceEvents"]) spans += e["ph"] == "X" ? 1 : 0;
  EXPECT_GT(spans, 1000u);
  std::ifstream v(vcd);
  std::string text((std::istreambuf_iterator<char>(v)), {});
  EXPECT_NE(text.find("$enddefinitions"), std::string::npos);
  EXPECT_NE(text.find("delivered_bytes"), std::string::npos);
}
