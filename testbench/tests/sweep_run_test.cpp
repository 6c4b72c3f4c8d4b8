// `hybridsim sweep`, `collect` and `plot` run as a user would: the CSV and its metadata,
// failing points, resume, bad input before anything runs, and figures.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "testbench/support/cli_run.h"
#include "testbench/sweep/csv.h"
#include "testbench/sweep/external_command.h"
#include "testbench/sweep/sweep_output.h"

namespace fs = std::filesystem;
using hs::testing::file_text;
using hs::testing::hybridsim;
using hs::testing::temp_path;
using hs::testing::write_temp_file;
using Json = nlohmann::json;

namespace {

Json read_json(const std::string& path) {
  std::ifstream in(path);
  return Json::parse(in);
}

// Four PCIe points (2 lanes x 2 payloads); the default scenario takes ~20 ms a point.
const char* kPcieSweep = R"({"scenario": "default",
  "params": {"node0.pcie0.lanes": [4, 8], "node0.pcie0.max_payload": [128, 256]},
  "stats": ["simulated_time_ns", "node0.pcie0.down:payload_efficiency",
            "results:accelerators/0/verified"]})";

}  // namespace

TEST(SweepRun, TheCsvHasOneRowPerPointWithTheStatsOfItsReport) {
  const auto spec = write_temp_file("pcie.json", kPcieSweep);
  const std::string out = temp_path("pcie_out");
  auto r = hybridsim("sweep " + spec + " --jobs 2 --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  const auto t = hs::sweep::read_csv(out + "/results.csv");
  EXPECT_EQ(t.header, (std::vector<std::string>{
                          "point", "seed", "node0.pcie0.lanes", "node0.pcie0.max_payload", "status",
                          "simulated_time_ns", "node0.pcie0.down:payload_efficiency",
                          "results:accelerators/0/verified", "error"}));
  ASSERT_EQ(t.rows.size(), 4u);
  const Json meta = read_json(out + "/results.json");
  const std::vector<std::pair<int, int>> expected = {{4, 128}, {4, 256}, {8, 128}, {8, 256}};
  for (size_t i = 0; i < 4; ++i) {
    const auto& row = t.rows[i];
    EXPECT_EQ(row[0], std::to_string(i));
    EXPECT_EQ(row[2], std::to_string(expected[i].first));
    EXPECT_EQ(row[3], std::to_string(expected[i].second));
    EXPECT_EQ(row[4], "passed");
    EXPECT_EQ(row[7], "true");
    EXPECT_EQ(row[8], "");
    // Each cell is the statistic of that point's own report.
    const Json& p = meta["points"][i];
    const Json report = read_json(out + "/" + p["report"].get<std::string>());
    EXPECT_EQ(report["params"]["node0.pcie0.lanes"], expected[i].first);
    EXPECT_EQ(row[5], report["simulated_time_ns"].dump());
    EXPECT_EQ(row[6], hs::sweep::select_stat(report, "node0.pcie0.down:payload_efficiency").dump());
  }
  // Twice the lanes: shorter run; a larger payload: better efficiency.
  EXPECT_LT(std::stod(t.rows[2][5]), std::stod(t.rows[0][5]));
  EXPECT_GT(std::stod(t.rows[1][6]), std::stod(t.rows[0][6]));
}

TEST(SweepRun, TheMetadataNamesTheBuildTheInputsAndTheWallTimeOfEveryPoint) {
  const auto spec = write_temp_file("meta.json", R"({"scenario": "default",
    "params": {"node0.pcie0.lanes": [8]}, "fixed": {"workload.spes": 4}, "seeds": [5, 9]})");
  const std::string out = temp_path("meta_out");
  ASSERT_EQ(hybridsim("sweep " + spec + " --quiet --out " + out).code, 0);
  const Json meta = read_json(out + "/results.json");
  EXPECT_EQ(meta["hybridsim"]["version"], HYBRIDSIM_VERSION);
  EXPECT_FALSE(meta["hybridsim"]["git_revision"].get<std::string>().empty());
  EXPECT_EQ(meta["backend"], "local");
  EXPECT_EQ(meta["sweep"]["fixed"]["workload.spes"], 4);
  EXPECT_EQ(meta["summary"]["passed"], 2);
  ASSERT_EQ(meta["points"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const Json& p = meta["points"][i];
    EXPECT_EQ(p["seed"], i == 0 ? 5 : 9);
    EXPECT_EQ(p["params"], (Json{{"node0.pcie0.lanes", 8}}));
    EXPECT_EQ(p["status"], "passed");
    EXPECT_GT(p["wall_seconds"].get<double>(), 0);
    EXPECT_GT(p["sim_wall_seconds"].get<double>(), 0);
    EXPECT_LE(p["sim_wall_seconds"].get<double>(), p["wall_seconds"].get<double>());
    EXPECT_FALSE(p["host"].get<std::string>().empty());
    const Json report = read_json(out + "/" + p["report"].get<std::string>());
    EXPECT_EQ(report["params"]["workload.spes"], 4);  // fixed values reach every point
  }
}

TEST(SweepRun, AFailingPointIsRecordedWithItsErrorAndTheOthersFinish) {
  // The second point cannot finish its firmware in 10 us of simulated time.
  const auto spec = write_temp_file("fail.json", R"({"scenario": "default",
    "params": {"sim.time_limit": [0, "10us", 0.0]}})");
  const std::string out = temp_path("fail_out");
  auto r = hybridsim("sweep " + spec + " --jobs 2 --out " + out);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("2 passed, 1 failed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("point 1 (failed): "), std::string::npos) << r.output;
  const auto t = hs::sweep::read_csv(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0][3], "passed");
  EXPECT_EQ(t.rows[1][3], "failed");
  EXPECT_EQ(t.rows[2][3], "passed");
  EXPECT_EQ(t.rows[1][4], "");  // no stats from a failed run
  EXPECT_NE(t.rows[1][5].find("sim.time_limit"), std::string::npos) << t.rows[1][5];
  // Rerunning runs the failed point again, and only it.
  r = hybridsim("sweep " + spec + " --jobs 2 --out " + out);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("2 already in results"), std::string::npos) << r.output;
}

TEST(SweepRun, RerunningSkipsPointsAlreadyInTheResultsAndRunsOnlyNewOnes) {
  const std::string out = temp_path("resume_out");
  auto spec = write_temp_file("resume.json", kPcieSweep);
  ASSERT_EQ(hybridsim("sweep " + spec + " --quiet --out " + out).code, 0);
  const std::string first_csv = file_text(out + "/results.csv");
  // Mark every point's log so a rerun that ran a point would be visible.
  std::vector<std::string> logs;
  for (const auto& e : fs::directory_iterator(out + "/points")) {
    if (e.path().extension() == ".log") {
      logs.push_back(e.path().string());
      std::ofstream(e.path(), std::ios::app) << "untouched\n";
    }
  }
  ASSERT_EQ(logs.size(), 4u);
  auto r = hybridsim("sweep " + spec + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("4/4 done, 0 failed, 0 running, 4 already in results"), std::string::npos)
      << r.output;
  for (const auto& l : logs) EXPECT_NE(file_text(l).find("untouched"), std::string::npos) << l;
  EXPECT_EQ(file_text(out + "/results.csv"), first_csv);
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;

  // Results another build produced are reused, with a warning naming that build.
  {
    const std::string key = read_json(out + "/results.json")["points"][0]["key"];
    Json record = read_json(out + "/points/" + key + ".json");
    record["git_revision"] = "v0.0-old";
    std::ofstream(out + "/points/" + key + ".json") << record.dump();
  }
  r = hybridsim("sweep " + spec + " --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: 1 point in the results was run by hybridsim v0.0-old, not "
                          "this build"),
            std::string::npos)
      << r.output;

  // A point whose record is gone (an interrupted run) runs again; so do new values.
  const Json meta = read_json(out + "/results.json");
  fs::remove(out + "/points/" + meta["points"][3]["key"].get<std::string>() + ".json");
  spec = write_temp_file("resume.json", R"({"scenario": "default",
    "params": {"node0.pcie0.lanes": [4, 8, 16], "node0.pcie0.max_payload": [128, 256]},
    "stats": ["simulated_time_ns", "node0.pcie0.down:payload_efficiency",
              "results:accelerators/0/verified"]})");
  r = hybridsim("sweep " + spec + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("6/6 done, 0 failed, 0 running, 3 already in results"), std::string::npos)
      << r.output;
  const auto t = hs::sweep::read_csv(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 6u);
  // The rerun point reproduces its first result exactly.
  std::istringstream first(first_csv);
  std::string line;
  std::getline(first, line);
  for (int i = 0; i < 4; ++i) std::getline(first, line);
  EXPECT_EQ(line.substr(line.find(',', line.find(',') + 1)),
            "," + t.rows[3][2] + "," + t.rows[3][3] + "," + t.rows[3][4] + "," + t.rows[3][5] +
                "," + t.rows[3][6] + "," + t.rows[3][7] + ",");
}

TEST(SweepRun, EditingTheScenarioRerunsItsPointsButReformattingItDoesNot) {
  // A scenario file beside the sweep, named without a directory: a relative path is relative
  // to the sweep file, not to where the sweep is run from.
  const std::string dir = temp_path("own_scenario");
  fs::create_directories(dir);
  auto write_scenario = [&](const std::string& host_bytes, const std::string& indent) {
    std::ofstream(dir + "/mine.json")
        << "{\"machine\": \"hybrid\", \"workload\": \"hybrid_demo\",\n"
        << indent << "\"params\": {\"workload.host_bytes\": \"" << host_bytes << "\"}}\n";
  };
  write_scenario("64KiB", "");
  std::ofstream(dir + "/sweep.json")
      << R"({"scenario": "mine.json", "params": {"node0.pcie0.lanes": [4, 8]}})";
  const std::string out = dir + "/out";
  const std::string cmd = "sweep " + dir + "/sweep.json --out " + out;
  ASSERT_EQ(hybridsim(cmd + " --quiet").code, 0);
  const auto original = hs::sweep::read_csv(out + "/results.csv");

  write_scenario("64KiB", "     ");  // layout only: the same scenario
  auto r = hybridsim(cmd);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("2/2 done, 0 failed, 0 running, 2 already in results"), std::string::npos)
      << r.output;

  write_scenario("128KiB", "");  // another workload: the old results must not be reused
  r = hybridsim(cmd);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.find("already in results"), std::string::npos) << r.output;
  const auto edited = hs::sweep::read_csv(out + "/results.csv");
  // Twice the bytes take longer on both link widths (column 4: simulated_time_ns).
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_GT(std::stod(edited.rows[i][4]), std::stod(original.rows[i][4])) << i;
  }
}

TEST(SweepRun, BadSweepsAndOptionsAreRejectedBeforeAnythingRuns) {
  const std::string out = temp_path("bad_out");
  auto expect_bad = [&](const std::string& text, const std::string& args, const std::string& why) {
    const auto spec = write_temp_file("bad.json", text);
    fs::remove_all(out);
    auto r = hybridsim("sweep " + spec + " --quiet --out " + out + " " + args);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out + "/points")) << "a point ran for: " << text;
  };
  expect_bad(R"({"scenario": "default", "params": {"node0.pcie0.lanes": 8}})", "",
             "must be a non-empty list of values or a range object");
  expect_bad(R"({"scenario": "default", "params": {"node0.pcie0.lanez": [8]}})", "",
             "unknown parameter 'node0.pcie0.lanez' (did you mean 'node0.pcie0.lanes'?)");
  // Every value is checked, not only the first point's.
  expect_bad(
      R"({"scenario": "default", "params": {"node0.pcie0.lanes": [8, 3],
               "node0.pcie0.max_payload": [128, 100]}})",
      "", "params.node0.pcie0.lanes: value 3: parameter 'node0.pcie0.lanes' value 3 is not one of");
  expect_bad(R"({"scenario": "default", "params": {"node0.pcie0.lanes": [8, 3],
               "node0.pcie0.max_payload": [128, 100]}})",
             "", "params.node0.pcie0.max_payload: value 100");
  expect_bad(
      R"({"scenario": "default", "params": {"workload.spes": {"from": 1, "to": 12, "step": 1}}})",
      "", "value 9: parameter 'workload.spes' value 9 is above the maximum");
  // One run lists the file's problems and the model's together, the later values included.
  const std::string many = R"({"scenario": "default", "repeats": 0,
      "params": {"node0.pcie0.lanez": [8], "node0.pcie0.max_payload": [128, 100],
                 "workload.spes": {"from": 1, "to": 0, "step": 1}}})";
  expect_bad(many, "", "'repeats' must be 1 to 10000, got 0");
  expect_bad(many, "", "params.workload.spes.step 1 never goes from 1 to 0");
  expect_bad(many, "", "bad.json: sweep value node0.pcie0.lanez=8: unknown parameter");
  expect_bad(many, "", "params.node0.pcie0.max_payload: value 100");
  // A histogram's figures are named as in the statistics CSV; others are not statistics.
  expect_bad(R"({"scenario": "default", "params": {"node0.pcie0.lanes": [8]},
               "stats": ["node0.acc0.spe0.mfc:command_latency.median"]})",
             "", "component 'node0.acc0.spe0.mfc' has no statistic 'command_latency.median'");
  // Results are statistics too: a misspelt one is refused before any point runs.
  expect_bad(R"({"scenario": "torus_pingpong", "params": {"workload.bytes": [8]},
               "stats": ["results:one_way_latency"]})",
             "",
             "workload 'torus_pingpong' reports no result 'one_way_latency' (did you mean "
             "'results:one_way_latency_ns'?)");
  expect_bad(R"({"scenario": "torus_pingpong", "params": {"workload.bytes": [8]},
               "stats": ["results:link_utilisation/by_direction/+x/meen"]})",
             "", "reports no result 'link_utilisation/by_direction/+x/meen'");
  expect_bad(kPcieSweep, "--partition debug", "--partition applies only to --backend slurm");
  expect_bad(kPcieSweep, "--backend slurm --time 1hour", "--time '1hour': expected a Slurm time");
  expect_bad(kPcieSweep, "--backend cloud", "--backend");
  expect_bad(kPcieSweep, "--jobs 0", "--jobs");
}

TEST(SweepRun, EverySweepFileErrorIsBadInputNamingTheFileAndField) {
  const std::string out = temp_path("bad_file_out");
  auto expect_bad = [&](const std::string& sweep_file, const std::string& why) {
    fs::remove_all(out);
    auto r = hybridsim("sweep " + sweep_file + " --quiet --out " + out);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out + "/points")) << "a point ran for: " << sweep_file;
  };
  expect_bad(write_temp_file("scale.json", R"({"scenario": "default", "params":
      {"workload.spes": {"from": 1, "to": 8, "count": 3, "scale": "logarithmic"},
       "node0.pcie0.lanes": {"from": 1, "to": 8, "count": 4, "scale": 2}}})"),
             "params.node0.pcie0.lanes.scale must be \"linear\" or \"log\", got 2");
  const std::string dir = temp_path("a_directory");
  fs::create_directories(dir);
  expect_bad(dir, dir + ": is a directory, not a sweep file");
  expect_bad(write_temp_file("long.json", "{\"scenario\": \"" + std::string(5000, 's') +
                                              "\", \"params\": {\"workload.spes\": [1]}}"),
             "long.json: scenario 'sss");
  // Statistics are checked against the elaborated model before any point runs.
  expect_bad(write_temp_file("stats.json", R"({"scenario": "default",
      "params": {"workload.spes": [1, 2]},
      "stats": ["simulated_time_nz", "node0.pcie0.down:payload_eficiency",
                "node0.pcie9.down:payload_efficiency", "results:accelerators/0/offload_us"]})"),
             "stats.json: stat 'simulated_time_nz' is not a report field");
  expect_bad(write_temp_file("stats.json", R"({"scenario": "default",
      "params": {"workload.spes": [1, 2]},
      "stats": ["node0.pcie0.down:payload_eficiency"]})"),
             "stat 'node0.pcie0.down:payload_eficiency': component 'node0.pcie0.down' has no "
             "statistic 'payload_eficiency'");
  expect_bad(write_temp_file("stats.json", R"({"scenario": "default",
      "params": {"workload.spes": [1, 2]},
      "stats": ["node0.pcie9.down:payload_efficiency"]})"),
             "scenario 'default' has no component 'node0.pcie9.down' with statistics");
}

TEST(SweepRun, CollectRewritesTheResultsOfALocalSweep) {
  const auto spec = write_temp_file("collect.json", kPcieSweep);
  const std::string out = temp_path("collect_out");
  ASSERT_EQ(hybridsim("sweep " + spec + " --quiet --out " + out).code, 0);
  const std::string csv = file_text(out + "/results.csv");
  fs::remove(out + "/results.csv");
  auto r = hybridsim("collect " + out);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(file_text(out + "/results.csv"), csv);
  r = hybridsim("collect " + temp_path("no_such_sweep"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("no sweep here"), std::string::npos) << r.output;
}

TEST(SweepRun, PlotsAreDrawnAsNonEmptySvgAndPngFiles) {
  const auto spec = write_temp_file("plot.json", R"({"scenario": "default",
    "params": {"node0.pcie0.lanes": [4, 8], "node0.pcie0.max_payload": [128, 256, 512]},
    "repeats": 2, "stats": ["node0.pcie0.down:payload_efficiency", "simulated_time_ns"]})");
  const std::string out = temp_path("plot_out");
  ASSERT_EQ(hybridsim("sweep " + spec + " --quiet --out " + out).code, 0);
  auto r = hybridsim("plot " + out + " --x node0.pcie0.max_payload --y simulated_time_ns " +
                     "--group node0.pcie0.lanes --log-x");
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string svg =
      out + "/simulated_time_ns_vs_node0_pcie0_max_payload_by_node0_pcie0_lanes.svg";
  ASSERT_TRUE(fs::exists(svg)) << r.output;
  EXPECT_GT(fs::file_size(svg), 1000u);
  const std::string text = file_text(svg);
  EXPECT_NE(text.find("<svg"), std::string::npos);
  // One line per group, labelled with its value under the grouping parameter's name.
  EXPECT_NE(text.find("<title>4</title>"), std::string::npos);
  EXPECT_NE(text.find("<title>8</title>"), std::string::npos);
  EXPECT_EQ(text.find("<title>16</title>"), std::string::npos);
  EXPECT_NE(text.find("<text>node0.pcie0.lanes</text>"), std::string::npos) << text;
  // The gnuplot script is kept, with the data: repeats averaged, with min-max bars.
  const std::string gp = file_text(fs::path(svg).replace_extension(".gp").string());
  EXPECT_NE(gp.find("yerrorlines"), std::string::npos);
  EXPECT_NE(gp.find("set logscale x 2"), std::string::npos);
  // Log-x ticks are the powers of two the data spans, with binary prefixes.
  EXPECT_NE(gp.find("set xtics ('128' 128, '256' 256, '512' 512)"), std::string::npos) << gp;
  // Both end ticks are drawn (gnuplot drops a tick exactly at a log axis's end by rounding).
  EXPECT_NE(text.find(">128</tspan>"), std::string::npos);
  EXPECT_NE(text.find(">512</tspan>"), std::string::npos);

  const std::string png = temp_path("fig/efficiency.png");
  // Without --group the two lane counts would be averaged into one line: refused, saying how.
  r = hybridsim("plot " + out + " --x node0.pcie0.max_payload --y simulated_time_ns");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("swept parameter 'node0.pcie0.lanes' takes 2 values (4, 8) at the same "
                          "point of a line"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("--group node0.pcie0.lanes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--where node0.pcie0.lanes=4"), std::string::npos) << r.output;
  r = hybridsim("plot " + out + "/results.csv --x node0.pcie0.max_payload --y " +
                "node0.pcie0.down:payload_efficiency --where node0.pcie0.lanes=8 --out " + png +
                " --title 'PCIe efficiency'" +
                " --xlabel 'max payload (bytes)' --ylabel 'payload efficiency'");
  ASSERT_EQ(r.code, 0) << r.output;
  ASSERT_TRUE(fs::exists(png));
  std::ifstream f(png, std::ios::binary);
  char magic[4] = {};
  f.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  EXPECT_GT(fs::file_size(png), 1000u);
  const std::string png_gp = file_text(fs::path(png).replace_extension(".gp").string());
  EXPECT_NE(png_gp.find("set xlabel 'max payload (bytes)'"), std::string::npos) << png_gp;
  EXPECT_NE(png_gp.find("set ylabel 'payload efficiency'"), std::string::npos) << png_gp;
}

TEST(SweepRun, ALogAxisOfRatesBelowOneHasDecadeTicks) {
  const auto csv =
      write_temp_file("rates.csv", "error_rate,goodput\n1e-6,1\n1e-4,0.99\n1e-2,0.9\n");
  const std::string svg = temp_path("fig/rates.svg");
  const auto r = hybridsim("plot " + csv + " --x error_rate --y goodput --log-x --out " + svg);
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string gp = file_text(fs::path(svg).replace_extension(".gp").string());
  EXPECT_NE(gp.find("set logscale x 10"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set xtics ('1e-6' 1e-6, '1e-5' 1e-5, '1e-4' 1e-4, '1e-3' 1e-3, '1e-2' 1e-2)"),
            std::string::npos)
      << gp;
  EXPECT_NE(file_text(svg).find(">1e-2</tspan>"), std::string::npos);
}

TEST(SweepRun, PlotRequestsNamingWhatIsNotInTheResultsAreBadInput) {
  const auto spec = write_temp_file("plotbad.json", R"({"scenario": "default",
    "params": {"node0.pcie0.lanes": [4, 8]}, "stats": ["simulated_time_ns", "results:accelerators/0/verified"]})");
  const std::string out = temp_path("plotbad_out");
  ASSERT_EQ(hybridsim("sweep " + spec + " --quiet --out " + out).code, 0);
  auto r = hybridsim("plot " + out + " --x node0.pcie0.lane --y simulated_time_ns");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--x 'node0.pcie0.lane': " + out + "/results.csv has no such column"),
            std::string::npos)
      << r.output;
  r = hybridsim("plot " + out + " --x node0.pcie0.lanes --y simulated_time_ns --out f.pdf");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("must be a .png or .svg"), std::string::npos) << r.output;
  r = hybridsim("plot " + out + " --x node0.pcie0.lanes --y error");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("row 2: error '' is not a number"), std::string::npos) << r.output;
  r = hybridsim("plot " + temp_path("nothing.csv") + " --x a --y b");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("cannot open results file"), std::string::npos) << r.output;
}

TEST(SweepRun, TheReadyMadeStudiesAreValidSweeps) {
  // Every study in testbench/studies passes the model check; --dry-run runs nothing.
  const std::map<std::string, size_t> points = {{"pcie_payload_lanes", 30},
                                                {"torus_latency_load", 72},
                                                {"protocol_latency_size", 51},
                                                {"ami_latency_size", 90},
                                                {"pcie_lcrc_errors", 12},
                                                {"torus_crc_errors", 12},
                                                {"protocol_errors_mirrored_counters", 15},
                                                {"protocol_errors_registration_cache", 15},
                                                {"protocol_errors_pin_dma_unpin", 15},
                                                {"protocol_errors_slmpm_messages", 15},
                                                {"protocol_errors_torus_pingpong", 45},
                                                {"protocol_errors_torus_ami", 45},
                                                {"mpi_allreduce_size", 18},
                                                {"mpi_alltoall_scale", 7},
                                                {"mpi_halo3d_scale", 4},
                                                {"cell_latency_size", 60},
                                                {"cell_stream_buffer", 30},
                                                {"cell_atomic_spes", 8},
                                                {"roadrunner_mirrored_counters", 4},
                                                {"roadrunner_registration_cache", 4},
                                                {"roadrunner_transfer_size", 48}};
  for (const auto& [name, n] : points) {
    const std::string out = temp_path("study_" + name);
    auto r = hybridsim("sweep " + std::string(HYBRIDSIM_STUDY_DIR) + "/" + name +
                       ".json --dry-run --out " + out);
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find(": " + std::to_string(n) + " points"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(std::to_string(n) + " to run"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out)) << name;
  }
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(HYBRIDSIM_STUDY_DIR))
    files += e.path().extension() == ".json";
  EXPECT_EQ(files, points.size()) << "a study without a test";
}

TEST(SweepRun, AnInterruptedSweepKeepsWhatFinishedAndTheRerunDoesTheRest) {
  const std::string out = temp_path("interrupt_out"), log = temp_path("interrupt.log");
  auto records = [&] {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(out + "/points")) {
      const std::string name = e.path().filename().string();
      n += name.size() == 21 && e.path().extension() == ".json";  // KEY.json, not reports
    }
    return n;
  };
  // Two points finish; the sweep grows by two.
  const std::string first = R"({"scenario": "default", "params": {"node0.pcie0.lanes": [4, 8]}})";
  auto spec = write_temp_file("interrupt.json", first);
  ASSERT_EQ(hybridsim("sweep " + spec + " --quiet --out " + out).code, 0);
  spec = write_temp_file("interrupt.json", R"({"scenario": "default",
    "params": {"node0.pcie0.lanes": [4, 8, 16, 2]}})");
  // Ctrl-C reaches the whole foreground process group while point 2 runs: it is held at a
  // known point of its simulation until the signal comes.
  const hs::testing::RunHold hold("interrupt_hold", 5000);
  hs::sweep::StartOptions options;
  options.env = {hold.env};
  options.own_group = true;
  const pid_t pid = hs::sweep::start_logged(
      {hs::testing::hybridsim_bin(), "sweep", spec, "--jobs", "1", "--out", out}, log, options);
  hold.wait(pid);
  kill(-pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << file_text(log);
  EXPECT_EQ(WEXITSTATUS(status), 130) << file_text(log);
  const std::string text = file_text(log);
  EXPECT_NE(text.find("interrupted; rerun the same command to run the rest"), std::string::npos)
      << text;
  // The interrupted point is not recorded (it runs again), and point 3 never started.
  EXPECT_EQ(records(), 2u);
  const auto partial = hs::sweep::read_csv(out + "/results.csv");
  ASSERT_EQ(partial.rows.size(), 4u);
  EXPECT_EQ(partial.rows[0][3], "passed");
  EXPECT_EQ(partial.rows[1][3], "passed");
  EXPECT_EQ(partial.rows[2][3], "missing");
  EXPECT_EQ(partial.rows[3][3], "missing");

  auto r = hybridsim("sweep " + spec + " --jobs 2 --out " + out);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("4/4 done, 0 failed, 0 running, 2 already in results"), std::string::npos)
      << r.output;
  EXPECT_EQ(records(), 4u);
}

// --set fixes a parameter at every point, checked against the model like the file's "fixed";
// a parameter the file sweeps cannot also be fixed.
TEST(SweepRun, SetFixesAParameterAtEveryPointAndASweptOneIsRefused) {
  const std::string dir = temp_path("sweep_set");
  fs::create_directories(dir);
  std::ofstream(dir + "/s.json")
      << R"({"scenario": "default", "params": {"node0.pcie0.lanes": [4, 8]}})";
  const std::string cmd = "sweep " + dir + "/s.json --out " + dir + "/out --dry-run";
  auto r = hybridsim(cmd + " --set node0.pcie0.lanes=2");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("sweeps 'node0.pcie0.lanes'; drop it from --set"), std::string::npos)
      << r.output;
  r = hybridsim(cmd + " --set node0.pcie0.gen=1");
  EXPECT_EQ(r.code, 0) << r.output;
  r = hybridsim(cmd + " --set node0.pcie0.gen=9");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("node0.pcie0.gen"), std::string::npos) << r.output;
  r = hybridsim(cmd + " --set node0.pcie0.genn=1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("node0.pcie0.genn"), std::string::npos) << r.output;
}
