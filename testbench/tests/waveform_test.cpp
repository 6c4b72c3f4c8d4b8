// Waveforms as a reader gets them: VCD or FST, scopes that follow the module hierarchy, torus
// nodes chosen by coordinates, the RTL counter banks' registers under their node, and the
// GTKWave save and translate files beside the waveform.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testbench/support/cli_run.h"
#include "tlm/trace/vcd_merge.h"

namespace fs = std::filesystem;
using hs::testing::file_text;
using hs::testing::hybridsim;

using hs::testing::without_sanitizer_notices;

namespace {

std::string tmp(const std::string& name) {
  return hs::testing::temp_path(name);
}

// What a VCD declares: every scope path and every signal's full name as GTKWave lists it
// (scopes, reference and range: "torus.x0y0z0.core0.state[31:0]").
struct Declared {
  std::set<std::string> scopes, signals;
  std::vector<std::string> scope_names;  // each $scope's own name
  std::vector<uint64_t> times;
};

Declared declared(const std::string& vcd_text) {
  Declared d;
  std::istringstream in(vcd_text);
  std::vector<std::string> path;
  auto joined = [&] {
    std::string s;
    for (const auto& p : path) s += (s.empty() ? "" : ".") + p;
    return s;
  };
  // One command or value per line, as every writer here puts them.
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string w;
    if (!(words >> w)) continue;
    if (w == "$scope") {
      std::string type, name;
      words >> type >> name;
      path.push_back(name);
      d.scope_names.push_back(name);
      d.scopes.insert(joined());
    } else if (w == "$upscope") {
      path.pop_back();
    } else if (w == "$var") {
      std::string type, width, code, ref, range;
      words >> type >> width >> code >> ref >> range;
      d.signals.insert(joined() + "." + ref + (range == "$end" ? "" : range));
    } else if (w[0] == '#' && line.find(' ') == std::string::npos) {
      d.times.push_back(std::stoull(w.substr(1)));
    }
  }
  return d;
}

// The nodes whose signals a torus waveform holds ("x0y0z0", ...).
std::set<std::string> traced_nodes(const Declared& d) {
  std::set<std::string> nodes;
  for (const auto& s : d.scopes) {
    if (s.rfind("torus.", 0) == 0 && s.find('.', 6) == std::string::npos) {
      nodes.insert(s.substr(6));
    }
  }
  return nodes;
}

const std::string kSmallTorus =
    " --set torus.network.x=2 --set torus.network.y=2 --set torus.network.z=2 "
    "--set workload.hops=1";

}  // namespace

TEST(Waveform, FstIsWrittenAndReadsBackWithTheSameSignals) {
  const std::string fst = tmp("run.fst"), vcd = tmp("run.vcd");
  auto r = hybridsim("run default --quiet --vcd " + fst);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(without_sanitizer_notices(r.output), "") << "--quiet printed something";
  // An FST file opens with its header block (type 0), and fst2vcd reads it back.
  const std::string bytes = file_text(fst);
  ASSERT_GT(bytes.size(), 100u);
  EXPECT_EQ(bytes[0], '\0');
  auto back = hs::testing::run_shell("fst2vcd " + fst);
  ASSERT_EQ(back.code, 0) << back.output;
  ASSERT_EQ(hybridsim("run default --quiet --vcd " + vcd).code, 0);
  const Declared from_fst = declared(back.output), from_vcd = declared(file_text(vcd));
  EXPECT_EQ(from_fst.signals, from_vcd.signals);
  EXPECT_TRUE(from_fst.signals.count("node0.acc0.ppe.state[31:0]"));
  EXPECT_EQ(from_fst.times.back(), from_vcd.times.back());
  // The intermediate VCD files are gone.
  for (const auto& e : fs::directory_iterator(fs::path(fst).parent_path())) {
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }
}

TEST(Waveform, ScopesFollowTheModuleHierarchy) {
  const std::string vcd = tmp("tree.vcd");
  ASSERT_EQ(hybridsim("run default --quiet --vcd " + vcd).code, 0);
  const Declared d = declared(file_text(vcd));
  for (const auto& name : d.scope_names) {
    EXPECT_EQ(name.find('.'), std::string::npos) << "a dotted scope: " << name;
  }
  for (const char* scope : {"node0", "node0.acc0", "node0.acc0.spe3", "node0.acc0.spe3.mfc"}) {
    EXPECT_TRUE(d.scopes.count(scope)) << scope;
  }
  EXPECT_FALSE(d.scopes.count("SystemC")) << "the kernel's wrapper scope is left out";
  EXPECT_TRUE(d.signals.count("node0.acc0.spe3.mfc.queue_depth[63:0]"));
}

TEST(Waveform, RtlCounterRegistersSitUnderTheirNodeInTheSameFile) {
  const std::string vcd = tmp("cosim.vcd");
  auto r = hybridsim("run torus_pingpong --quiet --set torus.node.dma.counters=rtl" + kSmallTorus +
                     " --set 'torus.trace_nodes=0,0,0' --vcd " + vcd);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(without_sanitizer_notices(r.output), "") << "--quiet printed something";
  const Declared d = declared(file_text(vcd));
  const std::string bank = "torus.x0y0z0.dma.rec_counters.dma_counter_bank_cosim";
  EXPECT_TRUE(d.signals.count(bank + ".clk"));
  EXPECT_TRUE(d.signals.count(bank + ".irq[3:0]"));
  // Every counter's registers, the arrays included.
  for (int i : {0, 17, 255}) {
    for (const char* reg : {"value_q", "base_q", "max_q"}) {
      EXPECT_TRUE(d.signals.count(bank + ".bank." + reg + "[" + std::to_string(i) + "][31:0]"))
          << reg << "[" << i << "]";
    }
  }
  EXPECT_TRUE(d.signals.count(bank + ".bank.hit_zero_q[255:0]"));
  EXPECT_TRUE(
      d.signals.count("torus.x0y0z0.dma.inj_counters.dma_counter_bank_cosim.bank.value_q["
                      "63][31:0]"));
  // No file of its own beside the waveform any more.
  for (const auto& e : fs::directory_iterator(fs::path(vcd).parent_path())) {
    EXPECT_EQ(e.path().filename().string().find("cosim.torus"), std::string::npos) << e.path();
  }
  // One timeline: times only go forward.
  for (size_t i = 1; i < d.times.size(); ++i) ASSERT_LT(d.times[i - 1], d.times[i]) << i;
}

TEST(Waveform, TorusNodesAreChosenByCoordinates) {
  const std::string vcd = tmp("chosen.vcd");
  auto r = hybridsim("run torus_pingpong --quiet --set torus.node.dma.counters=rtl" + kSmallTorus +
                     " --set 'torus.trace_nodes=1,0,0; 0-1,1,1' --vcd " + vcd);
  ASSERT_EQ(r.code, 0) << r.output;
  const Declared d = declared(file_text(vcd));
  EXPECT_EQ(traced_nodes(d), (std::set<std::string>{"x1y0z0", "x0y1z1", "x1y1z1"}));
  EXPECT_TRUE(d.scopes.count("torus.x1y1z1.dma.inj_counters"));
  // The default: the x row through the origin; '*' and 'all' reach every node.
  ASSERT_EQ(hybridsim("run torus_pingpong --quiet" + kSmallTorus + " --vcd " + vcd).code, 0);
  EXPECT_EQ(traced_nodes(declared(file_text(vcd))), (std::set<std::string>{"x0y0z0", "x1y0z0"}));
  ASSERT_EQ(hybridsim("run torus_pingpong --quiet" + kSmallTorus +
                      " --set 'torus.trace_nodes=*,*,1' --vcd " + vcd)
                .code,
            0);
  EXPECT_EQ(traced_nodes(declared(file_text(vcd))),
            (std::set<std::string>{"x0y0z1", "x1y0z1", "x0y1z1", "x1y1z1"}));
  ASSERT_EQ(hybridsim("run torus_pingpong --quiet" + kSmallTorus +
                      " --set torus.trace_nodes=all --vcd " + vcd)
                .code,
            0);
  EXPECT_EQ(traced_nodes(declared(file_text(vcd))).size(), 8u);
}

TEST(Waveform, BadNodeSelectionsAreRefusedBeforeTheRunWithTheReason) {
  const std::string vcd = tmp("kept.vcd");
  std::ofstream(vcd) << "precious\n";
  const std::map<std::string, std::string> cases = {
      {"2,0,0", "x = 2 in '2,0,0' is outside the 2x2x2 torus (x is 0..1)"},
      {"0,0", "'0,0' is not a node: write nodes as x,y,z"},
      {"0,a,0", "'a' in '0,a,0' is not a coordinate"},
      {"1-0,0,0", "the range x = 1-0 in '1-0,0,0' runs backwards"},
      {"0,0,0;;1,0,0", "an empty node (a stray ';')"},
      {"0,0,-1", "'-1' in '0,0,-1' is not a coordinate"},
  };
  for (const auto& [value, why] : cases) {
    auto r = hybridsim("run torus_pingpong" + kSmallTorus + " --set 'torus.trace_nodes=" + value +
                       "' --vcd " + vcd);
    EXPECT_EQ(r.code, 2) << value << "\n" << r.output;
    EXPECT_NE(r.output.find("parameter 'torus.trace_nodes' = '" + value + "': " + why),
              std::string::npos)
        << r.output;
  }
  EXPECT_EQ(file_text(vcd), "precious\n");
  EXPECT_FALSE(fs::exists(tmp("kept.gtkw")));
}

TEST(Waveform, SaveFileOpensTheWaveformWithExistingSignalsAndNamedStates) {
  const std::string vcd = tmp("saved.vcd");
  auto r = hybridsim("run torus_pingpong --quiet --set torus.node.dma.counters=rtl" + kSmallTorus +
                     " --vcd " + vcd);
  ASSERT_EQ(r.code, 0) << r.output;
  const Declared d = declared(file_text(vcd));
  const std::string save = file_text(tmp("saved.gtkw"));
  ASSERT_NE(save, "");
  EXPECT_NE(save.find("[dumpfile] \"" + fs::absolute(vcd).string() + "\""), std::string::npos);
  std::istringstream lines(save);
  std::string line, flags;
  std::set<std::string> listed, groups, filters;
  std::map<std::string, std::string> filter_of;
  std::string pending_filter;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '[') continue;
    if (line[0] == '@') {
      flags = line.substr(1);
    } else if (line[0] == '-') {
      groups.insert(line.substr(1));
    } else if (line[0] == '^') {
      pending_filter = line.substr(line.find(' ') + 1);
      filters.insert(pending_filter);
    } else {
      EXPECT_TRUE(d.signals.count(line))
          << "the save file names a signal not in the file: " << line;
      listed.insert(line);
      filter_of[line] = flags == "2024" ? pending_filter : "";
    }
  }
  // Grouped by component: each node, each RTL bank.
  for (const char* g : {"torus.x0y0z0", "torus.x1y0z0", "torus.x0y0z0.dma.rec_counters"}) {
    EXPECT_TRUE(groups.count(g)) << g;
  }
  EXPECT_TRUE(listed.count("torus.x0y0z0.dma.inj_counters.dma_counter_bank_cosim.clk"));
  // Core states through the translate file, which names every state.
  const std::string state = "torus.x1y0z0.core0.state[31:0]";
  ASSERT_TRUE(listed.count(state));
  ASSERT_EQ(filters.size(), 1u);
  EXPECT_EQ(filter_of[state], *filters.begin());
  EXPECT_EQ(*filters.begin(), fs::absolute(tmp("saved.core_state.txt")).string());
  const std::string names = file_text(*filters.begin());
  for (const char* entry :
       {"\n0 idle\n", "\n1 compute\n", "\n2 mem_stall\n", "\n3 wait_irq\n", "\n4 done\n"}) {
    EXPECT_NE(names.find(entry), std::string::npos) << entry;
  }
}

TEST(Waveform, FstWithoutVcd2fstIsRefusedBeforeTheRunAndTheFileKept) {
  const std::string fst = tmp("kept.fst");
  std::ofstream(fst) << "precious\n";
  // PATH for hybridsim alone: the shell itself is found first.
  auto r = hs::testing::run_shell("env PATH=/nonexistent " + hs::testing::hybridsim_bin() +
                                  " run default --quiet --vcd " + fst + " 2>&1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--vcd: writing '" + fst + "' needs vcd2fst (Debian package gtkwave)"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(file_text(fst), "precious\n");
}

TEST(Waveform, MergeInterleavesWritersAndNestsDottedNames) {
  const std::string a = hs::testing::write_temp_file(
      "a.vcd",
      "$timescale 1 ps $end\n$scope module SystemC $end\n$scope module top $end\n"
      "$var wire 8 aa count [7:0] $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n"
      "$dumpvars\nb0 aa\n$end\n#10\nb1 aa\n#30\nb10 aa\n");
  const std::string b = hs::testing::write_temp_file(
      "b.vcd",
      "$timescale 1ns $end\n$scope module top.blk $end\n$var wire 1 ! clk $end\n"
      "$var wire 1 ! clk_alias $end\n$var wire 4 # bus $end\n$upscope $end\n"
      "$enddefinitions $end\n#0\n0!\nb0 #\n#0\n1!\n#1\nb101 #\n");
  const std::string out = tmp("merged.vcd");
  const auto signals = hs::merge_vcd({{a, "SystemC"}, {b, ""}}, out);
  const std::string text = file_text(out);
  const Declared d = declared(text);
  EXPECT_EQ(d.signals, (std::set<std::string>{"top.count[7:0]", "top.blk.clk", "top.blk.clk_alias",
                                              "top.blk.bus[3:0]"}));
  EXPECT_EQ(d.times, (std::vector<uint64_t>{0, 10, 30, 1000}));
  // Each writer's codes become the merged file's own, numbered in the header's order; aliases
  // stay aliases; a time step lists its changes in that order.
  const auto body = text.substr(text.find("$enddefinitions"));
  EXPECT_NE(body.find("#0\nb0 !\n0\"\n1\"\nb0 #\n#10\nb1 !\n#30\nb10 !\n#1000\nb101 #\n"),
            std::string::npos)
      << body;
  ASSERT_EQ(signals.size(), 4u);
  EXPECT_EQ(signals[0].scope, "top");
  EXPECT_EQ(signals[1].scope, "top.blk");
  EXPECT_TRUE(signals[0].changes);
  EXPECT_TRUE(signals[1].changes);
  EXPECT_EQ(signals[3].source, 1u);
  EXPECT_EQ(signals[3].depth, 1);
}

TEST(Waveform, AFailedConversionLeavesTheOldFileAndNothingElse) {
  const std::string dir = tmp("failing");
  fs::create_directories(dir + "/bin");
  const std::string tool = dir + "/bin/vcd2fst", fst = dir + "/old.fst";
  std::ofstream(tool) << "#!/bin/sh\necho 'cannot convert' >&2\nexit 1\n";
  fs::permissions(tool, fs::perms::owner_all);
  std::ofstream(fst) << "precious\n";
  auto r = hs::testing::run_shell("env PATH=" + dir + "/bin:$PATH " + hs::testing::hybridsim_bin() +
                                  " run default --quiet --vcd " + fst + " 2>&1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--vcd: cannot write '" + fst + "': vcd2fst failed: cannot convert"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(file_text(fst), "precious\n");
  std::set<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.insert(e.path().filename().string());
  EXPECT_EQ(left, (std::set<std::string>{"bin", "old.fst"}));
}
