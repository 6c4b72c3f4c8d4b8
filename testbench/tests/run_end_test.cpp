// How a run ends, and what its report then says: sim.time_limit is a watchdog and nothing
// else, rates cover only the time simulated, a run cut short marks what it could not measure
// and never blames the model for work it did not finish, and a failure always says why.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/runner/scenario_file.h"
#include "testbench/support/cli_run.h"
#include "testbench/support/scenario_run.h"
#include "testbench/sweep/external_command.h"

using Json = nlohmann::json;
using hs::testing::run_scenario;

namespace {

// Overrides that make each built-in scenario quick without changing what it exercises.
std::vector<std::string> small(const std::string& scenario) {
  if (scenario == "dma_transfers") return {"workload.transfers=100"};
  if (scenario == "pcie_stream") return {"workload.bytes_per_spe=256KiB"};
  if (scenario == "cell_dma") return {"workload.bytes_per_spe=1MiB"};
  const std::string machine =
      hs::runner::load_scenario(hs::runner::resolve_scenario(scenario)).machine;
  if (machine == "torus") return {"torus.network.x=2", "torus.network.y=2", "torus.network.z=2"};
  return {};
}

// A report with what varies from run to run (wall time) and the limits themselves removed.
Json model_part(Json r) {
  r.erase("run");
  r.erase("params");
  r.erase("overrides");
  return r;
}

const Json* check(const Json& report, const std::string& name) {
  for (const auto& c : report["checks"]["invariants"]) {
    if (c["name"] == name) return &c;
  }
  return nullptr;
}

class EveryScenario : public ::testing::TestWithParam<std::string> {};

}  // namespace

// A run that finishes before its watchdog or its stop time reports exactly what it reports
// without them: time never advances past the last event.
TEST_P(EveryScenario, TimeLimitAndStopAtBeyondTheEndChangeNothing) {
  std::vector<std::string> sets = small(GetParam());
  const Json plain = run_scenario(GetParam(), sets);
  ASSERT_EQ(plain.value("status", ""), "passed") << hs::testing::violations(plain);
  const double end_ns = plain["simulated_time_ns"].get<double>();
  for (const char* limit : {"sim.time_limit", "sim.stop_at"}) {
    std::vector<std::string> limited = sets;
    limited.push_back(std::string(limit) + "=" + std::to_string(end_ns * 10 + 1000));
    const Json r = run_scenario(GetParam(), limited);
    EXPECT_EQ(model_part(r), model_part(plain))
        << limit << ": " << Json::diff(model_part(plain), model_part(r)).dump();
    EXPECT_EQ(r["end"]["reason"], "finished") << limit;
  }
}

INSTANTIATE_TEST_SUITE_P(RunEnd, EveryScenario,
                         ::testing::ValuesIn(hs::runner::builtin_scenarios()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// Rates over a window the run left early are over the part it reached, not the planned one.
TEST(RunEnd, RatesCoverOnlyTheTimeSimulated) {
  const std::vector<std::string> base = {"torus.network.x=4", "torus.network.y=4",
                                         "torus.network.z=4", "workload.load=0.5"};
  std::vector<std::string> whole = base, cut = base;
  whole.push_back("workload.duration=28us");
  cut.push_back("workload.duration=2ms");
  cut.push_back("sim.stop_at=30us");  // the warm-up is 2 us: 28 us of a 2 ms window
  const Json w = run_scenario("torus_traffic", whole), c = run_scenario("torus_traffic", cut);
  ASSERT_EQ(w["status"], "passed") << hs::testing::violations(w);
  ASSERT_EQ(c["status"], "passed") << hs::testing::violations(c);
  EXPECT_EQ(c["end"]["reason"], "stopped at sim.stop_at");
  EXPECT_TRUE(c["end"]["cut_short"].get<bool>());
  const Json& cr = c["results"];
  EXPECT_EQ(cr["window"]["reached"], "part");
  EXPECT_DOUBLE_EQ(cr["window"]["end_ns"].get<double>(), 30000);
  EXPECT_DOUBLE_EQ(cr["window"]["planned_end_ns"].get<double>(), 2002000);
  // The same traffic over the same 28 us: the same accepted load (a full run's, 0.5 offered).
  EXPECT_NEAR(cr["accepted_load"].get<double>(), w["results"]["accepted_load"].get<double>(), 0.05);
  EXPECT_GT(cr["accepted_load"].get<double>(), 0.4);
  // The second half of a 2 ms window starts at 1 ms: never reached, so no figure.
  EXPECT_TRUE(cr["second_half_accepted_load"].is_null());
  EXPECT_TRUE(cr["second_half_mean_latency_ns"].is_null());
  EXPECT_EQ(cr["link_utilisation"]["window_reached"], "part");
  // Checks of work the stop left unfinished are listed, not run.
  const Json* delivered = check(c, "torus traffic: every packet delivered (no deadlock)");
  ASSERT_NE(delivered, nullptr);
  EXPECT_EQ((*delivered)["evaluations"], 0);
}

TEST(RunEnd, AWindowNeverEnteredHasNoFigures) {
  const Json r = run_scenario("torus_traffic", {"torus.network.x=4", "torus.network.y=4",
                                                "torus.network.z=4", "sim.stop_at=1us"});
  ASSERT_EQ(r["status"], "passed") << hs::testing::violations(r);
  EXPECT_EQ(r["results"]["window"]["reached"], "not reached");
  EXPECT_TRUE(r["results"]["accepted_load"].is_null());
  EXPECT_TRUE(r["results"]["first_half_accepted_load"].is_null());
  EXPECT_EQ(r["results"]["link_utilisation"]["window_reached"], "not reached");
  EXPECT_TRUE(r["results"]["link_utilisation"]["mean"].is_null());
}

// The watchdog: work left at it is a failure of the run, named as such; the checks of the
// unfinished work (a ping-pong's data) are not run rather than failed.
TEST(RunEnd, AWatchdogFailsTheRunButNotTheDataCheck) {
  const Json r = run_scenario("torus_pingpong", {"sim.time_limit=2us"});
  EXPECT_EQ(r["status"], "failed");
  EXPECT_EQ(r["end"]["reason"], "stopped by sim.time_limit");
  EXPECT_DOUBLE_EQ(r["simulated_time_ns"].get<double>(), 2000);
  const Json* watchdog = check(r, "watchdog: the run finishes before sim.time_limit");
  ASSERT_NE(watchdog, nullptr);
  EXPECT_EQ((*watchdog)["failures"], 1);
  const Json* data = check(r, "DCMF ping-pong: received data equals what was sent");
  ASSERT_NE(data, nullptr) << "listed, so a reader sees it did not run";
  EXPECT_EQ((*data)["evaluations"], 0);
  EXPECT_EQ((*data)["failures"], 0);
  // A run that finishes checks the data.
  const Json ok = run_scenario("torus_pingpong", {});
  ASSERT_NE(check(ok, "DCMF ping-pong: received data equals what was sent"), nullptr);
  EXPECT_EQ((*check(ok, "DCMF ping-pong: received data equals what was sent"))["evaluations"], 1);
}

// An interrupted run is not blamed on the model: packets still in flight are not a deadlock.
TEST(RunEnd, AnInterruptedRunBlamesNothingOnTheModel) {
  const std::string log = hs::testing::temp_path("interrupted_traffic.log"),
                    report = hs::testing::temp_path("interrupted_traffic.json");
  const hs::testing::RunHold hold("hold_traffic", 20000);
  hs::sweep::StartOptions options;
  options.env = {hold.env};
  const pid_t pid = hs::sweep::start_logged(
      {hs::testing::hybridsim_bin(), "run", "torus_traffic", "--set", "workload.duration=2ms",
       "--set", "torus.network.x=4", "--set", "torus.network.y=4", "--set", "torus.network.z=4",
       "--report", report},
      log, options);
  hold.wait(pid);
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  const std::string text = hs::testing::file_text(log);
  ASSERT_TRUE(WIFEXITED(status)) << text;
  EXPECT_EQ(WEXITSTATUS(status), 130) << text;
  EXPECT_EQ(text.find("FAILED"), std::string::npos) << text;
  EXPECT_NE(text.find("not run             0  torus traffic: every packet delivered"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not reached"), std::string::npos) << "the second half:\n" << text;
  const Json r = Json::parse(hs::testing::file_text(report));
  EXPECT_EQ(r["status"], "interrupted");
  EXPECT_TRUE(r["checks"]["passed"].get<bool>());
}

// A failing run says why on standard error, whatever --quiet says and wherever the report goes.
TEST(RunEnd, AFailureAlwaysSaysWhyOnStandardError) {
  for (const std::string& args :
       {std::string("run default --set sim.time_limit=1ns --quiet"),
        std::string("run dma_transfers --set node0.acc0.dma.bad_descriptor_at=1 --quiet"),
        std::string("run default --set sim.time_limit=1ns --report - ")}) {
    // Standard error alone: the report, if any, goes elsewhere.
    const auto r =
        hs::testing::run_shell(hs::testing::hybridsim_bin() + " " + args + " 2>&1 >/dev/null");
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.output.find("hybridsim: the run failed at"), std::string::npos) << args << "\n"
                                                                                << r.output;
  }
}
