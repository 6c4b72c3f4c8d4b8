// The hybridsim command line, run as a user would: exit codes, messages, reports,
// determinism, traces.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "testbench/runner/run_loop.h"
#include "testbench/support/cli_run.h"
#include "testbench/sweep/external_command.h"

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

using hs::testing::hybridsim;
using hs::testing::without_sanitizer_notices;

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
  EXPECT_NE(r.output.find("Workload results"), std::string::npos);
  EXPECT_NE(r.output.find("verified"), std::string::npos);
  EXPECT_EQ(r.output.find("\"verified\""), std::string::npos) << "results as rows, not JSON";
  EXPECT_NE(r.output.find("Checks: passed"), std::string::npos);
  EXPECT_EQ(r.output.find("SystemC 2.3"), std::string::npos) << "kernel banner leaked";
}

TEST(Cli, TorusReportHasNetworkAggregatesAndLinkTablesInRows) {
  auto r = hybridsim("run torus_ami");
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* want : {"Torus network", "packets delivered", "link utilisation",
                           "Torus DMA engines", "by_direction", "busiest_from"}) {
    EXPECT_NE(r.output.find(want), std::string::npos) << want << "\n" << r.output;
  }
  const std::string results = r.output.substr(r.output.find("Workload results"));
  EXPECT_EQ(results.find('{'), std::string::npos) << "no JSON in the results:\n" << results;
}

TEST(Cli, UnknownParameterIsBadInputWithSuggestion) {
  auto r = hybridsim("run default --set node0.pcie0.lane=4");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("did you mean 'node0.pcie0.lanes'"), std::string::npos) << r.output;
}

// The eager baseline's credits cover the largest eager message or the run never starts.
TEST(Cli, EagerBaselineWithoutCreditsForItsLimitIsBadInput) {
  auto r =
      hybridsim("run torus_ami --set workload.ami.protocol=eager --set workload.ami.temp_bytes=0");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("workload.ami.temp_bytes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("workload.ami.eager_limit"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Simulated time"), std::string::npos) << "refused after the run";
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
  // P's unpin waits for a 64 KiB transfer on the same engine far longer than the 1000 cycles
  // it is allowed: the firmware reports the stall and the run fails as a model check. (A
  // memory too small for the workload is bad input instead, refused before the run.)
  auto r = hybridsim(
      "run pin_dma_unpin --set workload.unrelated_bytes=64KiB --set workload.stall_cycles=1000");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("Checks: FAILED"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("node0.host.core0: unpin stalled"), std::string::npos) << r.output;
}

TEST(Cli, MemoriesAndFifosTooSmallForTheWorkloadAreRefusedBeforeTheRun) {
  const std::pair<std::string, std::string> cases[] = {
      {"pin_dma_unpin --set node0.host.dram.size=4096",
       "parameter 'node0.host.dram.size' = 4096 B"},
      {"dma_transfers --set node0.host.dram.size=16MiB",
       "parameter 'node0.host.dram.size' = 16777216 B"},
      {"slmpm_messages --set node0.acc0.dram.size=4096",
       "parameter 'node0.acc0.dram.size' = 4096 B"},
      {"torus_pingpong --set torus.node.dram.size=1MiB",
       "parameter 'torus.node.dram.size' = 1048576 B"},
      {"torus_pingpong --set torus.node.dma.injection_fifos=1",
       "parameter 'torus.node.dma.injection_fifos' = 1: the messaging layer programs 3"},
      {"torus_ami --set torus.node.dram.size=1GiB",
       "parameter 'torus.node.dram.size' = 1073741824 B"},
      {"torus_ami --set torus.network.header_bytes=8",
       "parameter 'torus.network.header_bytes' = 8: packets then carry up to 248 B"},
      {"default --set node0.acc0.spe7.local_store.size=4096",
       "parameter 'node0.acc0.spe7.local_store.size' = 4096 B"},
      {"default --set node0.host.dram.size=64MiB", "parameter 'node0.host.dram.size' = 67108864 B"},
      {"pcie_stream --set node0.host.dram.size=64MiB", "SPE 7's stream"},
      {"mirrored_counters --set node0.acc0.dram.size=512MiB", "the SLMPM's shared memory"},
  };
  for (const auto& [args, why] : cases) {
    auto r = hybridsim("run " + args + " --quiet");
    EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("hybridsim: error: parameter '"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(why), std::string::npos) << args << "\n" << r.output;
  }
}

TEST(Cli, SeedsBeyondSixtyFourBitsAreBadInput) {
  auto r = hybridsim("run default --quiet --seed 18446744073709551616");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--seed 18446744073709551616 is above the largest seed"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(hybridsim("run default --quiet --seed 99999999999999999999999").code, 2);
  // Leading zeros are decimal digits, not an octal prefix.
  const std::string report = tmp("seed.json");
  EXPECT_EQ(hybridsim("run default --quiet --seed 010 --report " + report).code, 0);
  EXPECT_EQ(read_json(report)["seed"], 10);
  EXPECT_EQ(hybridsim("run default --quiet --seed 018446744073709551615 --report " + report).code,
            0);
  EXPECT_EQ(read_json(report)["seed"], 18446744073709551615ull);
}

TEST(Cli, HostileScenarioFilesAreBadInputNotCrashes) {
  const std::string deep = tmp("deep.json");
  std::ofstream(deep) << "{\"workload\": \"hybrid_demo\", \"params\": {\"a\": "
                      << std::string(200000, '[') << std::string(200000, ']') << "}}";
  auto r = hybridsim("run " + deep);
  EXPECT_EQ(r.code, 2) << r.output.substr(0, 300);
  EXPECT_NE(r.output.find("deeper than 64 levels"), std::string::npos) << r.output.substr(0, 300);
  const std::string twice = tmp("twice.json");
  std::ofstream(twice) << "{\"workload\": \"hybrid_demo\", \"params\": "
                          "{\"node0.pcie0.lanes\": 4, \"node0.pcie0.lanes\": 8}}";
  r = hybridsim("run " + twice);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("key 'node0.pcie0.lanes' appears twice in 'params'"), std::string::npos)
      << r.output;
  r = hybridsim("run default --set workload.host_bytes=1e30");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("value 1e+30 does not fit a 64-bit integer"), std::string::npos)
      << r.output;
}

TEST(Cli, DeadlockedFirmwareIsReported) {
  // A time limit shorter than the workload leaves cores unfinished: reported, exit 1.
  auto r = hybridsim("run default --set sim.time_limit=10us");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("watchdog: the run finishes before sim.time_limit"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("never finished their firmware"), std::string::npos) << r.output;
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
  EXPECT_EQ(ja["interrupted"], false);
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

namespace {

// Runs `hybridsim ARGS` with its standard output sent to `stdout_to`, and returns what it
// wrote to standard error.
hs::testing::CliResult hybridsim_stdout_to(const std::string& args, const std::string& stdout_to) {
  return hs::testing::run_shell(hs::testing::hybridsim_bin() + " " + args + " 2>&1 >" + stdout_to);
}

// The names in `dir`, to see that a run left nothing behind (no temporary files).
std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

}  // namespace

TEST(Cli, ExistingOutputFilesSurviveBadArguments) {
  const std::string dir = tmp("keep");
  fs::create_directories(dir);
  const std::string report = dir + "/old.json", trace = dir + "/old_trace.json",
                    vcd = dir + "/old.vcd";
  for (const auto& f : {report, trace, vcd}) std::ofstream(f) << "precious " << f << "\n";
  const auto before = names_in(dir);
  const std::string outputs = " --report " + report + " --trace " + trace + " --vcd " + vcd;
  for (const std::string bad :
       {"--set nosuch=1", "--set node0.pcie0.lanes=5", "--seed -1", "--set justaname"}) {
    auto r = hybridsim("run default" + outputs + " " + bad);
    EXPECT_EQ(r.code, 2) << bad << "\n" << r.output;
    for (const auto& f : {report, trace, vcd}) {
      EXPECT_EQ(hs::testing::file_text(f), "precious " + f + "\n") << bad;
    }
    EXPECT_EQ(names_in(dir), before) << bad;
  }
}

TEST(Cli, AVcdNameWithoutTheVcdExtensionIsRefusedAndTheFileKept) {
  const std::string notes = tmp("notes.txt");
  std::ofstream(notes) << "my notes\n";
  auto r = hybridsim("run default --quiet --vcd " + notes);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--vcd: file name must end in .vcd or .fst, got '" + notes + "'"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(hs::testing::file_text(notes), "my notes\n");
}

TEST(Cli, OutputsThatCannotBeWrittenFailWithAMessageNamingTheFile) {
  for (const std::string option : {"--report", "--trace"}) {
    auto r = hybridsim("run default --quiet " + option + " /dev/full");
    EXPECT_EQ(r.code, 2) << option << "\n" << r.output;
    EXPECT_NE(r.output.find(option + ": cannot write '/dev/full': No space left on device"),
              std::string::npos)
        << r.output;
  }
  // No --vcd /dev/full: the name lacks .vcd, and a build with the old probe would delete the
  // device itself.
  // The text report on standard output.
  auto r = hybridsim_stdout_to("run default", "/dev/full");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("cannot write the report to standard output (/dev/full): No space left "
                          "on device"),
            std::string::npos)
      << r.output;
  // Devices that take what they are given are written in place.
  r = hybridsim("run default --report /dev/null --trace /dev/null");
  EXPECT_EQ(r.code, 0) << r.output;
}

TEST(Cli, AReplacedReportKeepsItsPermissionsAndALinkKeepsPointingAtIt) {
  const std::string dir = tmp("replace");
  fs::create_directories(dir + "/elsewhere");
  const std::string report = dir + "/r.json", target = dir + "/elsewhere/t.json",
                    link = dir + "/link.json";
  std::ofstream(report) << "old\n";
  fs::permissions(report, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  std::ofstream(target) << "old\n";
  fs::create_symlink(target, link);
  ASSERT_EQ(hybridsim("run default --quiet --report " + report + " --trace " + link).code, 0);
  EXPECT_EQ(read_json(report)["status"], "passed");
  EXPECT_EQ(fs::status(report).permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(read_json(target).contains("traceEvents"));
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"elsewhere", "link.json", "r.json"}));
  EXPECT_EQ(names_in(dir + "/elsewhere"), (std::set<std::string>{"t.json"}));
}

TEST(Cli, AnInterruptedRunWritesAMarkedReportValidTracesAndExits130) {
  for (const int sig : {SIGINT, SIGTERM}) {
    const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    const std::string dir = tmp("interrupted_" + name);
    fs::create_directories(dir);
    const std::string report = dir + "/r.json", trace = dir + "/t.json", vcd = dir + "/v.vcd",
                      log = tmp("interrupted_" + name + ".log");
    // Held at 5 us of simulated time, well before the default scenario's end.
    const hs::testing::RunHold hold("hold_" + name, 5000);
    hs::sweep::StartOptions options;
    options.env = {hold.env};
    const pid_t pid = hs::sweep::start_logged({hs::testing::hybridsim_bin(), "run", "default",
                                               "--report", report, "--trace", trace, "--vcd", vcd},
                                              log, options);
    hold.wait(pid);
    kill(pid, sig);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const std::string text = hs::testing::file_text(log);
    ASSERT_TRUE(WIFEXITED(status)) << name << "\n" << text;
    EXPECT_EQ(WEXITSTATUS(status), 130) << text;
    EXPECT_NE(text.find("Interrupted by " + name + " at 5.000 us"), std::string::npos) << text;
    const Json r = read_json(report);
    EXPECT_EQ(r["interrupted"], true);
    EXPECT_EQ(r["interrupted_by"], name);
    EXPECT_EQ(r["status"], "interrupted");
    EXPECT_EQ(r["simulated_time_ns"], 5000.0);
    EXPECT_TRUE(r["checks"]["passed"].get<bool>()) << "an interrupted run is not a deadlock";
    const Json t = read_json(trace);  // throws unless the JSON is complete
    size_t spans = 0;
    for (const auto& e : t["traceEvents"]) spans += e["ph"] == "X" ? 1 : 0;
    EXPECT_GT(spans, 0u);
    EXPECT_NE(hs::testing::file_text(vcd).find("$enddefinitions"), std::string::npos);
    // The waveform's GTKWave files beside it, and no temporary file left.
    EXPECT_EQ(names_in(dir),
              (std::set<std::string>{"r.json", "t.json", "v.vcd", "v.gtkw", "v.core_state.txt"}));
  }
}

TEST(Cli, MisspeltScenarioSuggestsTheNearestBuiltIn) {
  auto r = hybridsim("run defualt");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("did you mean 'default'?"), std::string::npos) << r.output;
}

TEST(Cli, ReportDashWritesTheJsonReportToStandardOutputAndNoFile) {
  auto r = hybridsim("run torus_pingpong --report - 2>/dev/null");
  ASSERT_EQ(r.code, 0) << r.output;
  const Json j = Json::parse(r.output);  // nothing but the JSON
  EXPECT_EQ(j["status"], "passed");
  EXPECT_FALSE(fs::exists("-"));
}

TEST(Cli, ParamsListsQuantitiesInUnitsThatReadBack) {
  auto r = hybridsim("params");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("1.8GHz"), std::string::npos) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("16GiB"), std::string::npos);
  EXPECT_EQ(r.output.find("17179869184"), std::string::npos);
  EXPECT_EQ(hybridsim("run default --quiet --set node0.host.dram.size=16GiB").code, 0);
}

TEST(Cli, StatsListsEveryStatisticWithUnitAndDescription) {
  auto r = hybridsim("stats torus_ami");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("torus.network\n"), std::string::npos);
  EXPECT_NE(r.output.find("link_utilisation_max"), std::string::npos);
  EXPECT_NE(r.output.find("busiest link's busy fraction"), std::string::npos);
  EXPECT_EQ(hybridsim("stats defualt").code, 2);
}

TEST(Cli, InternalSweepTaskIsNotInTheHelp) {
  auto r = hybridsim("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.output.find("sweep-task"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("stats"), std::string::npos) << r.output;
}

TEST(Cli, StopAtEndsTheRunCleanlyWithAReportOverExactlyThatWindow) {
  const std::string report = tmp("stop.json");
  auto r = hybridsim("run torus_ami --quiet --set sim.stop_at=5us --report " + report);
  EXPECT_EQ(r.code, 0) << r.output;
  const Json j = read_json(report);
  EXPECT_EQ(j["status"], "passed");
  EXPECT_DOUBLE_EQ(j["simulated_time_ns"].get<double>(), 5000);
  EXPECT_DOUBLE_EQ(j["stopped_at_ns"].get<double>(), 5000);
  // The watchdog is not a clean stop: work left at it is a failure.
  EXPECT_EQ(hybridsim("run torus_ami --quiet --set sim.time_limit=5us").code, 1);
  // A run that finishes on its own was not stopped.
  ASSERT_EQ(hybridsim("run torus_pingpong --quiet --report " + tmp("a.json")).code, 0);
  EXPECT_TRUE(read_json(tmp("a.json"))["stopped_at_ns"].is_null());
}

// Running in slices to print progress never changes what the model does.
TEST(Cli, ProgressSlicesLeaveTheResultsUnchanged) {
  auto plain = hybridsim("run torus_ami --quiet --report " + tmp("plain.json"));
  auto sliced = hybridsim("run torus_ami --quiet --progress --progress-every 0.000001 --report " +
                          tmp("sliced.json"));
  ASSERT_EQ(plain.code, 0) << plain.output;
  ASSERT_EQ(sliced.code, 0) << sliced.output;
  Json a = read_json(tmp("plain.json")), b = read_json(tmp("sliced.json"));
  EXPECT_EQ(a["simulated_time_ns"], b["simulated_time_ns"]);
  EXPECT_EQ(a["stats"], b["stats"]);
  EXPECT_EQ(a["results"], b["results"]);
  EXPECT_NE(sliced.output.find("simulated"), std::string::npos) << "a progress line";
}

TEST(Cli, ProgressLineShowsSimulatedTimeShareDoneWallRateAndEta) {
  const std::string line = hs::runner::progress_line(2000, 4.0, 10000);
  EXPECT_NE(line.find("simulated 2.000 us of 10.000 us (20%)"), std::string::npos) << line;
  EXPECT_NE(line.find("wall 4 s"), std::string::npos) << line;
  EXPECT_NE(line.find("500.0 ns/wall s"), std::string::npos) << line;
  EXPECT_NE(line.find("ETA 16 s"), std::string::npos) << line;
  // Without a plan: no share and no ETA; long runs in minutes and hours.
  const std::string open = hs::runner::progress_line(2000, 4.0, 0);
  EXPECT_EQ(open.find("ETA"), std::string::npos) << open;
  EXPECT_EQ(open.find("%"), std::string::npos) << open;
  EXPECT_NE(hs::runner::progress_line(10000, 700, 100000).find("ETA 1.8 h"), std::string::npos);
  EXPECT_NE(hs::runner::progress_line(20000, 1200, 100000).find("ETA 80 min"), std::string::npos);
}

// Workloads register themselves: a misspelt one gets a suggestion, one on the wrong machine
// says which machine it runs on.
TEST(Cli, WorkloadNamesAreCheckedAgainstTheRegistry) {
  const std::string wrong_machine = hs::testing::write_temp_file(
      "wrong.json", R"({"machine": "hybrid", "workload": "torus_traffic"})");
  auto r = hybridsim("run " + wrong_machine);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("it runs on the torus machine"), std::string::npos) << r.output;
  const std::string misspelt = hs::testing::write_temp_file(
      "misspelt.json", R"({"machine": "torus", "workload": "torus_trafic"})");
  r = hybridsim("run " + misspelt);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("did you mean 'torus_traffic'?"), std::string::npos) << r.output;
}

// Every statistic of the report, one number per row, with its unit and description.
TEST(Cli, StatsCsvHasARowPerStatisticMatchingTheReport) {
  const std::string csv = tmp("stats.csv"), report = tmp("stats.json");
  auto r = hybridsim("run torus_ami --quiet --stats-csv " + csv + " --report " + report);
  ASSERT_EQ(r.code, 0) << r.output;
  const Json j = read_json(report);
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "group,statistic,value,unit,description");
  bool hops = false, latency = false;
  size_t rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    if (line.rfind("torus.network,packet_hops,", 0) == 0) {
      hops = true;
      EXPECT_NE(line.find("," + j["stats"]["torus.network"]["packet_hops"].dump() + ",hops,"),
                std::string::npos)
          << line;
    }
    latency |= line.rfind("torus.network,packet_latency.mean,", 0) == 0;
  }
  EXPECT_TRUE(hops);
  EXPECT_TRUE(latency) << "histograms give their mean";
  EXPECT_GT(rows, 100u);
  // The workload's results follow, with their units and descriptions.
  const std::string text = hs::testing::file_text(csv);
  EXPECT_NE(
      text.find("results,mean_completion_ns," + j["results"]["mean_completion_ns"].dump() + ",ns,"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("results,protocol,B,,"), std::string::npos) << text;
  EXPECT_NE(text.find("results,link_utilisation/by_direction/+x/mean,"), std::string::npos) << text;
}

// `hybridsim stats` lists the workload's results as it lists statistics: the names sweeps and
// plots take, each with its unit and description.
TEST(Cli, StatsListsTheWorkloadsResultsWithUnits) {
  auto r = hybridsim("stats torus_pingpong");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("results (of workload torus_pingpong"), std::string::npos) << r.output;
  const auto line = r.output.find("\n  one_way_latency_ns ");
  ASSERT_NE(line, std::string::npos) << r.output;
  const std::string row = r.output.substr(line, r.output.find('\n', line + 1) - line);
  EXPECT_NE(row.find(" ns "), std::string::npos) << row;
  EXPECT_NE(row.find("half the mean round trip"), std::string::npos) << row;
  EXPECT_NE(r.output.find("link_utilisation/by_direction/*/mean"), std::string::npos) << r.output;
}

// A report summarises: identical rows folded with a count, checks that never applied left to
// the JSON, values in their units, the overrides and the workload's own account in the header.
TEST(Cli, ReportsSummarise) {
  auto r = hybridsim("run program_halo");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("torus.*.core0 (64 alike)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("torus.x1y0z0.core0"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("not run             0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("checks did not apply to this run"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("communication_ns_per_iteration    56.864 us"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("e+"), std::string::npos) << "no bare exponents\n" << r.output;
  r = hybridsim("run torus_traffic --set workload.pattern=hotspot --set torus.network.x=4");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("hotspot traffic at offered load 0.5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("on the 4x8x8 torus"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Changed by --set: workload.pattern=hotspot, torus.network.x=4"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("(1536 links, whole run)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("window_reached   whole"), std::string::npos) << r.output;
}

// A trace keeps a window, the tracks a pattern names, and stops (the run does not) at its
// size bound, leaving valid JSON.
TEST(Cli, TraceWindowTrackPatternAndSizeBound) {
  const std::string full = tmp("full.json"), cut = tmp("cut.json"), small = tmp("small.json");
  ASSERT_EQ(hybridsim("run default --quiet --trace " + full).code, 0);
  auto r = hybridsim("run default --quiet --trace " + cut +
                     " --trace-start 100us --trace-end 200us --trace-only 'node0.host.*'");
  ASSERT_EQ(r.code, 0) << r.output;
  const Json all = read_json(full), kept = read_json(cut);
  // Threads are named within their process (node0.host's "core0"): every kept thread's
  // process is the host.
  std::map<int, std::string> processes, threads;
  for (const auto& e : kept["traceEvents"]) {
    if (e.value("name", "") == "process_name") processes[e["pid"]] = e["args"]["name"];
    if (e.value("name", "") == "thread_name") threads[e["tid"]] = e["args"]["name"];
  }
  ASSERT_FALSE(threads.empty());
  ASSERT_FALSE(processes.empty());
  for (const auto& [pid, name] : processes) EXPECT_EQ(name.rfind("node0.host", 0), 0u) << name;
  size_t spans = 0;
  for (const auto& e : kept["traceEvents"]) {
    if (e.value("ph", "") != "X") continue;
    ++spans;
    const double ts = e["ts"].get<double>(), end = ts + e["dur"].get<double>();
    EXPECT_GE(end, 100.0) << e.dump();
    EXPECT_LE(ts, 200.0) << e.dump();
  }
  EXPECT_GT(spans, 0u);
  EXPECT_LT(kept["traceEvents"].size(), all["traceEvents"].size());

  r = hybridsim("run default --trace " + small + " --trace-limit 64KiB");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("tracing stops here, the run goes on"), std::string::npos) << r.output;
  EXPECT_LE(hs::testing::file_text(small).size(), 70u * 1024);
  EXPECT_NO_THROW(read_json(small));
  EXPECT_EQ(hybridsim("run default --quiet --trace " + small + " --trace-end 5000").code, 0)
      << "a bare number is in ns";
  EXPECT_EQ(hybridsim("run default --trace " + small + " --trace-start 10us --trace-end 5us").code,
            2)
      << "a window ending at or before its start";
  EXPECT_EQ(hybridsim("run default --trace " + small + " --trace-start soon").code, 2);
}

// A machine larger than the host's memory is refused before it is built, naming what sizes it;
// `params` on it too, and sim.memory_limit decides instead of the host when set.
TEST(Cli, AMachineBeyondTheHostsMemoryIsRefusedBeforeItIsBuilt) {
  const std::string huge =
      " --set torus.network.x=128 --set torus.network.y=128 --set torus.network.z=128";
  for (const std::string& cmd : {"run torus_traffic" + huge, "params torus_traffic" + huge}) {
    auto r = hybridsim(cmd);
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.output;
    EXPECT_NE(r.output.find("the 128x128x128 torus (2097152 nodes) needs about 137.4 GB of "
                            "memory, more than this host has available"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("torus.network.x, torus.network.y, torus.network.z"), std::string::npos)
        << r.output;
  }
  auto r = hybridsim("run torus_traffic --set sim.memory_limit=1MB");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("more than sim.memory_limit (0.0 GB)"), std::string::npos) << r.output;
}

// Under an address-space limit the estimate passes (sim.memory_limit says so) but allocations
// fail: a clear error and exit 2, never SIGABRT or "internal error".
TEST(Cli, RunningOutOfMemoryIsAClearError) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit allows";
#else
  auto r =
      hs::testing::run_shell("ulimit -v 700000; " + hs::testing::hybridsim_bin() +
                             " run torus_traffic --set torus.network.x=32 --set torus.network.y=32 "
                             "--set torus.network.z=32 --set sim.memory_limit=1TB --quiet 2>&1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("hybridsim: error: out of memory: an allocation failed"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
#endif
}

TEST(Cli, AMissingOrMisspeltCommandIsAnsweredWithTheCommands) {
  auto r = hybridsim("");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("a command is required, one of: run, params, stats, sweep"),
            std::string::npos)
      << r.output;
  r = hybridsim("simulate default");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("'simulate' is not a command; the commands are: run, params"),
            std::string::npos)
      << r.output;
  r = hybridsim("rnu default");
  EXPECT_NE(r.output.find("'rnu' is not a command (did you mean 'run'?)"), std::string::npos)
      << r.output;
  r = hybridsim("run default --colour");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("'hybridsim run --help' lists what it takes"), std::string::npos)
      << r.output;
}

// "-" is standard output for every output file, one at a time; the text report gives way.
TEST(Cli, ADashWritesAnOutputToStandardOutput) {
  auto stdout_of = [](const std::string& args) {
    return hs::testing::run_shell(hs::testing::hybridsim_bin() + " " + args + " 2>/dev/null");
  };
  auto r = stdout_of("run default --stats-csv -");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("group,statistic,value,unit,description\n", 0), 0u) << r.output;
  EXPECT_EQ(r.output.find("Checks:"), std::string::npos) << "the text report gave way";
  EXPECT_FALSE(fs::exists("-"));
  r = stdout_of("run torus_traffic --set sim.stop_at=2us --link-csv -");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("x,y,z,direction,", 0), 0u) << r.output.substr(0, 300);
  r = hybridsim("run default --report - --stats-csv -");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--report and --stats-csv both ask for standard output"),
            std::string::npos)
      << r.output;
}

// One rule for numbers: a bare number is in the listed unit, suffixes in any case, and a bare
// value that can only be a forgotten unit refused with the fix.
TEST(Cli, UnitsAreReadByOneRuleAndExplained) {
  auto r = hybridsim("params default");
  EXPECT_NE(r.output.find("A bare number is in the unit shown with it"), std::string::npos);
  r = hybridsim("run default --set sim.stop_at=0.001 --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(
      r.output.find("is bare, and a bare number is in ns: 0.001 would be 1ps; write the unit"),
      std::string::npos)
      << r.output;
  r = hybridsim("run default --set node0.host.clock=1.5ghz --set sim.stop_at=1US --quiet");
  EXPECT_EQ(r.code, 0) << r.output;
  r = hybridsim("run default --set sim.stop_at=3furlongs --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("'furlongs' is not a unit of ns (write one of ps, ns, us, ms, s)"),
            std::string::npos)
      << r.output;
}
