#include "testbench/runner/report_text.h"

#include <fmt/format.h>

#include <string>

namespace hs::runner {

using Json = nlohmann::json;

namespace {

std::string human_time(double ns) {
  if (ns >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.3f} us", ns / 1e3);
  return fmt::format("{:.1f} ns", ns);
}

std::string human_bytes(double b) {
  if (b >= 1 << 30) return fmt::format("{:.2f} GiB", b / (1 << 30));
  if (b >= 1 << 20) return fmt::format("{:.2f} MiB", b / (1 << 20));
  if (b >= 1 << 10) return fmt::format("{:.1f} KiB", b / (1 << 10));
  return fmt::format("{:.0f} B", b);
}

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
  if (!r["results"].empty()) out << "\nWorkload results\n  " << r["results"].dump() << "\n";
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
