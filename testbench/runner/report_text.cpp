#include "testbench/runner/report_text.h"

#include "testbench/runner/report_rows.h"

#include <fmt/format.h>

#include <string>

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
    out << fmt::format("  link utilisation  mean {}   busiest {}   ({:.0f} links)\n",
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

void write_text_report(const Json& r, std::ostream& out) {
  const Json& stats = r["stats"];
  const double sim_ns = r["simulated_time_ns"].get<double>();
  const double wall = r["run"]["wall_seconds"].get<double>();
  out << fmt::format("hybridsim {} | scenario {} | machine {} | workload {} | seed {}\n",
                     r["hybridsim"].get<std::string>(), r["scenario"].get<std::string>(),
                     r["machine"].get<std::string>(), r["workload"].get<std::string>(),
                     r["seed"].get<uint64_t>());
  if (!r["description"].get<std::string>().empty()) {
    out << "  " << r["description"].get<std::string>() << "\n";
  }
  out << fmt::format("\nSimulated time {}   wall {:.3f} s   ({:.3g} simulated s per wall s)\n",
                     human_time(sim_ns), wall, r["run"]["simulated_per_wall_second"].get<double>());
  if (r.value("interrupted", false)) {
    out << fmt::format("Interrupted by {} at {}: the figures below cover the run up to then.\n",
                       r.value("interrupted_by", "a signal"), human_time(sim_ns));
  }
  if (r.contains("stopped_at_ns") && r["stopped_at_ns"].is_number()) {
    out << fmt::format(
        "Stopped at {} (sim.stop_at) with work in progress: the figures below "
        "cover exactly [0, {}].\n",
        human_time(sim_ns), human_time(sim_ns));
  }

  bool header = false;
  each_group(stats, "tlps_mwr", [&](const std::string& path, const Json& g) {
    if (num(g, "wire_bytes") == 0) return;
    if (!header) {
      out << "\nPCIe links (per direction)          payload     GB/s  eff.   util   MWr     MRd    "
             " "
             "CplD    credit stall\n";
      header = true;
    }
    out << fmt::format("  {:<32} {:>10} {:8.3f} {:5.3f} {} {:7.0f} {:7.0f} {:7.0f} {:>10}\n", path,
                       human_bytes(num(g, "payload_bytes")), num(g, "payload_bandwidth_GBps"),
                       num(g, "payload_efficiency"), pct(num(g, "utilisation")), num(g, "tlps_mwr"),
                       num(g, "tlps_mrd"), num(g, "tlps_cpld"),
                       human_time(num(g, "credit_stall_ps") / 1e3));
  });
  header = false;
  each_group(stats, "nops", [&](const std::string& path, const Json& g) {
    if (num(g, "wire_bytes") == 0) return;
    if (!header) {
      out << "\nHyperTransport links (per direction) payload     GB/s  eff.   util  writes   reads"
             "  responses\n";
      header = true;
    }
    out << fmt::format("  {:<32} {:>10} {:8.3f} {:5.3f} {} {:7.0f} {:7.0f} {:10.0f}\n", path,
                       human_bytes(num(g, "payload_bytes")), num(g, "payload_bandwidth_GBps"),
                       num(g, "payload_efficiency"), pct(num(g, "utilisation")),
                       num(g, "posted_writes"), num(g, "reads"), num(g, "read_responses"));
  });
  header = false;
  each_group(stats, "downstream_writes", [&](const std::string& path, const Json& g) {
    if (num(g, "downstream_bytes") + num(g, "upstream_bytes") == 0) return;
    if (!header) {
      out << "\nHT-to-PCIe bridges                  to accelerators  to host    mean transit\n";
      header = true;
    }
    out << fmt::format(
        "  {:<32} {:>15} {:>10} {:>14}\n", path, human_bytes(num(g, "downstream_bytes")),
        human_bytes(num(g, "upstream_bytes")), human_time(g["transit"]["mean"].get<double>()));
  });
  header = false;
  each_group(stats, "frames", [&](const std::string& path, const Json& g) {
    if (num(g, "frames") == 0) return;
    if (!header) {
      out << "\nEthernet links (per direction)      payload   frames   util\n";
      header = true;
    }
    out << fmt::format("  {:<32} {:>10} {:8.0f} {}\n", path, human_bytes(num(g, "payload_bytes")),
                       num(g, "frames"), pct(num(g, "utilisation")));
  });
  header = false;
  each_group(stats, "port_utilisation", [&](const std::string& path, const Json& g) {
    if (num(g, "reads") + num(g, "writes") == 0) return;
    if (path.find("local_store") != std::string::npos) return;  // summarised by the MFCs
    if (!header) {
      out << "\nMemories                            read      written    read GB/s  write GB/s  "
             "port util\n";
      header = true;
    }
    out << fmt::format("  {:<32} {:>10} {:>10} {:10.3f} {:10.3f}  {}\n", path,
                       human_bytes(num(g, "bytes_read")), human_bytes(num(g, "bytes_written")),
                       num(g, "read_bandwidth_GBps"), num(g, "write_bandwidth_GBps"),
                       pct(num(g, "port_utilisation")));
  });
  header = false;
  each_group(stats, "ring_utilisation", [&](const std::string& path, const Json& g) {
    if (num(g, "bytes") == 0) return;
    if (!header) {
      out << "\nElement interconnect buses          carried    ring util  peak GB/s\n";
      header = true;
    }
    out << fmt::format("  {:<32} {:>10}   {}  {:9.1f}\n", path, human_bytes(num(g, "bytes")),
                       pct(num(g, "ring_utilisation")), num(g, "peak_bandwidth_GBps"));
  });
  header = false;
  each_group(stats, "gets", [&](const std::string& path, const Json& g) {
    if (num(g, "gets") + num(g, "puts") == 0) return;
    if (!header) {
      out << "\nMFC DMA engines                     GETs   PUTs   in          out         mean "
             "cmd latency\n";
      header = true;
    }
    out << fmt::format("  {:<32} {:5.0f}  {:5.0f}  {:>10}  {:>10}  {:>10}\n", path, num(g, "gets"),
                       num(g, "puts"), human_bytes(num(g, "bytes_get")),
                       human_bytes(num(g, "bytes_put")),
                       human_time(g["command_latency"]["mean"].get<double>()));
  });
  header = false;
  each_group(stats, "compute_utilisation", [&](const std::string& path, const Json& g) {
    if (num(g, "loads") + num(g, "stores") + num(g, "compute_cycles") + num(g, "interrupts") == 0) {
      return;
    }
    if (!header) {
      out << "\nCores                               compute  mem stall  irq wait  loads   stores\n";
      header = true;
    }
    out << fmt::format("  {:<32} {}   {}    {}  {:6.0f}  {:6.0f}\n", path,
                       pct(num(g, "compute_utilisation")), pct(num(g, "memory_stall")),
                       pct(num(g, "interrupt_wait")), num(g, "loads"), num(g, "stores"));
  });
  write_torus(stats, out);
  if (!r["results"].empty()) {
    out << "\nWorkload results\n";
    write_result_rows(r["results"], out);
  }
  write_checks(r["checks"], out);
}

void write_checks(const Json& checks, std::ostream& out) {
  const Json& invariants = checks["invariants"];
  uint64_t evaluations = 0;
  for (const auto& c : invariants) evaluations += c["evaluations"].get<uint64_t>();
  out << fmt::format("\nChecks: {} ({} checks, {} evaluations)\n",
                     checks["passed"].get<bool>() ? "passed" : "FAILED", invariants.size(),
                     evaluations);
  for (const auto& c : invariants) {
    const uint64_t n = c["evaluations"].get<uint64_t>();
    const char* verdict = !c["passed"].get<bool>() ? "FAILED" : n == 0 ? "not run" : "passed";
    out << fmt::format("  {:<8} {:>12}  {}\n", verdict, n, c["name"].get<std::string>());
  }
  if (!checks["violations"].empty()) out << "Violations\n";
  for (const auto& v : checks["violations"]) {
    out << fmt::format("  at {}: {}: {} [{}]\n", human_time(v["time_ns"].get<double>()),
                       v["component"].get<std::string>(), v["message"].get<std::string>(),
                       v["check"].get<std::string>());
  }
}

}  // namespace hs::runner
