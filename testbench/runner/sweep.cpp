#include "testbench/runner/sweep.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "testbench/runner/scenario_file.h"
#include "tlm/common/errors.h"

namespace hs::runner {

namespace fs = std::filesystem;
using Json = nlohmann::json;

SweepSpec load_sweep(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open sweep file", path));
  Json j;
  try {
    j = Json::parse(in);
  } catch (const Json::parse_error& e) {
    throw InputError(fmt::format("{}: malformed JSON at byte {}: {}", path, e.byte, e.what()));
  }
  if (!j.is_object()) throw InputError(path + ": a sweep must be a JSON object");
  for (const auto& [k, _] : j.items()) {
    if (k != "scenario" && k != "params" && k != "seeds" && k != "stats") {
      throw InputError(
          fmt::format("{}: unknown sweep field '{}' (fields: scenario, params, "
                      "seeds, stats)",
                      path, k));
    }
  }
  SweepSpec s;
  s.path = path;
  if (!j.contains("scenario") || !j["scenario"].is_string()) {
    throw InputError(path + ": 'scenario' (a scenario name or file) is required");
  }
  s.scenario = j["scenario"].get<std::string>();
  // Relative scenario paths are relative to the sweep file.
  if (!fs::exists(s.scenario) && s.scenario.find('/') != std::string::npos) {
    s.scenario = (fs::path(path).parent_path() / s.scenario).string();
  }
  resolve_scenario(s.scenario);  // throws if it does not exist
  if (!j.contains("params") || !j["params"].is_object() || j["params"].empty()) {
    throw InputError(path + ": 'params' must be an object of parameter: [values...]");
  }
  for (const auto& [name, list] : j["params"].items()) {
    if (!list.is_array() || list.empty()) {
      throw InputError(fmt::format("{}: params.{} must be a non-empty list of values", path, name));
    }
    s.names.push_back(name);
    s.values.emplace_back(list.begin(), list.end());
  }
  s.seeds = {1};
  if (j.contains("seeds")) {
    if (!j["seeds"].is_array() || j["seeds"].empty()) {
      throw InputError(path + ": 'seeds' must be a non-empty list of integers");
    }
    s.seeds.clear();
    for (const auto& v : j["seeds"]) {
      if (!v.is_number_unsigned()) throw InputError(path + ": seeds must be non-negative integers");
      s.seeds.push_back(v.get<uint64_t>());
    }
  }
  s.stats = {"simulated_time_ns"};
  if (j.contains("stats")) {
    if (!j["stats"].is_array()) throw InputError(path + ": 'stats' must be a list of strings");
    s.stats.clear();
    for (const auto& v : j["stats"]) {
      if (!v.is_string()) throw InputError(path + ": 'stats' must be a list of strings");
      s.stats.push_back(v.get<std::string>());
    }
  }
  return s;
}

std::vector<SweepPoint> expand(const SweepSpec& spec) {
  std::vector<SweepPoint> points;
  std::vector<size_t> idx(spec.names.size(), 0);
  for (;;) {
    for (uint64_t seed : spec.seeds) {
      SweepPoint p{points.size(), {}, seed};
      for (size_t i = 0; i < idx.size(); ++i) p.values.push_back(spec.values[i][idx[i]]);
      points.push_back(std::move(p));
    }
    size_t k = idx.size();
    while (k > 0) {
      --k;
      if (++idx[k] < spec.values[k].size()) break;
      idx[k] = 0;
      if (k == 0) return points;
    }
    if (idx.empty()) return points;
  }
}

Json select_stat(const Json& report, const std::string& stat) {
  auto colon = stat.find(':');
  if (colon == std::string::npos) return report.value(stat, Json());
  const std::string head = stat.substr(0, colon), rest = stat.substr(colon + 1);
  if (head == "results") {
    try {
      return report["results"].at(Json::json_pointer("/" + rest));
    } catch (...) {
      return Json();
    }
  }
  if (!report["stats"].contains(head)) return Json();
  return report["stats"][head].value(rest, Json());
}

std::string csv_field(const Json& v) {
  if (v.is_null()) return "";
  const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

namespace {

std::string as_assignment(const std::string& name, const Json& v) {
  return name + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
}

pid_t launch(const std::string& self, const SweepSpec& spec, const SweepPoint& p,
             const std::string& dir) {
  std::vector<std::string> args = {self,          "run",
                                   spec.scenario, "--quiet",
                                   "--seed",      std::to_string(p.seed),
                                   "--report",    fmt::format("{}/point_{}.json", dir, p.index)};
  for (size_t i = 0; i < spec.names.size(); ++i) {
    args.push_back("--set");
    args.push_back(as_assignment(spec.names[i], p.values[i]));
  }
  const std::string log = fmt::format("{}/point_{}.log", dir, p.index);
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    execv(self.c_str(), argv.data());
    std::_Exit(127);
  }
  return pid;
}

}  // namespace

int run_sweep(const SweepSpec& spec, const std::string& self, int jobs, const std::string& out_dir,
              bool quiet) {
  fs::create_directories(out_dir);
  const auto points = expand(spec);
  std::map<pid_t, size_t> running;
  std::vector<int> exit_codes(points.size(), -1);
  size_t next = 0, done = 0, failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto progress = [&] {
    if (quiet) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double eta = done ? el / done * (points.size() - done) : 0;
    std::fprintf(stderr,
                 "\rsweep: %zu/%zu done, %zu failed, %zu running, elapsed %.1fs, ETA %.1fs   ",
                 done, points.size(), failed, running.size(), el, eta);
  };
  while (done < points.size()) {
    while (next < points.size() && running.size() < static_cast<size_t>(jobs)) {
      running[launch(self, spec, points[next], out_dir)] = next;
      ++next;
    }
    progress();
    int status = 0;
    pid_t pid = wait(&status);
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    exit_codes[it->second] = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (exit_codes[it->second] != 0) ++failed;
    running.erase(it);
    ++done;
  }
  progress();
  if (!quiet) std::fprintf(stderr, "\n");

  std::ofstream csv(fs::path(out_dir) / "results.csv");
  csv << "point,seed";
  for (const auto& n : spec.names) csv << "," << n;
  csv << ",status";
  for (const auto& s : spec.stats) csv << "," << s;
  csv << "\n";
  for (const auto& p : points) {
    csv << p.index << "," << p.seed;
    for (const auto& v : p.values) csv << "," << csv_field(v);
    Json report;
    std::ifstream rf(fmt::format("{}/point_{}.json", out_dir, p.index));
    if (rf) {
      try {
        report = Json::parse(rf);
      } catch (...) {
      }
    }
    const int code = exit_codes[p.index];
    csv << ","
        << (code == 0   ? "passed"
            : code == 1 ? "failed"
            : code == 2 ? "bad-input"
                        : "crashed");
    for (const auto& s : spec.stats)
      csv << "," << (report.is_null() ? "" : csv_field(select_stat(report, s)));
    csv << "\n";
  }
  if (!quiet) {
    std::fprintf(stderr, "sweep: %zu points, %zu failed; results in %s/results.csv\n",
                 points.size(), failed, out_dir.c_str());
    for (const auto& p : points) {
      if (exit_codes[p.index] != 0) {
        std::fprintf(stderr, "  point %zu failed (exit %d): see %s/point_%zu.log\n", p.index,
                     exit_codes[p.index], out_dir.c_str(), p.index);
      }
    }
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace hs::runner
