// Transaction traces against the Trace Event Format's rules, on runs of the built-in
// scenarios: complete spans nest per thread, B/E pairs nest per thread, every async begin pairs
// with exactly one end, counters are numeric, every named thread has events, and each
// component that moves data shows up with its kind of track.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "testbench/runner/simulation.h"
#include "testbench/support/scenario_run.h"

using Json = nlohmann::json;

namespace {

// Picoseconds: the trace's microseconds, compared without floating-point slack.
int64_t ps(const Json& us) {
  return std::llround(us.get<double>() * 1e6);
}

struct Traced {
  std::map<std::string, size_t> kinds;  // component kind -> events
  size_t events = 0;
};

// A component kind from an event and the thread it is on ("" for none we name).
std::string kind_of(const Json& e, const std::string& thread) {
  const std::string ph = e["ph"], name = e["name"];
  auto starts = [](const std::string& s, const char* p) { return s.rfind(p, 0) == 0; };
  auto ends = [](const std::string& s, const std::string& p) {
    return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
  };
  if (ph == "C") {
    if (starts(name, "link ") && ends(name, " buffer")) return "torus VC buffer counter";
    if (starts(name, "injection fifo")) return "torus injection FIFO counter";
    if (starts(name, "dma.") && name.find(" counter ") != std::string::npos) {
      return "torus DMA counter value";
    }
    if (ends(name, "mfc.queue")) return "MFC queue counter";
    return "";
  }
  if (ph == "X" && name == "packet" && starts(thread, "link ")) return "torus link";
  if (ph == "X" && starts(thread, "dma.injection fifo")) return "torus DMA descriptor";
  if (ph == "b" && starts(thread, "eib.ring")) return "EIB";
  if (ph == "b" && ends(thread, ".mfc")) return "MFC";
  if (ph == "X" && starts(thread, "pcie")) return "PCIe";
  if (ph == "X" && starts(thread, "eth")) return "Ethernet";
  if (ph == "X" && thread == "dma") return "DMA engine";
  if (ph == "b" && starts(name, "dcmf ")) return "DCMF protocol";
  if (ph == "b" && starts(name, "ami ")) return "AMI protocol";
  if (ph == "b" && starts(name, "slmpm ")) return "SLMPM protocol";
  if (ph == "X" && (starts(thread, "core") || thread == "ppe" || ends(thread, ".spu"))) {
    return "core phase";
  }
  return "";
}

// Checks every rule (failures are test failures) and counts events by component kind.
Traced check_trace(const std::string& path) {
  Traced out;
  std::ifstream in(path);
  const Json trace = Json::parse(in);  // throws unless the file is complete JSON
  const Json& events = trace.at("traceEvents");
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
  for (const Json& e : events) {
    EXPECT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("name")) << e.dump();
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") {
      EXPECT_TRUE(processes.emplace(e["pid"].get<int>(), e["args"]["name"]).second) << e.dump();
    } else if (e["name"] == "thread_name") {
      EXPECT_TRUE(
          threads.emplace(std::pair{e["pid"].get<int>(), e["tid"].get<int>()}, e["args"]["name"])
              .second)
          << "a thread named twice: " << e.dump();
    }
  }
  std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> spans;  // X, per thread
  std::map<std::pair<int, int>, std::vector<const Json*>> be;                     // B/E
  // (pid, cat, name, id) -> begins, ends, begin time, end time
  std::map<std::tuple<int, std::string, std::string, std::string>, std::array<int64_t, 4>> async;
  std::map<std::pair<int, int>, size_t> thread_events;
  for (const Json& e : events) {
    const std::string ph = e["ph"];
    if (ph == "M") continue;
    ++out.events;
    const int pid = e["pid"];
    EXPECT_TRUE(processes.count(pid)) << "event in an unnamed process: " << e.dump();
    std::string thread;
    if (ph != "C") {
      const std::pair<int, int> key{pid, e.at("tid").get<int>()};
      EXPECT_TRUE(threads.count(key)) << "event on an unnamed thread: " << e.dump();
      thread = threads[key];
      ++thread_events[key];
    }
    const int64_t ts = ps(e.at("ts"));
    EXPECT_GE(ts, 0) << e.dump();
    if (ph == "X") {
      const int64_t dur = ps(e.at("dur"));
      EXPECT_GE(dur, 0) << e.dump();
      spans[{pid, e["tid"].get<int>()}].emplace_back(ts, ts + dur);
    } else if (ph == "B" || ph == "E") {
      be[{pid, e["tid"].get<int>()}].push_back(&e);
    } else if (ph == "b" || ph == "e") {
      auto& a = async[{pid, e.value("cat", ""), e["name"], e.at("id").dump()}];
      ++a[ph == "b" ? 0 : 1];
      a[ph == "b" ? 2 : 3] = ts;
    } else if (ph == "C") {
      EXPECT_FALSE(e.at("args").empty()) << e.dump();
      for (const auto& [k, v] : e["args"].items()) EXPECT_TRUE(v.is_number()) << e.dump();
    } else {
      EXPECT_EQ(ph, "i") << e.dump();
    }
    const std::string kind = kind_of(e, thread);
    if (!kind.empty()) ++out.kinds[kind];
  }
  for (const auto& [key, name] : threads) {
    EXPECT_GT(thread_events[key], 0u) << "thread '" << name << "' has no events";
  }
  // Complete spans on one thread nest: each starts after the enclosing one and ends within it.
  for (auto& [key, list] : spans) {
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<int64_t> open;  // ends of the enclosing spans
    for (const auto& [b, e] : list) {
      while (!open.empty() && open.back() <= b) open.pop_back();
      if (!open.empty()) {
        EXPECT_LE(e, open.back()) << "spans overlap without nesting on '" << threads[key] << "' at "
                                  << b << " ps";
      }
      open.push_back(e);
    }
  }
  // B/E: in file order per thread (their timestamps never decrease), each E closes the last B.
  for (const auto& [key, list] : be) {
    std::vector<const Json*> open;
    int64_t last = 0;
    for (const Json* e : list) {
      EXPECT_GE(ps((*e)["ts"]), last) << e->dump();
      last = ps((*e)["ts"]);
      if ((*e)["ph"] == "B") {
        open.push_back(e);
      } else if (open.empty()) {
        ADD_FAILURE() << "E without B: " << e->dump();
      } else {
        open.pop_back();
      }
    }
    EXPECT_TRUE(open.empty()) << "B without E on '" << threads[key] << "'";
  }
  for (const auto& [key, a] : async) {
    const auto& [pid, cat, name, id] = key;
    EXPECT_EQ(a[0], 1) << name << " id " << id << " (" << cat << ") begins " << a[0] << " times";
    EXPECT_EQ(a[1], 1) << name << " id " << id << " (" << cat << ") ends " << a[1] << " times";
    EXPECT_LE(a[2], a[3]) << name << " id " << id << " ends before it begins";
  }
  return out;
}

// Runs a scenario with tracing, checks the trace, and returns what it held.
Traced traced_run(const std::string& scenario, const std::vector<std::string>& sets) {
  hs::runner::RunOptions o;
  o.scenario = scenario;
  o.sets = sets;
  o.quiet = true;
  o.trace_path = ::testing::TempDir() + "trace_format_" + scenario + "_trace.json";
  const Json report = hs::testing::run_scenario(o);
  if (!hs::testing::passed(report)) {
    ADD_FAILURE() << hs::testing::violations(report);
    return {};
  }
  Traced t = check_trace(o.trace_path);
  std::string seen;
  for (const auto& [kind, n] : t.kinds) seen += "\n  " + kind + ": " + std::to_string(n);
  std::cout << scenario << ": " << t.events << " events" << seen << "\n";
  return t;
}

void expect_kinds(const Traced& t, const std::vector<std::string>& kinds) {
  for (const auto& k : kinds) EXPECT_GT(t.kinds.count(k) ? t.kinds.at(k) : 0, 0u) << k;
}

}  // namespace

TEST(TraceFormat, HybridNodeDefaultScenario) {
  expect_kinds(traced_run("default", {}),
               {"PCIe", "Ethernet", "EIB", "MFC", "MFC queue counter", "core phase"});
}

TEST(TraceFormat, CellDmaStreams) {
  expect_kinds(traced_run("cell_dma", {"workload.spes=4", "workload.bytes_per_spe=1MiB"}),
               {"EIB", "MFC", "MFC queue counter", "core phase"});
}

TEST(TraceFormat, SlmpmMessages) {
  expect_kinds(traced_run("slmpm_messages", {"workload.messages=24", "workload.max_bytes=64KiB"}),
               {"PCIe", "SLMPM protocol", "DMA engine", "core phase"});
}

TEST(TraceFormat, TorusTrafficOnASmallTorus) {
  expect_kinds(traced_run("torus_traffic", {"torus.network.x=4", "torus.network.y=4",
                                            "torus.network.z=4", "workload.duration=4000"}),
               {"torus link", "torus VC buffer counter", "torus injection FIFO counter"});
}

TEST(TraceFormat, TorusAmi) {
  expect_kinds(traced_run("torus_ami", {}),
               {"torus link", "torus VC buffer counter", "torus injection FIFO counter",
                "torus DMA descriptor", "torus DMA counter value", "AMI protocol"});
}

TEST(TraceFormat, TorusPingPong) {
  expect_kinds(traced_run("torus_pingpong", {"torus.network.x=4", "torus.network.y=4",
                                             "torus.network.z=4", "workload.hops=2"}),
               {"torus link", "torus DMA descriptor", "torus DMA counter value", "DCMF protocol",
                "core phase"});
}

// A window and a track pattern still leave a trace that keeps every rule: async spans cut by
// the window are dropped whole.
TEST(TraceFormat, LimitedTraceKeepsTheRules) {
  hs::runner::RunOptions o;
  o.scenario = "torus_ami";
  o.quiet = true;
  o.trace_path = ::testing::TempDir() + "trace_format_" + "limited_trace.json";
  o.trace_start = "100us";
  o.trace_end = "600us";
  o.trace_only = "torus.n0.*";
  const Json report = hs::testing::run_scenario(o);
  ASSERT_TRUE(hs::testing::passed(report)) << hs::testing::violations(report);
  const Traced t = check_trace(o.trace_path);
  EXPECT_GT(t.events, 0u);
}
