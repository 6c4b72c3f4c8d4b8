#include "testbench/runner/scenario_file.h"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tlm/common/errors.h"

#ifndef HYBRIDSIM_SCENARIO_DIR
#error "HYBRIDSIM_SCENARIO_DIR must point at testbench/scenarios"
#endif

namespace hs::runner {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

int line_of_offset(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

// Line of the first occurrence of "key" used as an object key at or after `from`.
size_t find_key(const std::string& text, const std::string& key, size_t from) {
  const std::string quoted = "\"" + key + "\"";
  for (size_t pos = text.find(quoted, from); pos != std::string::npos;
       pos = text.find(quoted, pos + 1)) {
    size_t after = text.find_first_not_of(" \t\r\n", pos + quoted.size());
    if (after != std::string::npos && text[after] == ':') return pos;
  }
  return std::string::npos;
}

void flatten(const Json& obj, const std::string& prefix, const std::string& text, size_t from,
             Scenario& s) {
  for (const auto& [key, value] : obj.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    size_t pos = find_key(text, key, from);
    if (value.is_object()) {
      flatten(value, name, text, pos == std::string::npos ? from : pos, s);
    } else {
      s.params[name] = value;
      s.param_lines[name] = pos == std::string::npos ? 0 : line_of_offset(text, pos);
    }
  }
}

}  // namespace

std::vector<std::string> builtin_scenarios() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(HYBRIDSIM_SCENARIO_DIR)) {
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string resolve_scenario(const std::string& name_or_path) {
  if (fs::is_regular_file(name_or_path)) return name_or_path;
  const fs::path builtin = fs::path(HYBRIDSIM_SCENARIO_DIR) / (name_or_path + ".json");
  if (name_or_path.find('/') == std::string::npos && fs::is_regular_file(builtin)) {
    return builtin.string();
  }
  std::string known;
  for (const auto& n : builtin_scenarios()) known += (known.empty() ? "" : ", ") + n;
  throw InputError(fmt::format("scenario '{}': no such file, and not a built-in scenario ({})",
                               name_or_path, known));
}

Scenario load_scenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open scenario file", path));
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    const size_t at = e.byte > 0 ? e.byte - 1 : 0;
    const size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
    const size_t col = at - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
    std::string what = e.what();
    if (auto p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
    throw InputError(
        fmt::format("{}:{}:{}: malformed JSON: {}", path, line_of_offset(text, at), col, what));
  }
  auto where = [&](const std::string& key) {
    size_t pos = find_key(text, key, 0);
    return fmt::format("{}:{}", path, pos == std::string::npos ? 1 : line_of_offset(text, pos));
  };
  if (!j.is_object()) throw InputError(fmt::format("{}:1: a scenario must be a JSON object", path));
  Scenario s;
  s.path = path;
  static const std::vector<std::string> kKeys = {"description", "machine", "workload", "seed",
                                                 "params"};
  for (const auto& [key, value] : j.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
      throw InputError(
          fmt::format("{}: unknown scenario field '{}' (fields: description, "
                      "machine, workload, seed, params)",
                      where(key), key));
    }
  }
  auto need_string = [&](const char* key, std::string& out, bool required) {
    if (!j.contains(key)) {
      if (required) throw InputError(fmt::format("{}: missing required field '{}'", path, key));
      return;
    }
    if (!j[key].is_string()) {
      throw InputError(
          fmt::format("{}: field '{}' must be a string, got {}", where(key), key, j[key].dump()));
    }
    out = j[key].get<std::string>();
  };
  need_string("description", s.description, false);
  need_string("machine", s.machine, false);
  need_string("workload", s.workload, true);
  if (j.contains("seed")) {
    if (!j["seed"].is_number_unsigned()) {
      throw InputError(fmt::format("{}: field 'seed' must be a non-negative integer, got {}",
                                   where("seed"), j["seed"].dump()));
    }
    s.seed = j["seed"].get<uint64_t>();
  }
  if (j.contains("params")) {
    if (!j["params"].is_object()) {
      throw InputError(
          fmt::format("{}: field 'params' must be an object of name: value", where("params")));
    }
    size_t from = find_key(text, "params", 0);
    flatten(j["params"], "", text, from == std::string::npos ? 0 : from, s);
  }
  return s;
}

}  // namespace hs::runner
