#include "testbench/bench/validation_cases.h"

#include <fmt/format.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "testbench/support/scenario_run.h"

namespace hs::bench {

using Json = nlohmann::json;
using hs::testing::run_scenario;

namespace {

// A published figure: what it measures, its value (or range), and how the model measures the
// same thing (a scenario, its settings, and the figure read from the report). A figure the
// model measures for which nothing alone is published has published_lo = published_hi = 0:
// the table shows the model's figure, the note says what is published nearby, and no ratio.
struct Figure {
  std::string machine, what;
  double published_lo, published_hi;  // equal unless the publication gives a range
  std::string unit;
  std::string scenario;
  std::vector<std::string> sets;
  std::function<double(const Json&)> model;  // from the report
  std::string note;
};

// A published figure the model cannot yet reproduce, and why.
struct Missing {
  std::string machine, what, published, reason;
};

double result(const Json& r, const char* key) {
  return r["results"][key].get<double>();
}
double packet_latency_ns(const Json& r) {
  return r["stats"]["torus.network"]["packet_latency"]["mean"].get<double>();
}
// Torus links carry 8 B of framing per packet besides the 16 B header inside it: a payload
// rate becomes the raw link rate by the ratio of a packet's link bytes to its payload.
constexpr double kTorusPacket = 256, kTorusHeader = 16, kTorusFraming = 8;
// How the model defines the torus's hardware latency (hw/torus/network/network_config.h).
constexpr const char* kHardwareLatency =
    "header chunk in the source's injection FIFO to the tail at the destination's reception "
    "port: the rest of the packet written into the FIFO (store and forward), a wire per link, "
    "a router per transit node, one serialisation";

// The TriBlade's path (node0.topology = roadrunner), measured by host_path.
std::vector<std::string> triblade(std::vector<std::string> extra = {}) {
  std::vector<std::string> s = {"node0.topology=roadrunner"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}
// Both sustained figures are the Cell-side DMA engine's 4 MiB copies through every stage of the
// TriBlade's path (HyperTransport, the HT-to-PCIe bridge, PCIe, the Cell's I/O bridge, IOIF0);
// the PCIe link is the narrowest stage. The published range is for a card's writes.
constexpr const char* kHostToCell =
    "a read stream, not a write stream: the engine's 512 B read requests come back as 64 B "
    "completions (the bridge completes at the link's 64 B read completion boundary), 84 B each "
    "on the wire, and the DLLPs answering the requests share that wire: 2 GB/s x 512 / "
    "(8 x 84 + 10) = 1.50 GB/s at most, below the range for writes; 256 B completions "
    "(--set node0.pcie0.completion_split=mps) give 1.81";
constexpr const char* kCellToHost =
    "a write stream of 256 B MWrs (max payload 256, which the engine uses): 2 GB/s x 256 / 276 "
    "= 1.855 GB/s, above the range, which matches 128 B payloads (2 GB/s x 128 / 148 = 1.730); "
    "--set node0.pcie0.max_payload=128 gives 1.73";

std::vector<std::string> cell(std::vector<std::string> extra) {
  std::vector<std::string> s = {"workload.bytes_per_spe=1MiB", "workload.command_bytes=16384"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

std::vector<Figure> figures() {
  const auto ping = [](int payload, int hops, std::vector<std::string> extra = {}) {
    std::vector<std::string> s = {"workload.protocol=eager", "workload.iterations=1",
                                  "workload.bytes=" + std::to_string(payload),
                                  "workload.hops=" + std::to_string(hops)};
    s.insert(s.end(), extra.begin(), extra.end());
    return s;
  };
  return {
      {"Cell EIB", "one element's ramps: an SPE PUTs to its partner's local store", 25.6, 25.6,
       "GB/s", "cell_dma",
       cell({"workload.spes=2", "workload.target=local_store", "workload.direction=put",
             "workload.placement=near"}),
       [](const Json& r) { return r["results"]["per_spe_GBps"][0].get<double>(); },
       "16 B per bus cycle at 1.6 GHz, out and in"},
      {"Cell EIB", "eight SPEs in pairs whose paths do not overlap", 204.8, 204.8, "GB/s",
       "cell_dma",
       cell({"workload.spes=8", "workload.target=local_store", "workload.direction=put",
             "workload.placement=near"}),
       [](const Json& r) { return result(r, "aggregate_GBps"); },
       "the command bus's peak: one 128 B command per bus cycle"},
      {"Cell EIB", "eight SPEs in pairs across the ring: less than near pairs", 204.8, 204.8,
       "GB/s", "cell_dma",
       cell({"workload.spes=8", "workload.target=local_store", "workload.direction=put",
             "workload.placement=far"}),
       [](const Json& r) { return result(r, "aggregate_GBps"); },
       "published as 'less than near pairs'; ratio shown against the near-pair peak"},
      {"Cell MIC", "eight SPEs GET from memory", 25.6, 25.6, "GB/s", "cell_dma",
       cell({"workload.spes=8", "workload.target=memory", "workload.direction=get"}),
       [](const Json& r) { return result(r, "aggregate_GBps"); }, "the memory interface's port"},
      {"PCIe gen1 x8",
       "sustained write goodput (8 SPEs PUT into host memory)",
       1.6,
       1.76,
       "GB/s",
       "pcie_stream",
       {"workload.bytes_per_spe=1MiB", "workload.direction=put"},
       [](const Json& r) { return result(r, "throughput_GBps"); },
       "128 B TLPs (the MFC's transfers): 2 GB/s x 128 / 148; the ACK and UpdateFC DLLPs "
       "answering them take wire time on the other direction's wire"},
      {"Roadrunner TriBlade", "PCIe gen1 x8 between an Opteron's bridge and its Cell, raw", 2.0,
       2.0, "GB/s", "host_path", triblade({"workload.bytes=4KiB"}),
       [](const Json& r) { return r["stats"]["node0.pcie0.down"]["line_rate_GBps"].get<double>(); },
       "2.5 GT/s x 8 lanes, 8b/10b, each direction"},
      {"Roadrunner TriBlade",
       "sustained host-to-Cell bandwidth: the Cell-side DMA engine reads 4 MiB of host memory "
       "into Cell memory",
       1.6, 1.76, "GB/s", "host_path", triblade(),
       [](const Json& r) { return result(r, "host_to_cell_GBps"); }, kHostToCell},
      {"Roadrunner TriBlade",
       "sustained Cell-to-host bandwidth: the Cell-side DMA engine writes 4 MiB of Cell memory "
       "into host memory",
       1.6, 1.76, "GB/s", "host_path", triblade(),
       [](const Json& r) { return result(r, "cell_to_host_GBps"); }, kCellToHost},
      {"Roadrunner TriBlade",
       "one-way latency of an 8-byte posted write, Opteron core to Cell memory", 0, 0, "ns",
       "host_path", triblade({"workload.bytes=4KiB"}),
       [](const Json& r) { return result(r, "write_one_way_ns"); },
       "no figure for the hardware alone in the calibration sources; published host-to-Cell "
       "message latencies include the communication library's software on both sides"},
      {"Roadrunner TriBlade", "round trip of an 8-byte read, Opteron core to Cell memory and back",
       0, 0, "ns", "host_path", triblade({"workload.bytes=4KiB"}),
       [](const Json& r) { return result(r, "read_round_trip_ns"); },
       "nothing published for the hardware alone"},
      {"Blue Gene/P torus",
       "one link, one direction, raw rate",
       425,
       425,
       "MB/s",
       "torus_pingpong",
       {"workload.protocol=rendezvous", "workload.hops=1", "workload.iterations=1",
        "workload.warmup=0", "workload.bytes=4194304"},
       [](const Json& r) {
         return result(r, "bandwidth_MBps") * (kTorusPacket + kTorusFraming) /
                (kTorusPacket - kTorusHeader);
       },
       "payload rate of a 4 MiB direct-put stream x (256 + 8) / 240"},
      {"Blue Gene/P torus", "hardware latency, nearest neighbour, 32 B packet", 100, 100, "ns",
       "torus_pingpong", ping(16, 1), packet_latency_ns, kHardwareLatency},
      {"Blue Gene/P torus", "hardware latency, nearest neighbour, 256 B packet", 800, 800, "ns",
       "torus_pingpong", ping(240, 1), packet_latency_ns, kHardwareLatency},
      {"Blue Gene/P torus", "hardware latency, worst case 64 hops, 32 B packet", 3200, 3200, "ns",
       "torus_pingpong",
       ping(16, 64, {"torus.network.x=64", "torus.network.y=64", "torus.network.z=1"}),
       packet_latency_ns,
       "a 64 x 64 x 1 torus puts node B 64 hops from node A; " + std::string(kHardwareLatency)},
  };
}

std::vector<Missing> missing() {
  return {
      {"Blue Gene/P torus", "a node's six links, both directions", "5.1 GB/s",
       "no workload yet drives all six links of every node at once (the halo exchange of the "
       "application workloads will)"},
  };
}

std::string command(const Figure& f) {
  std::string c = "hybridsim run " + f.scenario;
  for (const auto& s : f.sets) c += " --set " + s;
  return c;
}

Json validation() {
  Json rows = Json::array();
  for (const Figure& f : figures()) {
    const Json r = run_scenario(f.scenario, f.sets);
    Json row = {{"machine", f.machine},
                {"figure", f.what},
                {"published_lo", f.published_lo},
                {"published_hi", f.published_hi},
                {"unit", f.unit},
                {"command", command(f)},
                {"note", f.note},
                {"status", r.value("status", "error")}};
    if (hs::testing::passed(r)) {
      const double model = f.model(r);
      const double mid = (f.published_lo + f.published_hi) / 2;
      row["model"] = model;
      if (mid > 0) row["ratio"] = model / mid;
      row["within_published_range"] =
          f.published_lo < f.published_hi && model >= f.published_lo && model <= f.published_hi;
    } else {
      row["error"] = r.contains("error") ? r["error"] : Json(hs::testing::violations(r));
    }
    rows.push_back(row);
  }
  Json not_yet = Json::array();
  for (const Missing& m : missing()) {
    not_yet.push_back({{"machine", m.machine},
                       {"figure", m.what},
                       {"published", m.published},
                       {"reason", m.reason}});
  }
  return {{"rows", rows}, {"not_yet_reproduced", not_yet}};
}

std::string published(const Json& row) {
  const double lo = row["published_lo"].get<double>(), hi = row["published_hi"].get<double>();
  if (hi == 0) return "none";
  return lo == hi ? fmt::format("{:g} {}", lo, row["unit"].get<std::string>())
                  : fmt::format("{:g}-{:g} {}", lo, hi, row["unit"].get<std::string>());
}

}  // namespace

const std::vector<std::string>& validation_cases() {
  static const std::vector<std::string> c = {"validation"};
  return c;
}

Json run_validation_case(const std::string& name) {
  if (name == "validation") return validation();
  return Json();
}

bool validation_failed(const Json& all) {
  if (!all.contains("validation")) return false;
  for (const auto& row : all["validation"]["rows"]) {
    if (!row.contains("model")) return true;
  }
  return false;
}

void print_validation_summary(const Json& all) {
  if (!all.contains("validation")) return;
  const Json& v = all["validation"];
  std::printf("\nValidation against published measurements\n");
  std::printf("%-18s %-64s %14s %14s %7s\n", "machine", "figure", "published", "model", "ratio");
  for (const auto& row : v["rows"]) {
    const std::string model =
        row.contains("model")
            ? fmt::format("{:.4g} {}", row["model"].get<double>(), row["unit"].get<std::string>())
            : std::string("failed");
    const std::string ratio =
        row.contains("ratio") ? fmt::format("{:.3f}", row["ratio"].get<double>()) : "-";
    std::printf("%-18s %-64s %14s %14s %7s\n", row["machine"].get<std::string>().c_str(),
                row["figure"].get<std::string>().c_str(), published(row).c_str(), model.c_str(),
                ratio.c_str());
    std::printf("%-18s   %s\n", "", row["command"].get<std::string>().c_str());
    if (row["machine"].get<std::string>() == "Blue Gene/P torus" ||
        row["machine"].get<std::string>() == "Roadrunner TriBlade") {  // what the figure means
      std::printf("%-18s   (%s)\n", "", row["note"].get<std::string>().c_str());
    }
  }
  std::printf("Not yet reproduced:\n");
  for (const auto& m : v["not_yet_reproduced"]) {
    std::printf("%-18s %-48s %s: %s\n", m["machine"].get<std::string>().c_str(),
                m["figure"].get<std::string>().c_str(), m["published"].get<std::string>().c_str(),
                m["reason"].get<std::string>().c_str());
  }
}

}  // namespace hs::bench
