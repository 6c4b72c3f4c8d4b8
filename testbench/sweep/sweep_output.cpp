#include "testbench/sweep/sweep_output.h"

#include <fmt/format.h>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "testbench/sweep/build_info.h"
#include "testbench/sweep/csv.h"
#include "tlm/common/errors.h"
#include "tlm/common/output_file.h"
#include "tlm/params/json_input.h"

namespace hs::sweep {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

void save_sweep(const SweepSpec& spec, const std::string& dir) {
  fs::create_directories(dir);
  write_output_file("sweep", (fs::path(dir) / "sweep.json").string(),
                    spec.to_json().dump(1) + "\n");
}

SweepSpec load_saved_sweep(const std::string& dir) {
  const std::string path = (fs::path(dir) / "sweep.json").string();
  std::ifstream in(path);
  std::error_code ec;
  if (!in || fs::is_directory(path, ec)) {
    throw InputError(fmt::format("{}: no sweep here (missing {})", dir, path));
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  check_json_input(text, path);  // a frozen sweep is a file a user can edit
  try {
    return SweepSpec::from_json(Json::parse(text), path);
  } catch (const Json::exception& e) {  // syntax, or a number beyond a double's range
    throw InputError(fmt::format("{}: malformed JSON: {}", path, e.what()));
  }
}

Json select_stat(const Json& report, const std::string& stat) {
  const auto colon = stat.find(':');
  if (colon == std::string::npos) return report.value(stat, Json());
  const std::string head = stat.substr(0, colon), rest = stat.substr(colon + 1);
  if (head == "results") {
    if (!report.contains("results")) return Json();
    try {
      return report["results"].at(Json::json_pointer("/" + rest));
    } catch (const Json::exception&) {
      return Json();  // no such path (or not a valid JSON pointer): the stat is absent
    }
  }
  if (!report.contains("stats") || !report["stats"].contains(head)) return Json();
  const Json& group = report["stats"][head];
  if (group.contains(rest)) return group[rest];
  // "name.part": one figure of a histogram or an occupancy (mean, count, min, max, peak).
  const auto dot = rest.rfind('.');
  if (dot == std::string::npos || !group.contains(rest.substr(0, dot))) return Json();
  return group[rest.substr(0, dot)].value(rest.substr(dot + 1), Json());
}

ResultsSummary write_results(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                             const PointStore& store, const std::string& dir,
                             const std::string& backend) {
  ResultsSummary summary;
  const auto names = spec.swept_names();
  std::string csv = "point,seed";
  for (const auto& n : names) csv += "," + csv_field(n);
  csv += ",status";
  for (const auto& s : spec.stats) csv += "," + csv_field(s);
  csv += ",error\n";

  std::vector<bool> stat_seen(spec.stats.size(), false);
  Json rows = Json::array();
  for (const auto& p : points) {
    const auto record = store.read(p.key);
    const std::string status = record ? record->status : "missing";
    Json stats = Json::object();
    if (record && record->passed()) {
      const auto report = store.read_report(p.key);
      for (size_t i = 0; i < spec.stats.size(); ++i) {
        Json v = report ? select_stat(*report, spec.stats[i]) : Json();
        stat_seen[i] = stat_seen[i] || !v.is_null();
        stats[spec.stats[i]] = std::move(v);
      }
      ++summary.passed;
    } else if (record) {
      ++summary.failed;
      summary.failures.push_back(
          fmt::format("point {} ({}): {}", p.index, record->status, record->error));
    } else {
      ++summary.missing;
    }
    csv += fmt::format("{},{}", p.index, p.seed);
    for (const auto& v : p.values) csv += "," + csv_field(v);
    csv += "," + status;
    for (const auto& s : spec.stats) csv += "," + csv_field(stats.value(s, Json()));
    csv += "," + csv_field(record ? Json(record->error) : Json()) + "\n";

    Json row = record ? record->to_json() : Json{{"key", p.key}, {"status", status}};
    row["point"] = p.index;
    row["params"] = p.params(spec);
    row["seed"] = p.seed;
    row["stats"] = stats;
    if (record) row["report"] = fs::relative(store.report_path(p.key), dir).string();
    rows.push_back(std::move(row));
  }
  if (summary.passed) {
    for (size_t i = 0; i < spec.stats.size(); ++i) {
      if (!stat_seen[i]) summary.absent_stats.push_back(spec.stats[i]);
    }
  }
  const Json meta = {
      {"hybridsim", {{"version", hybridsim_version()}, {"git_revision", git_revision()}}},
      {"written", utc_now()},
      {"backend", backend},
      {"sweep", spec.to_json()},
      {"summary",
       {{"points", points.size()},
        {"passed", summary.passed},
        {"failed", summary.failed},
        {"missing", summary.missing}}},
      {"points", rows}};
  write_output_file("results", (fs::path(dir) / "results.csv").string(), csv);
  write_output_file("results", (fs::path(dir) / "results.json").string(), meta.dump(1) + "\n");
  return summary;
}

}  // namespace hs::sweep
