#include "testbench/runner/report_text.h"

#include "testbench/runner/report_rows.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace hs::runner {

using Json = nlohmann::json;

namespace {

double num(const Json& g, const char* key) {
  auto it = g.find(key);
  return it != g.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string pct(double f) {
  return fmt::format("{:5.1f}%", 100 * f);
}

// Groups whose statistics have a given shape, with some activity.
template <class Fn>
void each_group(const Json& stats, const char* marker, Fn fn) {
  for (const auto& [path, g] : stats.items()) {
    if (g.contains(marker)) fn(path, g);
  }
}

// The rows of one component table. Rows with identical figures are folded into one, named by
// the pattern their paths share ('*' for the dotted parts that differ) and their count: a
// machine of identical nodes reads as one line, not one per node.
class FoldedRows {
 public:
  FoldedRows(std::string title, std::string columns)
      : title_(std::move(title)), columns_(std::move(columns)) {}
  void add(const std::string& path, const std::string& figures) {
    for (auto& row : rows_) {
      if (row.figures == figures) {
        row.paths.push_back(path);
        return;
      }
    }
    rows_.push_back({{path}, figures});
  }
  void write(std::ostream& out) const {
    if (rows_.empty()) return;
    out << fmt::format("\n{:<36}{}\n", title_, columns_);
    for (const auto& row : rows_) {
      const std::string name =
          row.paths.size() == 1
              ? row.paths[0]
              : fmt::format("{} ({} alike)", pattern(row.paths), row.paths.size());
      out << fmt::format("  {:<32} {}\n", name, row.figures);
    }
  }

 private:
  static std::vector<std::string> parts(const std::string& path) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t dot; (dot = path.find('.', from)) != std::string::npos; from = dot + 1) {
      out.push_back(path.substr(from, dot - from));
    }
    out.push_back(path.substr(from));
    return out;
  }
  static std::string pattern(const std::vector<std::string>& paths) {
    std::vector<std::string> common = parts(paths[0]);
    for (const auto& p : paths) {
      const auto each = parts(p);
      if (each.size() != common.size()) return paths[0] + ", ...";
      for (size_t i = 0; i < each.size(); ++i) {
        if (each[i] != common[i]) common[i] = "*";
      }
    }
    std::string out;
    for (const auto& c : common) out += (out.empty() ? "" : ".") + c;
    return out;
  }
  struct Row {
    std::vector<std::string> paths;
    std::string figures;
  };
  std::string title_, columns_;
  std::vector<Row> rows_;
};

// The torus network's aggregates and the DMA engines' totals (per-node figures are in the
// JSON report for small machines).
void write_torus(const Json& stats, std::ostream& out) {
  if (stats.contains("torus.network")) {
    const Json& n = stats["torus.network"];
    const double hops = num(n, "packet_hops");
    out << "\nTorus network\n";
    out << fmt::format("  packets delivered {:>12.0f}   of {:.0f} injected\n",
                       num(n, "packets_delivered"), num(n, "packets_injected"));
    out << fmt::format("  payload delivered {:>12}\n", human_bytes(num(n, "payload_delivered")));
    out << fmt::format("  link hops         {:>12.0f}   {:.1f}% on the bubble escape VC\n", hops,
                       hops > 0 ? 100 * num(n, "escape_hops") / hops : 0.0);
    if (n.contains("packet_latency") && n["packet_latency"].value("count", 0) > 0) {
      const Json& l = n["packet_latency"];
      out << fmt::format("  packet latency    mean {}   min {}   max {}\n",
                         human_time(num(l, "mean")), human_time(num(l, "min")),
                         human_time(num(l, "max")));
    }
    out << fmt::format("  link utilisation  mean {}   busiest {}   ({:.0f} links, whole run)\n",
                       pct(num(n, "link_utilisation")), pct(num(n, "link_utilisation_max")),
                       num(n, "links"));
    out << fmt::format("  waits             {:.0f} for buffer tokens, {:.0f} for a busy link\n",
                       num(n, "token_waits"), num(n, "link_waits"));
  }
  if (stats.contains("torus.dma") && num(stats["torus.dma"], "packets_sent") > 0) {
    const Json& d = stats["torus.dma"];
    out << "\nTorus DMA engines (all nodes)\n";
    out << fmt::format("  sent     {:>10.0f} packets  {}\n", num(d, "packets_sent"),
                       human_bytes(num(d, "bytes_sent")));
    out << fmt::format("  received {:>10.0f} packets  {}\n", num(d, "packets_received"),
                       human_bytes(num(d, "bytes_received")));
    out << fmt::format("  counter requests {:.0f}, {:.0f} delayed by a busy bank edge\n",
                       num(d, "counter_requests"), num(d, "counter_accesses_delayed"));
  }
}

}  // namespace

void write_end(const Json& r, std::ostream& out) {
  const double sim_ns = r["simulated_time_ns"].get<double>();
  const Json& end = r.value("end", Json::object());
  const std::string reason = end.value("reason", "finished");
  const std::string covered = fmt::format(
      "the figures below cover [0, {}]; figures over a window the run did not reach are "
      "marked \"not reached\", and checks of unfinished work are not run.",
      human_time(sim_ns));
  if (r.value("interrupted", false)) {
    out << fmt::format("Interrupted by {} at {}: {}\n", r.value("interrupted_by", "a signal"),
                       human_time(sim_ns), covered);
  } else if (reason == "stopped at sim.stop_at") {
    out << fmt::format("Stopped at {} (sim.stop_at) with work in progress: {}\n",
                       human_time(sim_ns), covered);
  } else if (reason == "stopped by sim.time_limit") {
    out << fmt::format(
        "Stopped at {} by the watchdog (sim.time_limit) with work left, a failure: {}\n",
        human_time(sim_ns), covered);
  }
}

void write_text_report(const Json& r, std::ostream& out, const ResultCatalogue* declared) {
  const Json& stats = r["stats"];
  const double sim_ns = r["simulated_time_ns"].get<double>();
  const double wall = r["run"]["wall_seconds"].get<double>();
  out << fmt::format("hybridsim {} | scenario {} | machine {} | workload {} | seed {}\n",
                     r["hybridsim"].get<std::string>(), r["scenario"].get<std::string>(),
                     r["machine"].get<std::string>(), r["workload"].get<std::string>(),
                     r["seed"].get<uint64_t>());
  // What ran: the workload's own account from its actual parameters, the scenario's
  // description, and what the command line changed in it.
  if (!r.value("summary", "").empty()) out << "  " << r["summary"].get<std::string>() << "\n";
  if (!r["description"].get<std::string>().empty()) {
    out << "  Scenario: " << r["description"].get<std::string>() << "\n";
  }
  if (r.contains("overrides") && !r["overrides"].empty()) {
    std::string sets;
    for (const auto& o : r["overrides"]) sets += (sets.empty() ? "" : ", ") + o.get<std::string>();
    out << "  Changed by --set: " << sets << "\n";
  }
  out << fmt::format("\nSimulated time {}   wall {:.3f} s   ({:.3g} simulated s per wall s)\n",
                     human_time(sim_ns), wall, r["run"]["simulated_per_wall_second"].get<double>());
  write_end(r, out);
  out << fmt::format(
      "Component figures (utilisations, bandwidths) cover the whole run, [0, {}]; workload "
      "results cover their own measurement window where they name one.\n",
      human_time(sim_ns));

  FoldedRows pcie("PCIe links (per direction)",
                  "payload     GB/s  eff.   util   MWr     MRd     CplD    credit stall");
  each_group(stats, "tlps_mwr", [&](const std::string& path, const Json& g) {
    if (num(g, "wire_bytes") == 0) return;
    pcie.add(path, fmt::format("{:>10} {:8.3f} {:5.3f} {} {:7.0f} {:7.0f} {:7.0f} {:>10}",
                               human_bytes(num(g, "payload_bytes")),
                               num(g, "payload_bandwidth_GBps"), num(g, "payload_efficiency"),
                               pct(num(g, "utilisation")), num(g, "tlps_mwr"), num(g, "tlps_mrd"),
                               num(g, "tlps_cpld"), human_time(num(g, "credit_stall_ps") / 1e3)));
  });
  pcie.write(out);
  FoldedRows ht("HyperTransport links (per direction)",
                "payload     GB/s  eff.   util  writes   reads  responses");
  each_group(stats, "nops", [&](const std::string& path, const Json& g) {
    if (num(g, "wire_bytes") == 0) return;
    ht.add(path, fmt::format("{:>10} {:8.3f} {:5.3f} {} {:7.0f} {:7.0f} {:10.0f}",
                             human_bytes(num(g, "payload_bytes")), num(g, "payload_bandwidth_GBps"),
                             num(g, "payload_efficiency"), pct(num(g, "utilisation")),
                             num(g, "posted_writes"), num(g, "reads"), num(g, "read_responses")));
  });
  ht.write(out);
  FoldedRows bridges("HT-to-PCIe bridges", "to accelerators  to host    mean transit");
  each_group(stats, "downstream_writes", [&](const std::string& path, const Json& g) {
    if (num(g, "downstream_bytes") + num(g, "upstream_bytes") == 0) return;
    bridges.add(path, fmt::format("{:>15} {:>10} {:>14}", human_bytes(num(g, "downstream_bytes")),
                                  human_bytes(num(g, "upstream_bytes")),
                                  human_time(g["transit"]["mean"].get<double>())));
  });
  bridges.write(out);
  FoldedRows ethernet("Ethernet links (per direction)", "payload   frames   util");
  each_group(stats, "frames", [&](const std::string& path, const Json& g) {
    if (num(g, "frames") == 0) return;
    ethernet.add(path, fmt::format("{:>10} {:8.0f} {}", human_bytes(num(g, "payload_bytes")),
                                   num(g, "frames"), pct(num(g, "utilisation"))));
  });
  ethernet.write(out);
  FoldedRows memories("Memories", "read      written    read GB/s  write GB/s  port util");
  each_group(stats, "port_utilisation", [&](const std::string& path, const Json& g) {
    if (num(g, "reads") + num(g, "writes") == 0) return;
    if (path.find("local_store") != std::string::npos) return;  // summarised by the MFCs
    memories.add(
        path, fmt::format("{:>10} {:>10} {:10.3f} {:10.3f}  {}", human_bytes(num(g, "bytes_read")),
                          human_bytes(num(g, "bytes_written")), num(g, "read_bandwidth_GBps"),
                          num(g, "write_bandwidth_GBps"), pct(num(g, "port_utilisation"))));
  });
  memories.write(out);
  FoldedRows buses("Element interconnect buses", "carried    ring util  peak GB/s");
  each_group(stats, "ring_utilisation", [&](const std::string& path, const Json& g) {
    if (num(g, "bytes") == 0) return;
    buses.add(path, fmt::format("{:>10}   {}  {:9.1f}", human_bytes(num(g, "bytes")),
                                pct(num(g, "ring_utilisation")), num(g, "peak_bandwidth_GBps")));
  });
  buses.write(out);
  FoldedRows mfcs("MFC DMA engines", "GETs   PUTs   in          out         mean cmd latency");
  each_group(stats, "gets", [&](const std::string& path, const Json& g) {
    if (num(g, "gets") + num(g, "puts") == 0) return;
    mfcs.add(path,
             fmt::format("{:5.0f}  {:5.0f}  {:>10}  {:>10}  {:>10}", num(g, "gets"), num(g, "puts"),
                         human_bytes(num(g, "bytes_get")), human_bytes(num(g, "bytes_put")),
                         human_time(g["command_latency"]["mean"].get<double>())));
  });
  mfcs.write(out);
  FoldedRows cores("Cores", "compute  mem stall  irq wait  loads   stores");
  each_group(stats, "compute_utilisation", [&](const std::string& path, const Json& g) {
    if (num(g, "loads") + num(g, "stores") + num(g, "compute_cycles") + num(g, "interrupts") == 0) {
      return;
    }
    cores.add(path, fmt::format("{}   {}    {}  {:6.0f}  {:6.0f}",
                                pct(num(g, "compute_utilisation")), pct(num(g, "memory_stall")),
                                pct(num(g, "interrupt_wait")), num(g, "loads"), num(g, "stores")));
  });
  cores.write(out);
  write_torus(stats, out);
  if (!r["results"].empty()) {
    out << "\nWorkload results\n";
    write_result_rows(r["results"], out, declared);
  }
  write_checks(r["checks"], out, r.contains("end") && r["end"].value("cut_short", false));
}

std::string failure_summary(const Json& r) {
  const Json& v = r["checks"]["violations"];
  std::string s = fmt::format("the run failed at {}: {} violation(s)",
                              human_time(r["simulated_time_ns"].get<double>()), v.size());
  constexpr size_t kShown = 3;
  for (size_t i = 0; i < v.size() && i < kShown; ++i) {
    s += fmt::format("\n  {}: {}: {} (at {})", v[i]["check"].get<std::string>(),
                     v[i]["component"].get<std::string>(), v[i]["message"].get<std::string>(),
                     human_time(v[i]["time_ns"].get<double>()));
  }
  if (v.size() > kShown) s += fmt::format("\n  ... and {} more in the report", v.size() - kShown);
  return s;
}

void write_checks(const Json& checks, std::ostream& out, bool cut_short) {
  const Json& invariants = checks["invariants"];
  uint64_t evaluations = 0;
  size_t applied = 0;
  for (const auto& c : invariants) {
    evaluations += c["evaluations"].get<uint64_t>();
    applied += c["evaluations"].get<uint64_t>() > 0 || c.contains("not_run") ? 1 : 0;
  }
  const bool passed = checks["passed"].get<bool>();
  out << fmt::format("\nChecks: {} ({} checks, {} evaluations)\n",
                     !passed     ? "FAILED"
                     : cut_short ? "no violation in the part that ran"
                                 : "passed",
                     applied, evaluations);
  // Checks that never applied to this run (another protocol's rules) are in the JSON only.
  for (const auto& c : invariants) {
    const uint64_t n = c["evaluations"].get<uint64_t>();
    if (n == 0 && !c.contains("not_run") && c["passed"].get<bool>()) continue;
    const char* verdict = !c["passed"].get<bool>() ? "FAILED" : n == 0 ? "not run" : "passed";
    out << fmt::format(
        "  {:<8} {:>12}  {}{}\n", verdict, n, c["name"].get<std::string>(),
        n == 0 && c.contains("not_run") ? " (" + c["not_run"].get<std::string>() + ")" : "");
  }
  if (invariants.size() > applied) {
    out << fmt::format("  ({} more checks did not apply to this run: listed in the JSON report)\n",
                       invariants.size() - applied);
  }
  if (!checks["violations"].empty()) out << "Violations\n";
  for (const auto& v : checks["violations"]) {
    out << fmt::format("  at {}: {}: {} [{}]\n", human_time(v["time_ns"].get<double>()),
                       v["component"].get<std::string>(), v["message"].get<std::string>(),
                       v["check"].get<std::string>());
  }
}

}  // namespace hs::runner
