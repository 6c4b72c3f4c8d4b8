// hybridsim-bench: simulation speed and model accuracy figures for the README.
//
// Each case runs in a forked child (a SystemC kernel elaborates once per process) and sends
// its figures back as JSON. Speed cases run three times and report the fastest. Cases:
//   kernel_pingpong     bare SystemC: two threads handing control back and forth with wait()
//   pcie_stream_put     streaming DMA: 8 SPEs PUT into host memory over PCIe (MWr TLPs)
//   pcie_stream_get     streaming DMA: 8 SPEs GET from host memory over PCIe (MRd + CplD TLPs)
//   dma_engine_stream   streaming DMA: the accelerator's descriptor engine, 64 KiB requests
//   default             the default scenario: simulated time per wall second
//   pcie_accuracy       link throughput vs the analytic limit for several link shapes
//   registration_cache  1000 SLMPM DMA transfers over 4 buffers, with and without the cache
//   mirrored_counters   mirrored (eager, lazy) vs baseline counters for the same traffic
//   unpin_latency       unpin under an unrelated long transfer, embodiments A and B
//   ami_message_sizes   AMI variants and baselines vs size and RECEIVE readiness (ami_cases.h)
//   sweep_overhead      sweep runner cost per point, 100-point local sweep (sweep_cases.h)
//   validation          the model beside published measurements of the real machines
//                       (validation_cases.h)
//   torus_*             the torus machine (torus_cases.h): link efficiency, latency vs hops,
//                       load sweep, protocol latency vs message size, speed, goodput and
//                       latency vs link CRC error rate
//   torus_scale         machine sizes up to 72x32x32: elaboration, run, memory per node, with
//                       targets (torus_scale_case.h)
//   parallel_scaling    torus traffic and halo3d partitioned over mpirun -np P: wall time,
//                       speed-up, memory, sync share, the 16-core model, identical reports
//                       (parallel_scaling_case.h)
//   mpi_program_speed   a 512-rank C MPI program against the same pattern in the program
//                       language: messages per wall second, memory per rank, with a target
//                       (mpi_speed_case.h)
// Usage: hybridsim-bench [--out FILE.json] [CASE...]

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "hw/hybrid/hybrid_node.h"
#include "hw/pcie/pcie_link.h"
#include "sw/hal/dma.h"
#include "testbench/bench/ami_cases.h"
#include "testbench/bench/mpi_speed_case.h"
#include "testbench/bench/parallel_scaling_case.h"
#include "testbench/bench/sweep_cases.h"
#include "testbench/bench/torus_cases.h"
#include "testbench/bench/torus_scale_case.h"
#include "testbench/bench/validation_cases.h"
#include "testbench/support/child_process.h"
#include "testbench/support/scenario_run.h"
#include "testbench/support/scripted_initiator.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Two threads alternate through events: every hand-over is one wait() returning.
struct PingPong : sc_core::sc_module {
  SC_HAS_PROCESS(PingPong);
  explicit PingPong(sc_core::sc_module_name n, uint64_t rounds) : sc_module(n), rounds_(rounds) {
    SC_THREAD(ping);
    SC_THREAD(pong);
  }
  void ping() {
    for (uint64_t i = 0; i < rounds_; ++i) {
      to_pong_.notify(1, sc_core::SC_NS);
      sc_core::wait(to_ping_);
      ++waits;
    }
  }
  void pong() {
    for (;;) {
      sc_core::wait(to_pong_);
      ++waits;
      to_ping_.notify(1, sc_core::SC_NS);
    }
  }
  uint64_t rounds_, waits = 0;
  sc_core::sc_event to_ping_, to_pong_;
};

Json kernel_pingpong() {
  PingPong pp("pingpong", 2'000'000);
  const auto t0 = Clock::now();
  sc_core::sc_start();
  const double wall = since(t0);
  return {{"waits", pp.waits}, {"wall_seconds", wall}, {"waits_per_second", pp.waits / wall}};
}

// A scenario's speed and results, in this process.
Json run_scenario(const std::string& scenario, const std::vector<std::string>& sets) {
  const Json r = hs::testing::run_scenario_here(scenario, sets);
  return {{"status", r["status"]},
          {"simulated_seconds", r["simulated_time_ns"].get<double>() * 1e-9},
          {"wall_seconds", r["run"]["wall_seconds"]},
          {"simulated_per_wall_second", r["run"]["simulated_per_wall_second"]},
          {"peak_rss_MiB", r["run"]["peak_rss_MiB"]},
          {"results", r["results"]}};
}

Json pcie_stream(const std::string& direction) {
  Json j = run_scenario("pcie_stream", {"workload.direction=" + direction});
  const double tlps = j["results"]["tlps"].get<double>();
  j["tlps"] = tlps;
  j["tlps_per_wall_second"] = tlps / j["wall_seconds"].get<double>();
  return j;
}

using hs::testing::run_in_child;

// One link with a streaming writer, measured against rate x encoding x MPS / (MPS + 20).
Json pcie_accuracy() {
  struct Shape {
    int gen, lanes, mps;
  };
  const Shape shapes[] = {{1, 8, 128}, {1, 8, 256},  {2, 4, 128},
                          {2, 4, 256}, {3, 16, 128}, {3, 16, 256}};
  Json rows = Json::array();
  for (const auto& s : shapes) {
    rows.push_back(run_in_child([&s] {
      auto& reg = hs::ParamRegistry::instance();
      reg.set_override("pcie0.gen", s.gen, {"bench", 2});
      reg.set_override("pcie0.lanes", s.lanes, {"bench", 2});
      reg.set_override("pcie0.max_payload", s.mps, {"bench", 2});
      constexpr uint64_t kBytes = 16 << 20;
      std::vector<uint8_t> buf(64 << 10, 1);
      hs::pcie::PcieLink link("pcie0", 0);
      hs::testing::RecordingMemory a("a", sc_core::SC_ZERO_TIME), b("b", sc_core::SC_ZERO_TIME);
      hs::testing::ScriptedInitiator wa("wa", [&](hs::testing::ScriptedInitiator& i) {
        for (uint64_t off = 0; off < kBytes; off += buf.size())
          i.write(off, buf.data(), buf.size());
      });
      hs::testing::ScriptedInitiator wb("wb", [](auto&) {});
      wa.socket.bind(link.port(hs::link::SplitLink::A).in);
      wb.socket.bind(link.port(hs::link::SplitLink::B).in);
      link.port(hs::link::SplitLink::A).out.bind(a.socket);
      link.port(hs::link::SplitLink::B).out.bind(b.socket);
      reg.finalize();
      const auto t0 = Clock::now();
      sc_core::sc_start();
      const double wall = since(t0);
      const auto& c = link.config();
      const double analytic = c.bytes_per_second() * c.mps / (c.mps + c.tlp_overhead(false));
      const double seconds = b.writes.back().at.to_seconds() - c.latency_ns * 1e-9;
      Json row = {{"link", fmt::format("gen{} x{} MPS {}", s.gen, s.lanes, s.mps)},
                  {"analytic_GBps", analytic / 1e9},
                  {"measured_GBps", kBytes / seconds / 1e9},
                  {"error_pct", (kBytes / seconds / analytic - 1) * 100},
                  {"tlps_per_wall_second", link.packets(0, hs::link::PacketKind::Write) / wall}};
      return row;
    }));
  }
  return rows;
}

// 1000 host-to-accelerator DMA transfers over 4 buffers, end to end on the hybrid node, with
// the SLMPM's registration cache and without it (every transfer registers and deregisters).
Json registration_cache() {
  Json j;
  for (const char* mode : {"cache", "none"}) {
    Json r = run_in_child(
        [&] { return run_scenario("dma_transfers", {std::string("workload.cache=") + mode}); });
    j[std::string(mode) == "cache" ? "with_cache" : "without_cache"] =
        r.contains("results") ? r["results"] : r;
  }
  j["wall_seconds"] = 0.0;
  return j;
}

// The same update traffic (2000 updates each way, both directions) through mirrored rings
// with eager and lazy read-counter publication, and through the baseline ring.
Json mirrored_counters() {
  Json j;
  const std::vector<std::pair<std::string, std::vector<std::string>>> variants = {
      {"mirrored_eager", {"workload.mode=mirrored", "workload.publish=eager"}},
      {"mirrored_lazy", {"workload.mode=mirrored", "workload.publish=lazy"}},
      {"baseline", {"workload.mode=baseline", "workload.publish=eager"}}};
  for (const auto& [name, sets] : variants) {
    std::vector<std::string> all = sets;
    all.insert(all.end(), {"workload.updates=2000", "workload.gap_cycles=300",
                           "workload.segments=16", "workload.threshold=8"});
    Json r = run_in_child([&] { return run_scenario("mirrored_counters", all); });
    if (r.contains("error") || r["status"] != "passed") {
      j[name] = r;
      continue;
    }
    const Json& p = r["results"]["pairs"][0];
    j[name] = {{"pcie_mrd", p["pcie_mrd"]},
               {"pcie_mwr", p["pcie_mwr"]},
               {"counter_publications", p["host"]["publications"].get<uint64_t>() +
                                            p["accelerator"]["publications"].get<uint64_t>()},
               {"mean_update_latency_ns", (p["host"]["mean_latency_ns"].get<double>() +
                                           p["accelerator"]["mean_latency_ns"].get<double>()) /
                                              2},
               {"simulated_us", r["simulated_seconds"].get<double>() * 1e6}};
  }
  j["wall_seconds"] = 0.0;
  return j;
}

// Unpin latency of region 0 while a 256 KiB transfer to region 1 runs on the same engine:
// embodiment A waits for it, B does not.
Json unpin_latency() {
  Json j;
  for (const char* emb : {"A", "B"}) {
    Json r = run_in_child([&] {
      return run_scenario(
          "pin_dma_unpin",
          {std::string("workload.embodiment=") + emb, "workload.unrelated_bytes=262144",
           "workload.region_bytes=262144", "workload.unpin_after_cycles=20000"});
    });
    j[emb] = r.contains("results") && r["results"].contains("unpin_ns") &&
                     !r["results"]["unpin_ns"].empty()
                 ? Json{{"unpin_ns", r["results"]["unpin_ns"][0]}, {"status", r["status"]}}
                 : r;
  }
  j["wall_seconds"] = 0.0;
  return j;
}

// Streaming DMA with the accelerator's descriptor engine: 16 MiB from accelerator DRAM into
// host memory in 64 KiB requests (256-byte MWr TLPs up the PCIe link).
Json dma_engine_stream() {
  namespace amap = hs::hybrid::amap;
  hs::hybrid::HybridNode node("node0");
  hs::ParamRegistry::instance().finalize();
  constexpr uint32_t kRequest = 64 * 1024, kRequests = 256;
  node.accelerators[0]->ppe->set_firmware([](hs::fw::Hal& hal) {
    // Keep the engine's 64-entry queue full, checking completions every 2000 cycles (as
    // firmware would, rather than spinning on the SPACE register).
    for (uint32_t r = 0; r < kRequests; ++r) {
      if (r >= 64) hs::fw::dma::wait_completed(hal, amap::kAccDmaEngine, r - 63, 2000);
      const uint64_t at = 0x0800'0000 + (r % 64) * 64;
      hs::fw::dma::write_request(
          hal, at,
          {hs::fw::dma::copy(0x100'0000 + uint64_t{r % 16} * kRequest,
                             amap::host_via_pcie(0) + 0x1000'0000 + uint64_t{r} * kRequest,
                             kRequest)});
      hs::fw::dma::submit(hal, amap::kAccDmaEngine, at);
    }
    hs::fw::dma::wait_completed(hal, amap::kAccDmaEngine, kRequests, 2000);
  });
  const auto t0 = Clock::now();
  sc_core::sc_start();
  const double wall = since(t0);
  const double tlps = static_cast<double>(node.pcie(0, 0).packets(1, hs::link::PacketKind::Write));
  return {{"tlps", tlps},
          {"wall_seconds", wall},
          {"tlps_per_wall_second", tlps / wall},
          {"simulated_us", sc_core::sc_time_stamp().to_seconds() * 1e6}};
}

Json run_case(const std::string& name) {
  if (name == "kernel_pingpong") return kernel_pingpong();
  if (name == "pcie_stream_put") return pcie_stream("put");
  if (name == "pcie_stream_get") return pcie_stream("get");
  if (name == "dma_engine_stream") return dma_engine_stream();
  if (name == "default") return run_scenario("default", {});
  if (name == "pcie_accuracy") return pcie_accuracy();
  if (name == "registration_cache") return registration_cache();
  if (name == "mirrored_counters") return mirrored_counters();
  if (name == "unpin_latency") return unpin_latency();
  Json torus = hs::bench::run_torus_case(name);
  if (!torus.is_null()) return torus;
  Json torus_scale = hs::bench::run_torus_scale_case(name);
  if (!torus_scale.is_null()) return torus_scale;
  Json ami = hs::bench::run_ami_case(name);
  if (!ami.is_null()) return ami;
  Json sweep = hs::bench::run_sweep_case(name);
  if (!sweep.is_null()) return sweep;
  Json scaling = hs::bench::run_parallel_scaling_case(name);
  if (!scaling.is_null()) return scaling;
  Json mpi_speed = hs::bench::run_mpi_speed_case(name);
  if (!mpi_speed.is_null()) return mpi_speed;
  Json validation = hs::bench::run_validation_case(name);
  if (!validation.is_null()) return validation;
  throw std::runtime_error("unknown benchmark case " + name);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  std::vector<std::string> known = {"kernel_pingpong",    "pcie_stream_put",   "pcie_stream_get",
                                    "dma_engine_stream",  "default",           "pcie_accuracy",
                                    "registration_cache", "mirrored_counters", "unpin_latency"};
  for (const auto& c : hs::bench::torus_cases()) known.push_back(c);
  known.push_back("torus_scale");
  known.push_back("ami_message_sizes");
  known.push_back("sweep_overhead");
  known.push_back("mpi_program_speed");
  known.push_back("parallel_scaling");
  for (const auto& c : hs::bench::validation_cases()) known.push_back(c);
  const std::string usage =
      fmt::format("usage: hybridsim-bench [--out FILE.json] [CASE...]\ncases (default: all): {}\n",
                  fmt::join(known, " "));

  // Every argument is checked before any case runs: a typo must not cost a long run.
  std::string out_path;
  std::vector<std::string> cases;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(usage.c_str(), stdout);
      return 0;
    }
    if (a == "--out") {
      if (i + 1 == argc) {
        std::fprintf(stderr, "hybridsim-bench: --out needs a file name\n%s", usage.c_str());
        return 2;
      }
      out_path = argv[++i];
    } else if (std::find(known.begin(), known.end(), a) == known.end()) {
      std::fprintf(stderr, "hybridsim-bench: unknown case or option '%s'\n%s", a.c_str(),
                   usage.c_str());
      return 2;
    } else {
      cases.push_back(a);
    }
  }
  if (cases.empty()) cases = known;
  // Wall-clock figures vary with whatever else the machine does: each speed case runs three
  // times (each in a fresh process) and the fastest run is reported.
  Json all = Json::object();
  for (const auto& c : cases) {
    std::fprintf(stderr, "bench: %s ...\n", c.c_str());
    // Model figures are deterministic: one run. Speed figures: best of three.
    const bool speed = c == "kernel_pingpong" || c == "pcie_stream_put" || c == "pcie_stream_get" ||
                       c == "default";
    const int repeats = speed ? 3 : 1;
    for (int r = 0; r < repeats; ++r) {
      Json j = run_in_child([&c] { return run_case(c); });
      const bool faster = !all.contains(c) ||
                          (j.contains("wall_seconds") &&
                           j["wall_seconds"].get<double>() < all[c]["wall_seconds"].get<double>());
      if (faster) all[c] = j;
    }
  }
  if (all.contains("kernel_pingpong") && all["kernel_pingpong"].contains("waits_per_second")) {
    const double base = all["kernel_pingpong"]["waits_per_second"].get<double>();
    for (const char* c : {"pcie_stream_put", "pcie_stream_get", "dma_engine_stream"}) {
      if (all.contains(c) && all[c].contains("tlps_per_wall_second")) {
        all[c]["ratio_to_kernel_waits"] = all[c]["tlps_per_wall_second"].get<double>() / base;
      }
    }
  }
  std::cout << all.dump(2) << "\n";
  auto num = [&](const char* c, const char* k) {
    return all.contains(c) && all[c].contains(k) ? all[c][k].get<double>() : 0.0;
  };
  // A readable summary of the cases that ran.
  std::printf("\n");
  if (all.contains("kernel_pingpong")) {
    std::printf("%-44s %14.0f\n", "bare SystemC wait() hand-overs / wall s",
                num("kernel_pingpong", "waits_per_second"));
  }
  for (const char* c : {"pcie_stream_put", "pcie_stream_get", "dma_engine_stream"}) {
    if (!all.contains(c)) continue;
    std::printf("%-44s %14.0f", fmt::format("{}: simulated TLPs / wall s", c).c_str(),
                num(c, "tlps_per_wall_second"));
    if (all[c].contains("ratio_to_kernel_waits")) {
      std::printf("  (%.1f%% of bare kernel)", 100 * num(c, "ratio_to_kernel_waits"));
    }
    std::printf("\n");
  }
  if (all.contains("default")) {
    std::printf("%-44s %14.4f  (%.3f ms simulated in %.3f s)\n",
                "default scenario: simulated s / wall s",
                num("default", "simulated_per_wall_second"),
                num("default", "simulated_seconds") * 1e3, num("default", "wall_seconds"));
  }
  if (all.contains("pcie_accuracy")) {
    for (const auto& row : all["pcie_accuracy"]) {
      std::printf(
          "PCIe %-20s analytic %7.3f GB/s  measured %7.3f GB/s  error %+.3f%%  (%.0f TLPs / wall "
          "s)\n",
          row["link"].get<std::string>().c_str(), row["analytic_GBps"].get<double>(),
          row["measured_GBps"].get<double>(), row["error_pct"].get<double>(),
          row["tlps_per_wall_second"].get<double>());
    }
  }
  if (all.contains("registration_cache")) {
    for (const char* k : {"with_cache", "without_cache"}) {
      const Json& r = all["registration_cache"][k];
      if (!r.contains("os_register_calls")) continue;
      std::printf(
          "1000 DMA transfers over 4 buffers, %-13s OS registers %5llu, deregisters %5llu, "
          "OS cycles %9llu, elapsed %.0f us\n",
          k, static_cast<unsigned long long>(r["os_register_calls"].get<uint64_t>()),
          static_cast<unsigned long long>(r["os_deregister_calls"].get<uint64_t>()),
          static_cast<unsigned long long>(r["os_cycles"].get<uint64_t>()),
          r["elapsed_us"].get<double>());
    }
  }
  if (all.contains("mirrored_counters")) {
    for (const char* k : {"mirrored_eager", "mirrored_lazy", "baseline"}) {
      const Json& r = all["mirrored_counters"][k];
      if (!r.contains("pcie_mrd")) continue;
      std::printf(
          "counters %-15s remote reads %5llu  remote writes %5llu  counter writes %5llu  "
          "mean update latency %6.0f ns\n",
          k, static_cast<unsigned long long>(r["pcie_mrd"].get<uint64_t>()),
          static_cast<unsigned long long>(r["pcie_mwr"].get<uint64_t>()),
          static_cast<unsigned long long>(r["counter_publications"].get<uint64_t>()),
          r["mean_update_latency_ns"].get<double>());
    }
  }
  if (all.contains("unpin_latency")) {
    for (const char* k : {"A", "B"}) {
      const Json& r = all["unpin_latency"][k];
      if (r.contains("unpin_ns")) {
        std::printf(
            "unpin of region 0 under an unrelated 256 KiB transfer, embodiment %s: %.1f us\n", k,
            r["unpin_ns"].get<double>() / 1e3);
      }
    }
  }
  hs::bench::print_torus_summary(all);
  hs::bench::print_torus_scale_summary(all);
  hs::bench::print_ami_summary(all);
  hs::bench::print_sweep_summary(all);
  hs::bench::print_mpi_speed_summary(all);
  hs::bench::print_parallel_scaling_summary(all);
  hs::bench::print_validation_summary(all);
  if (!out_path.empty()) std::ofstream(out_path) << all.dump(2) << "\n";
  // A validation row whose scenario failed is a broken command in the README's table; a
  // machine size that misses its scale target fails too, and so does a load-sweep point whose
  // window is not steady, and MPI programs slower than the target.
  return hs::bench::validation_failed(all) || hs::bench::torus_scale_failed(all) ||
                 hs::bench::torus_load_sweep_failed(all) || hs::bench::mpi_speed_failed(all) ||
                 hs::bench::parallel_scaling_failed(all)
             ? 1
             : 0;
}
