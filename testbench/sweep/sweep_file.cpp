#include "testbench/sweep/sweep_file.h"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

#include "testbench/runner/parallel_run.h"
#include "testbench/runner/scenario_file.h"
#include "testbench/sweep/value_range.h"
#include "tlm/common/errors.h"
#include "tlm/params/json_input.h"

namespace hs::sweep {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// FNV-1a, 64 bits, as 16 hex digits: stable across builds and machines.
std::string fnv1a_hex(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

const std::set<std::string> kFields = {"scenario", "fixed", "params", "zip",    "seeds",
                                       "repeats",  "seed",  "stats",  "sample", "processes"};

// SplitMix64: a well-mixed 64-bit value from a counter, so point i's draw needs no state
// from points before it.
uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t seed_value(const Json& v, const std::string& where) {
  if (!v.is_number_unsigned()) {
    throw InputError(fmt::format("{} must be a non-negative integer, got {}", where, v.dump()));
  }
  return v.get<uint64_t>();
}

// "processes": P, a whole number from 1 to kMaxProcesses; above 1 only for a scenario whose
// workload runs partitioned, which is checked here rather than in every point's log.
void read_processes(const Json& j, const std::string& file, SweepSpec& s) {
  if (!j.contains("processes")) return;
  constexpr int kMaxProcesses = 4096;
  const Json& v = j["processes"];
  const double p = v.is_number() ? v.get<double>() : 0;
  if (!v.is_number() || p != static_cast<double>(static_cast<int64_t>(p)) || p < 1 ||
      p > kMaxProcesses) {
    throw InputError(fmt::format(
        "{}: 'processes' must be a whole number of processes from 1 to {} (each point runs "
        "partitioned over them), got {}",
        file, kMaxProcesses, v.dump()));
  }
  s.processes = static_cast<int>(p);
  if (s.processes == 1 || s.scenario.empty()) return;
  const std::string workload = runner::load_scenario(runner::resolve_scenario(s.scenario)).workload;
  const auto& ok = runner::partitionable_workloads();
  if (std::find(ok.begin(), ok.end(), workload) == ok.end()) {
    throw InputError(fmt::format(
        "{}: 'processes': {}: the scenario's workload {} does not run partitioned over "
        "processes (those that do: {}); leave 'processes' out to run each point as one process",
        file, s.processes, workload, fmt::join(ok, ", ")));
  }
}

// "sample": {"points": N, "draw": D}: N points drawn at random (1 to a million).
void read_sample(const Json& j, const std::string& file, SweepSpec& s, InputProblems& problems) {
  if (!j.contains("sample")) return;
  const Json& sample = j["sample"];
  const std::string where = file + ": 'sample'";
  if (!sample.is_object() || !sample.contains("points")) {
    problems.add(where + " must be {\"points\": N} with an optional \"draw\" seed");
    return;
  }
  for (const auto& [k, _] : sample.items()) {
    if (k != "points" && k != "draw") {
      problems.add(fmt::format("{}: unknown field '{}' (fields: points, draw)", where, k));
    }
  }
  problems.attempt([&] {
    const uint64_t n = seed_value(sample["points"], where + ".points");
    if (n == 0 || n > 1'000'000) {
      throw InputError(fmt::format("{}.points must be 1 to 1000000, got {}", where, n));
    }
    s.sample_points = n;
  });
  problems.attempt([&] {
    if (sample.contains("draw")) s.sample_draw = seed_value(sample["draw"], where + ".draw");
  });
  if (j.contains("repeats") || j.contains("seeds")) {
    problems.add(file +
                 ": a sampled sweep gives each point its own seed ('seed' + index); "
                 "'repeats' and 'seeds' do not apply");
  }
}

std::vector<uint64_t> read_seeds(const Json& j, const std::string& file, InputProblems& problems) {
  if (j.contains("seeds") && (j.contains("repeats") || j.contains("seed"))) {
    problems.add(file + ": give either 'seeds' or 'repeats' (with an optional first 'seed')");
    return {};
  }
  std::vector<uint64_t> seeds;
  if (j.contains("seeds")) {
    if (!j["seeds"].is_array() || j["seeds"].empty()) {
      problems.add(file + ": 'seeds' must be a non-empty list of integers");
      return {};
    }
    std::set<uint64_t> seen;
    for (size_t i = 0; i < j["seeds"].size(); ++i) {
      problems.attempt([&] {
        const uint64_t s = seed_value(j["seeds"][i], fmt::format("{}: seeds[{}]", file, i));
        if (!seen.insert(s).second)
          throw InputError(fmt::format("{}: seed {} is listed twice", file, s));
        seeds.push_back(s);
      });
    }
    return seeds;
  }
  uint64_t first = 1, repeats = 1;
  problems.attempt([&] {
    if (j.contains("seed")) first = seed_value(j["seed"], file + ": 'seed'");
  });
  problems.attempt([&] {
    if (!j.contains("repeats")) return;
    repeats = seed_value(j["repeats"], file + ": 'repeats'");
    if (repeats == 0 || repeats > 10000) {
      repeats = 1;
      throw InputError(fmt::format("{}: 'repeats' must be 1 to 10000, got {}", file,
                                   j["repeats"].get<uint64_t>()));
    }
  });
  if (first > std::numeric_limits<uint64_t>::max() - (repeats - 1)) {
    problems.add(fmt::format("{}: seeds from {} for {} repeats pass the largest seed, {}", file,
                             first, repeats, std::numeric_limits<uint64_t>::max()));
    return {};
  }
  for (uint64_t r = 0; r < repeats; ++r) seeds.push_back(first + r);
  return seeds;
}

std::vector<std::string> read_stats(const Json& j, const std::string& file,
                                    InputProblems& problems) {
  if (!j.contains("stats")) return {"simulated_time_ns"};
  if (!j["stats"].is_array() || j["stats"].empty()) {
    problems.add(file + ": 'stats' must be a non-empty list of strings");
    return {};
  }
  std::vector<std::string> stats;
  std::set<std::string> seen;
  for (const auto& v : j["stats"]) {
    if (!v.is_string() || v.get<std::string>().empty()) {
      problems.add(fmt::format("{}: 'stats' must be a list of names, got {}", file, v.dump()));
      continue;
    }
    const auto s = v.get<std::string>();
    const auto colon = s.find(':');
    if (colon == 0 || colon + 1 == s.size()) {
      problems.add(fmt::format("{}: stat '{}' must be FIELD, GROUP:STAT or results:PATH", file, s));
    } else if (!seen.insert(s).second) {
      problems.add(fmt::format("{}: stat '{}' is listed twice", file, s));
    } else {
      stats.push_back(s);
    }
  }
  return stats;
}

// Groups the parameters into axes: one per parameter, except zipped ones, which share the
// axis of the first of them. Every parameter's values and every zip group are checked; a
// parameter whose values are unsound is left out, and so is a zip group with a problem (its
// members become axes of their own), so the rest can still be checked against the model.
std::vector<SweepAxis> read_axes(const Json& j, const std::vector<std::string>& param_order,
                                 const std::string& file, InputProblems& problems) {
  if (!j.contains("params") || !j["params"].is_object() || j["params"].empty()) {
    problems.add(file + ": 'params' must be an object of parameter: values (list or range)");
    return {};
  }
  std::vector<std::string> names;
  std::vector<std::vector<Json>> lists;
  std::vector<bool> expanded;
  for (const auto& name : param_order) {
    names.push_back(name);
    lists.emplace_back();
    expanded.push_back(problems.attempt([&] {
      lists.back() = expand_values(j["params"][name], fmt::format("{}: params.{}", file, name));
    }));
  }
  std::vector<int> group_of(names.size(), -1);
  std::vector<bool> group_ok;
  if (j.contains("zip")) {
    const Json& zip = j["zip"];
    if (!zip.is_array()) {
      problems.add(file + ": 'zip' must be a list of lists of parameter names");
      return {};
    }
    for (size_t g = 0; g < zip.size(); ++g) {
      const bool zipped = problems.attempt([&] {
        const std::string where = fmt::format("{}: zip[{}]", file, g);
        if (!zip[g].is_array() || zip[g].size() < 2) {
          throw InputError(where + " must list two or more parameter names");
        }
        size_t first = names.size();
        for (const auto& n : zip[g]) {
          const auto it = n.is_string()
                              ? std::find(names.begin(), names.end(), n.get<std::string>())
                              : names.end();
          if (it == names.end()) {
            throw InputError(fmt::format("{}: {} is not one of 'params'", where, n.dump()));
          }
          const size_t i = static_cast<size_t>(it - names.begin());
          if (group_of[i] != -1) {
            throw InputError(fmt::format("{}: '{}' is already zipped", where, names[i]));
          }
          group_of[i] = static_cast<int>(g);
          if (first == names.size()) first = i;
          // Lengths are comparable only between lists that expanded.
          if (expanded[i] && expanded[first] && lists[i].size() != lists[first].size()) {
            throw InputError(
                fmt::format("{}: '{}' has {} values but '{}' has {}; zipped lists must "
                            "have equal length",
                            where, names[i], lists[i].size(), names[first], lists[first].size()));
          }
        }
      });
      group_ok.push_back(zipped);
    }
  }
  std::vector<SweepAxis> axes;
  std::vector<int> axis_of_group(group_ok.size(), -1);
  for (size_t i = 0; i < names.size(); ++i) {
    if (!expanded[i]) continue;
    const int g = group_of[i] >= 0 && group_ok[static_cast<size_t>(group_of[i])] ? group_of[i] : -1;
    if (g >= 0 && axis_of_group[g] >= 0) {
      auto& axis = axes[static_cast<size_t>(axis_of_group[g])];
      axis.names.push_back(names[i]);
      axis.values.push_back(lists[i]);
      continue;
    }
    if (g >= 0) axis_of_group[g] = static_cast<int>(axes.size());
    axes.push_back(SweepAxis{{names[i]}, {lists[i]}});
  }
  return axes;
}

}  // namespace

std::vector<std::string> SweepSpec::swept_names() const {
  std::vector<std::string> out;
  for (const auto& a : axes) out.insert(out.end(), a.names.begin(), a.names.end());
  return out;
}

size_t SweepSpec::point_count() const {
  if (sampled()) return sample_points;
  size_t n = seeds.size();
  for (const auto& a : axes) {
    if (__builtin_mul_overflow(n, a.size(), &n)) return std::numeric_limits<size_t>::max();
  }
  return n;
}

void SweepSpec::check_point_count(const std::string& where) const {
  const size_t n = point_count();
  if (n <= kMaxPoints) return;
  throw InputError(fmt::format("{}: the sweep has {} points (a million at most)", where,
                               n == std::numeric_limits<size_t>::max()
                                   ? fmt::format("more than {}", n)
                                   : fmt::format("{}", n)));
}

Json SweepSpec::to_json() const {
  Json axes_json = Json::array();
  for (const auto& a : axes) {
    Json names_json = a.names, values_json = Json::array();
    for (const auto& v : a.values) values_json.push_back(v);
    axes_json.push_back({{"names", names_json}, {"values", values_json}});
  }
  return {{"file", path},
          {"scenario", scenario},
          {"scenario_digest", scenario_digest},
          {"fixed", fixed},
          {"axes", axes_json},
          {"seeds", seeds},
          {"stats", stats},
          {"sample", {{"points", sample_points}, {"draw", sample_draw}}},
          {"processes", processes}};
}

SweepSpec SweepSpec::from_json(const Json& j, const std::string& where) {
  try {
    SweepSpec s;
    s.path = j.at("file").get<std::string>();
    s.scenario = j.at("scenario").get<std::string>();
    s.scenario_digest = j.at("scenario_digest").get<std::string>();
    s.fixed = j.at("fixed");
    for (const auto& a : j.at("axes")) {
      SweepAxis axis;
      axis.names = a.at("names").get<std::vector<std::string>>();
      for (const auto& v : a.at("values")) axis.values.emplace_back(v.begin(), v.end());
      if (axis.names.empty() || axis.names.size() != axis.values.size())
        throw std::out_of_range("axes");
      for (const auto& list : axis.values) {
        if (list.empty() || list.size() != axis.values.front().size())
          throw std::out_of_range("axes");
      }
      s.axes.push_back(std::move(axis));
    }
    s.seeds = j.at("seeds").get<std::vector<uint64_t>>();
    s.stats = j.at("stats").get<std::vector<std::string>>();
    s.sample_points = j.at("sample").at("points").get<size_t>();
    s.sample_draw = j.at("sample").at("draw").get<uint64_t>();
    s.processes = j.value("processes", 1);
    if (s.processes < 1) throw std::out_of_range("processes");
    if (s.sampled() && s.seeds.size() != 1) throw std::out_of_range("seeds");
    if (s.seeds.empty()) throw std::out_of_range("seeds");
    s.check_point_count(where);
    return s;
  } catch (const Json::exception& e) {
    throw InputError(fmt::format("{}: not a frozen sweep ({})", where, e.what()));
  } catch (const std::out_of_range&) {
    throw InputError(fmt::format("{}: not a frozen sweep (bad axes or seeds)", where));
  }
}

SweepSpec read_sweep(const std::string& path, InputProblems& problems) {
  SweepSpec s;
  s.path = path;
  s.seeds.clear();
  s.stats.clear();
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    problems.add(fmt::format("{}: is a directory, not a sweep file", path));
    return s;
  }
  std::ifstream in(path);
  std::string text;
  if (in) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in) {
    problems.add(fmt::format("{}: cannot open sweep file", path));
    return s;
  }
  Json j;
  std::vector<std::string> param_order;  // axes follow the file's order, which Json sorts away
  try {
    if (!problems.attempt([&] { check_json_input(text, path); })) return s;
    const auto ordered = nlohmann::ordered_json::parse(text);
    if (ordered.is_object() && ordered.contains("params") && ordered["params"].is_object()) {
      for (const auto& [name, _] : ordered["params"].items()) param_order.push_back(name);
    }
    j = Json::parse(ordered.dump());
  } catch (const nlohmann::ordered_json::parse_error& e) {
    problems.add(fmt::format("{}: malformed JSON at byte {}: {}", path, e.byte, e.what()));
    return s;
  } catch (const nlohmann::ordered_json::exception& e) {  // a number beyond a double's range
    problems.add(fmt::format("{}: malformed JSON: {}", path, e.what()));
    return s;
  }
  if (!j.is_object()) {
    problems.add(path + ": a sweep must be a JSON object");
    return s;
  }
  // Every field is checked on its own so one run lists every problem in the file.
  for (const auto& [k, _] : j.items()) {
    if (!kFields.count(k)) {
      problems.add(fmt::format(
          "{}: unknown sweep field '{}' (fields: scenario, fixed, params, zip, seeds, repeats, "
          "seed, stats, sample, processes)",
          path, k));
    }
  }
  problems.attempt([&] {
    if (!j.contains("scenario") || !j["scenario"].is_string()) {
      throw InputError(path + ": 'scenario' (a scenario name or file) is required");
    }
    std::string scenario = j["scenario"].get<std::string>();
    // A relative path is relative to the sweep file, wherever the sweep is run from; a name
    // with no file beside the sweep file is a built-in scenario.
    if (fs::path(scenario).is_relative()) {
      const fs::path beside = fs::absolute(fs::path(path).parent_path() / scenario);
      std::error_code missing;
      if (scenario.find('/') != std::string::npos || fs::is_regular_file(beside, missing)) {
        scenario = beside.lexically_normal().string();
      }
    }
    try {
      s.scenario_digest = scenario_digest(runner::resolve_scenario(scenario));
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}", path, e.what()));
    }
    s.scenario = scenario;
  });
  if (j.contains("fixed")) {
    if (!j["fixed"].is_object()) {
      problems.add(path + ": 'fixed' must be an object of name: value");
    } else {
      for (const auto& [name, v] : j["fixed"].items()) {
        if (v.is_array() || v.is_object() || v.is_null()) {
          problems.add(fmt::format("{}: fixed.{} must be one number, string or bool", path, name));
        } else {
          s.fixed[name] = v;
        }
      }
    }
  }
  s.axes = read_axes(j, param_order, path, problems);
  for (const auto& n : param_order) {
    if (s.fixed.contains(n)) problems.add(fmt::format("{}: '{}' is both fixed and swept", path, n));
  }
  read_sample(j, path, s, problems);
  problems.attempt([&] { read_processes(j, path, s); });
  if (s.sampled()) {
    uint64_t first = 1;
    problems.attempt([&] {
      if (j.contains("seed")) first = seed_value(j["seed"], path + ": 'seed'");
    });
    s.seeds = {first};
  } else {
    s.seeds = read_seeds(j, path, problems);
  }
  s.stats = read_stats(j, path, problems);
  problems.attempt([&] { s.check_point_count(path); });
  return s;
}

SweepSpec load_sweep(const std::string& path) {
  InputProblems problems;
  SweepSpec s = read_sweep(path, problems);
  problems.throw_if_any();
  return s;
}

std::vector<std::string> SweepPoint::assignments(const SweepSpec& spec) const {
  // Values go as JSON text so "8" stays a string and 8 a number.
  std::vector<std::string> out;
  for (const auto& [name, v] : spec.fixed.items()) out.push_back(name + "=" + v.dump());
  const auto names = spec.swept_names();
  for (size_t i = 0; i < names.size(); ++i) out.push_back(names[i] + "=" + values[i].dump());
  return out;
}

Json SweepPoint::params(const SweepSpec& spec) const {
  Json out = Json::object();
  const auto names = spec.swept_names();
  for (size_t i = 0; i < names.size(); ++i) out[names[i]] = values[i];
  return out;
}

std::string point_key(const SweepSpec& spec, const SweepPoint& point) {
  // A canonical text: nlohmann sorts object keys.
  const Json inputs = {{"scenario", spec.scenario},
                       {"scenario_digest", spec.scenario_digest},
                       {"fixed", spec.fixed},
                       {"params", point.params(spec)},
                       {"seed", point.seed}};
  return fnv1a_hex(inputs.dump());
}

std::string scenario_digest(const std::string& scenario_path) {
  std::ifstream in(scenario_path);
  if (!in) throw InputError(fmt::format("{}: cannot open scenario file", scenario_path));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const Json j = Json::parse(text, nullptr, false);
  return fnv1a_hex(j.is_discarded() ? text : j.dump());
}

namespace {

std::vector<SweepPoint> draw_points(const SweepSpec& spec) {
  std::vector<SweepPoint> points(spec.sample_points);
  for (size_t i = 0; i < points.size(); ++i) {
    SweepPoint& p = points[i];
    p.index = i;
    p.seed = spec.seeds.front() + i;
    uint64_t state = splitmix64(spec.sample_draw) ^ (i * 0xd1b54a32d192ed03ull);
    for (const auto& axis : spec.axes) {
      state = splitmix64(state);
      const size_t k = static_cast<size_t>(state % axis.size());
      for (const auto& list : axis.values) p.values.push_back(list[k]);
    }
    p.key = point_key(spec, p);
  }
  return points;
}

}  // namespace

std::vector<SweepPoint> expand(const SweepSpec& spec) {
  spec.check_point_count(spec.path);
  if (spec.sampled()) return draw_points(spec);
  std::vector<SweepPoint> points;
  points.reserve(spec.point_count());
  std::vector<size_t> idx(spec.axes.size(), 0);
  for (;;) {
    for (uint64_t seed : spec.seeds) {
      SweepPoint p;
      p.index = points.size();
      p.seed = seed;
      for (size_t a = 0; a < idx.size(); ++a) {
        for (const auto& list : spec.axes[a].values) p.values.push_back(list[idx[a]]);
      }
      p.key = point_key(spec, p);
      points.push_back(std::move(p));
    }
    size_t k = idx.size();
    for (;;) {
      if (k == 0) return points;
      --k;
      if (++idx[k] < spec.axes[k].size()) break;
      idx[k] = 0;
    }
  }
}

}  // namespace hs::sweep
