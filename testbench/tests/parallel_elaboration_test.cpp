// Partitioned elaboration: under mpirun -np P each process builds only its own partition's
// compute nodes (and their statistics), yet the report is the sequential run's: the other
// partitions' node statistics arrive whole, the machine's totals add up, a node parameter set
// on the command line applies in every partition, and the memory budget counts each process's
// own nodes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/support/cli_run.h"
#include "testbench/support/mpirun.h"

using Json = nlohmann::json;
using hs::testing::CliResult;
using hs::testing::file_text;
using hs::testing::hybridsim_bin;
using hs::testing::model_part;
using hs::testing::mpirun;
using hs::testing::run_shell;
using hs::testing::temp_path;

namespace {

// A 4x4x4 torus: 64 nodes, at the default torus.node_stats_limit, so every node's statistics
// are in the report.
const std::string kSmall =
    "torus_traffic --set torus.network.x=4 --set torus.network.y=4 --set torus.network.z=4 "
    "--set workload.warmup=500 --set workload.duration=1500 --set workload.load=0.9 --quiet ";

struct Outputs {
  Json report;
  std::string stats_csv;
};

// Runs `args` as one process (processes = 0) or under mpirun -np processes.
Outputs run(const std::string& args, int processes) {
  const std::string report = temp_path("report.json"), csv = temp_path("stats.csv");
  const CliResult r =
      run_shell((processes ? mpirun(processes) : std::string()) + hybridsim_bin() + " run " + args +
                " --report " + report + " --stats-csv " + csv + " 2>&1");
  EXPECT_EQ(r.code, 0) << r.output;
  if (r.code != 0) return {};
  return {Json::parse(file_text(report)), file_text(csv)};
}

// The node statistic groups in a report: those of the nodes named x<X>y<Y>z<Z>.
std::vector<std::string> node_groups(const Json& report) {
  std::vector<std::string> out;
  for (const auto& [path, figures] : report["stats"].items()) {
    if (path.rfind("torus.x", 0) == 0) out.push_back(path);
  }
  return out;
}

}  // namespace

// Three slabs across x (two planes, one, one: 32, 16 and 16 nodes) and boxes of eight: each
// partition builds exactly its own nodes, together the machine, and the report and the
// statistics CSV, every node's groups included, are the sequential run's.
TEST(ParallelElaboration, EachPartitionBuildsOnlyItsOwnNodes) {
  const Outputs seq = run(kSmall, 0);
  ASSERT_FALSE(seq.report.is_null());
  ASSERT_EQ(node_groups(seq.report).size() % 64, 0u);
  ASSERT_GT(node_groups(seq.report).size(), 64u);  // cores, bus, memory, DMA of each node
  const struct {
    std::string args;
    int processes;
    std::vector<uint64_t> sizes;
  } cases[] = {
      {"--set torus.partition.axis=x", 3, {32, 16, 16}},
      {"--set torus.partition.scheme=box", 8, {8, 8, 8, 8, 8, 8, 8, 8}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args + " with " + std::to_string(c.processes) + " processes");
    const Outputs par = run(kSmall + c.args, c.processes);
    ASSERT_FALSE(par.report.is_null());
    const Json& parts = par.report["run"]["parallel"]["by_partition"];
    ASSERT_EQ(parts.size(), c.sizes.size());
    uint64_t total = 0;
    for (size_t p = 0; p < c.sizes.size(); ++p) {
      EXPECT_EQ(parts[p]["nodes_built"].get<uint64_t>(), c.sizes[p]) << "partition " << p;
      EXPECT_GT(parts[p]["peak_rss_MiB"].get<double>(), 0) << "partition " << p;
      total += parts[p]["nodes_built"].get<uint64_t>();
    }
    EXPECT_EQ(total, 64u);
    Json expected = model_part(seq.report);
    // The partitioning parameters differ from the sequential run's: compare the rest.
    Json got = model_part(par.report);
    for (Json* r : {&expected, &got}) {
      (*r)["params"].erase("torus.partition.axis");
      (*r)["params"].erase("torus.partition.scheme");
      r->erase("overrides");
    }
    EXPECT_EQ(node_groups(got), node_groups(expected));
    EXPECT_EQ(expected, got) << "reports differ";
    EXPECT_EQ(seq.stats_csv, par.stats_csv) << "statistics CSVs differ";
  }
}

// Nodes share their parameters (torus.node.*): set on the command line, they apply in every
// partition, where its nodes are built. Two cores per node: no node of any partition has a
// third, and every report figure is the sequential run's.
TEST(ParallelElaboration, ANodeParameterAppliesInEveryPartition) {
  const std::string args = kSmall + "--set torus.node.cores=2 --set torus.node.dma.clock=500e6 ";
  const Outputs seq = run(args, 0);
  ASSERT_FALSE(seq.report.is_null());
  const Outputs par = run(args, 4);
  ASSERT_FALSE(par.report.is_null());
  EXPECT_EQ(model_part(seq.report), model_part(par.report)) << "reports differ";
  const Json& stats = par.report["stats"];
  for (const char* node : {"torus.x0y0z0", "torus.x3y3z3"}) {  // partitions 0 and 3
    EXPECT_TRUE(stats.contains(std::string(node) + ".core1")) << node;
    EXPECT_FALSE(stats.contains(std::string(node) + ".core2")) << node;
  }
  EXPECT_EQ(par.report["params"]["torus.node.cores"], 2);
}

// The memory budget is checked for the nodes a process builds: a limit the whole 4x4x4
// machine exceeds (64 nodes at 64 KiB) but half of it does not.
TEST(ParallelElaboration, TheMemoryBudgetCountsThisProcesssNodes) {
  const std::string args = kSmall + "--set sim.memory_limit=3145728";
  const std::string report = temp_path("budget.json");
  const CliResult one = run_shell(hybridsim_bin() + " run " + args + " 2>&1");
  EXPECT_EQ(one.code, 2) << one.output;
  EXPECT_NE(one.output.find("the 4x4x4 torus (64 nodes)"), std::string::npos) << one.output;
  const CliResult two =
      run_shell(mpirun(2) + hybridsim_bin() + " run " + args + " --report " + report + " 2>&1");
  EXPECT_EQ(two.code, 0) << two.output;
  if (two.code == 0) {
    const Json r = Json::parse(file_text(report));
    EXPECT_GT(r["results"]["packets_delivered"].get<double>(), 0);
  }
}
