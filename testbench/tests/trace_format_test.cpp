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
#include "testbench/support/temp_path.h"

using Json = nlohmann::json;

namespace {

// Picoseconds: the trace's microseconds, compared without floating-point slack.
int64_t ps(const Json& us) {
  return std::llround(us.get<double>() * 1e6);
}

struct Traced {
  std::map<std::string, size_t> kinds;  // component kind -> events
  std::map<std::string, size_t> spans;  // span name -> complete spans ("X")
  size_t events = 0;
  std::vector<std::string> problems;  // rules broken
  size_t spans_named(const std::string& name) const {
    const auto it = spans.find(name);
    return it == spans.end() ? 0 : it->second;
  }
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
    if (starts(name, "router injection queue")) return "torus injection FIFO counter";
    if (starts(name, "dma.") && name.find(" counter ") != std::string::npos) {
      return "torus DMA counter value";
    }
    if (starts(name, "dma.") && ends(name, " occupancy")) return "torus DMA FIFO occupancy";
    if (ends(name, "mfc.queue")) return "MFC queue counter";
    return "";
  }
  if (ph == "X" && name == "packet" && starts(thread, "link ")) return "torus link";
  if (ph == "X" && starts(thread, "dma.injection fifo")) return "torus DMA descriptor";
  if (ph == "b" && starts(thread, "eib.ring")) return "EIB";
  if (ph == "b" && ends(thread, ".mfc")) return "MFC";
  if (ph == "X" && starts(thread, "pcie")) return "PCIe";
  if (ph == "X" && starts(thread, "eth")) return "Ethernet";
  if (ph == "b" && thread == "dma") return "DMA engine";  // pipelined requests overlap
  if (ph == "b" && starts(name, "dcmf ")) return "DCMF protocol";
  if (ph == "b" && starts(name, "ami ")) return "AMI protocol";
  if (ph == "b" && starts(name, "slmpm ")) return "SLMPM protocol";
  if (ph == "X" && (starts(thread, "core") || thread == "ppe" || ends(thread, ".spu"))) {
    return "core phase";
  }
  return "";
}

// Checks every rule, listing what breaks one, and counts events by component kind.
Traced check_events(const Json& trace) {
  Traced out;
  auto rule = [&out](bool ok, const std::string& what) {
    if (!ok && out.problems.size() < 20) out.problems.push_back(what);  // enough to see why
  };
  const Json& events = trace.at("traceEvents");
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
  for (const Json& e : events) {
    rule(e.contains("ph") && e.contains("pid") && e.contains("name"),
         "an event without ph, pid or name: " + e.dump());
    if (e.value("ph", "") != "M") continue;
    if (e["name"] == "process_name") {
      rule(processes.emplace(e["pid"].get<int>(), e["args"]["name"]).second,
           "a process named twice: " + e.dump());
    } else if (e["name"] == "thread_name") {
      rule(threads.emplace(std::pair{e["pid"].get<int>(), e["tid"].get<int>()}, e["args"]["name"])
               .second,
           "a thread named twice: " + e.dump());
    }
  }
  std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> spans;  // X, per thread
  std::map<std::pair<int, int>, std::vector<const Json*>> be;                     // B/E
  // (pid, cat, name, id) -> begins, ends, begin time, end time
  std::map<std::tuple<int, std::string, std::string, std::string>, std::array<int64_t, 4>> async;
  std::map<std::pair<int, int>, size_t> thread_events;
  for (const Json& e : events) {
    const std::string ph = e.value("ph", "");
    if (ph == "M") continue;
    ++out.events;
    const int pid = e.value("pid", -1);
    rule(processes.count(pid), "an event in an unnamed process: " + e.dump());
    std::string thread;
    if (ph != "C") {
      const std::pair<int, int> key{pid, e.value("tid", -1)};
      rule(threads.count(key), "an event on an unnamed thread: " + e.dump());
      thread = threads[key];
      ++thread_events[key];
    }
    const int64_t ts = ps(e.at("ts"));
    rule(ts >= 0, "a negative time: " + e.dump());
    if (ph == "X") {
      const int64_t dur = ps(e.at("dur"));
      rule(dur >= 0, "a negative duration: " + e.dump());
      spans[{pid, e["tid"].get<int>()}].emplace_back(ts, ts + dur);
      ++out.spans[e["name"].get<std::string>()];
    } else if (ph == "B" || ph == "E") {
      be[{pid, e["tid"].get<int>()}].push_back(&e);
    } else if (ph == "b" || ph == "e") {
      auto& a = async[{pid, e.value("cat", ""), e["name"], e.value("id", Json()).dump()}];
      ++a[ph == "b" ? 0 : 1];
      a[ph == "b" ? 2 : 3] = ts;
    } else if (ph == "C") {
      rule(e.contains("args") && !e["args"].empty(), "a counter without a value: " + e.dump());
      if (e.contains("args")) {
        for (const auto& [k, v] : e["args"].items()) {
          rule(v.is_number(), "a counter value that is not a number: " + e.dump());
        }
      }
    } else {
      rule(ph == "i", "an event of an unexpected kind: " + e.dump());
    }
    const std::string kind = kind_of(e, thread);
    if (!kind.empty()) ++out.kinds[kind];
  }
  for (const auto& [key, name] : threads) {
    rule(thread_events[key] > 0, "thread '" + name + "' has no events");
  }
  // Complete spans on one thread nest: each starts after the enclosing one and ends within it.
  for (auto& [key, list] : spans) {
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<int64_t> open;  // ends of the enclosing spans
    for (const auto& [b, e] : list) {
      while (!open.empty() && open.back() <= b) open.pop_back();
      rule(open.empty() || e <= open.back(), "spans overlap without nesting on '" + threads[key] +
                                                 "' at " + std::to_string(b) + " ps");
      open.push_back(e);
    }
  }
  // B/E: in file order per thread (their timestamps never decrease), each E closes the last B.
  for (const auto& [key, list] : be) {
    size_t open = 0;
    int64_t last = 0;
    for (const Json* e : list) {
      rule(ps((*e)["ts"]) >= last, "B/E out of order: " + e->dump());
      last = ps((*e)["ts"]);
      if ((*e)["ph"] == "B") {
        ++open;
      } else {
        rule(open > 0, "an E without its B: " + e->dump());
        open -= open > 0;
      }
    }
    rule(open == 0, "a B without its E on '" + threads[key] + "'");
  }
  for (const auto& [key, a] : async) {
    const auto& [pid, cat, name, id] = key;
    const std::string span = name + " id " + id + " (" + cat + ")";
    rule(a[0] == 1, span + " begins " + std::to_string(a[0]) + " times");
    rule(a[1] == 1, span + " ends " + std::to_string(a[1]) + " times");
    rule(a[2] <= a[3], span + " ends before it begins");
  }
  return out;
}

Traced check_trace(const std::string& path) {
  std::ifstream in(path);
  Traced t = check_events(Json::parse(in));  // throws unless the file is complete JSON
  for (const auto& p : t.problems) ADD_FAILURE() << path << ": " << p;
  return t;
}

// Runs a scenario with tracing, checks the trace, and returns what it held.
Traced traced_run(const std::string& scenario, const std::vector<std::string>& sets) {
  hs::runner::RunOptions o;
  o.scenario = scenario;
  o.sets = sets;
  o.quiet = true;
  o.trace_path = hs::testing::temp_path(scenario + "_trace.json");
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
                "torus DMA descriptor", "torus DMA counter value", "torus DMA FIFO occupancy",
                "AMI protocol"});
}

TEST(TraceFormat, TorusPingPong) {
  expect_kinds(traced_run("torus_pingpong", {"torus.network.x=4", "torus.network.y=4",
                                             "torus.network.z=4", "workload.hops=2"}),
               {"torus link", "torus DMA descriptor", "torus DMA counter value", "DCMF protocol",
                "core phase"});
}

// A program's statements are spans named by file and line on their rank's core track: 4 ranks
// run ring.txt's 8 iterations of irecv, isend, wait, wait and compute.
TEST(TraceFormat, ProgramStatementsAreSpansNamedByLine) {
  const Traced t =
      traced_run("program_ring", {"torus.network.x=2", "torus.network.y=2", "torus.network.z=1"});
  for (const char* s : {"ring.txt:15 wait", "ring.txt:16 wait", "ring.txt:17 compute"}) {
    EXPECT_EQ(t.spans_named(s), 4u * 8u) << s;
  }
  // Even ranks post the receive on line 9, odd ranks on line 13.
  EXPECT_EQ(t.spans_named("ring.txt:9 irecv"), 2u * 8u);
  EXPECT_EQ(t.spans_named("ring.txt:13 irecv"), 2u * 8u);
  EXPECT_EQ(t.spans_named("program iteration"), 4u * 8u);
}

// A window and a track pattern still leave a trace that keeps every rule: async spans cut by
// the window are dropped whole.
TEST(TraceFormat, LimitedTraceKeepsTheRules) {
  hs::runner::RunOptions o;
  o.scenario = "torus_ami";
  o.quiet = true;
  o.trace_path = hs::testing::temp_path("limited_trace.json");
  o.trace_start = "100us";
  o.trace_end = "600us";
  o.trace_only = "torus.x0y0z0.*";
  const Json report = hs::testing::run_scenario(o);
  ASSERT_TRUE(hs::testing::passed(report)) << hs::testing::violations(report);
  const Traced t = check_trace(o.trace_path);
  EXPECT_GT(t.events, 0u);
}

// The checker itself: each rule it enforces fires on a trace that breaks it, among them the
// old MFC defect (two components' async spans sharing an id, one process for all).
TEST(TraceFormat, TheCheckerCatchesEveryBrokenRule) {
  const Json bad = Json::parse(R"({"traceEvents":[
    {"name":"process_name","ph":"M","pid":1,"args":{"name":"acc0"}},
    {"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"spe0.mfc"}},
    {"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"spe1.mfc"}},
    {"name":"thread_name","ph":"M","pid":1,"tid":3,"args":{"name":"idle"}},
    {"name":"GET","cat":"txn","ph":"b","id":3,"pid":1,"tid":1,"ts":1.0},
    {"name":"GET","cat":"txn","ph":"b","id":3,"pid":1,"tid":2,"ts":1.5},
    {"name":"GET","cat":"txn","ph":"e","id":3,"pid":1,"tid":1,"ts":2.0},
    {"name":"a","ph":"X","pid":1,"tid":1,"ts":1.0,"dur":2.0},
    {"name":"b","ph":"X","pid":1,"tid":1,"ts":2.0,"dur":2.0},
    {"name":"c","ph":"X","pid":1,"tid":2,"ts":1.0,"dur":-1.0},
    {"name":"B","ph":"B","pid":1,"tid":2,"ts":5.0},
    {"name":"q","ph":"C","pid":1,"ts":1.0,"args":{"depth":"three"}},
    {"name":"x","ph":"X","pid":2,"tid":9,"ts":1.0,"dur":1.0}
  ]})");
  const Traced t = check_events(bad);
  std::string all;
  for (const auto& p : t.problems) all += p + "\n";
  for (const char* expected :
       {"GET id 3 (txn) begins 2 times", "spans overlap without nesting on 'spe0.mfc'",
        "a negative duration", "a B without its E on 'spe1.mfc'",
        "a counter value that is not a number", "an event in an unnamed process",
        "an event on an unnamed thread", "thread 'idle' has no events"}) {
    EXPECT_NE(all.find(expected), std::string::npos) << expected << " not in:\n" << all;
  }
}
