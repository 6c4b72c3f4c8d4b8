#include "testbench/runner/stats_csv.h"

#include <fmt/format.h>

#include "tlm/stats/statistics.h"

namespace hs::runner {

namespace {

// A CSV field: quoted when it holds a separator, a quote or a line break.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(const nlohmann::json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  return fmt::format("{}", v.get<double>());
}

}  // namespace

std::string stats_csv(const nlohmann::json& stats, const nlohmann::json& results,
                      const ResultCatalogue& declared) {
  std::string out = "group,statistic,value,unit,description\n";
  auto row = [&out](const std::string& group, const std::string& name, const std::string& value,
                    const std::string& unit, const std::string& desc) {
    out += field(group) + "," + field(name) + "," + value + "," + field(unit) + "," + field(desc) +
           "\n";
  };
  // Every reported group, another partition's included in a parallel run.
  for (const auto& [path, catalogue] : StatsRegistry::instance().reported_catalogue()) {
    if (!stats.contains(path)) continue;
    const auto& values = stats[path];
    for (const auto& m : catalogue) {
      if (!values.contains(m.name)) continue;
      const auto& v = values[m.name];
      if (v.is_number()) {
        row(path, m.name, number(v), m.unit, m.description);
      } else if (v.is_object()) {  // a histogram or an occupancy: each figure its own row
        for (const char* part : {"mean", "count", "min", "max", "peak"}) {
          if (v.contains(part) && v[part].is_number()) {
            row(path, m.name + "." + part, number(v[part]),
                std::string(part) == "count" ? "samples" : m.unit, m.description);
          }
        }
      }
    }
  }
  ResultCatalogue::leaves(results, [&](const std::string& path, const nlohmann::json& v) {
    const ResultInfo* info = declared.find(path);
    const std::string unit = info ? info->unit : "", desc = info ? info->description : "";
    const auto one = [&](const std::string& name, const nlohmann::json& x) {
      const std::string value = x.is_number()    ? number(x)
                                : x.is_boolean() ? std::string(x.get<bool>() ? "yes" : "no")
                                : x.is_string()  ? field(x.get<std::string>())
                                                 : std::string();
      row("results", name, value, unit, desc);
    };
    if (!v.is_array()) return one(path, v);
    for (size_t i = 0; i < v.size(); ++i) one(path + "/" + std::to_string(i), v[i]);
  });
  return out;
}

}  // namespace hs::runner
