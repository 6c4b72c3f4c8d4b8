#include "testbench/runner/scenario_file.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "tlm/common/errors.h"
#include "tlm/common/spelling.h"
#include "tlm/params/json_input.h"

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

// Where object keys and lines are in the file's text, indexed once so that locating every
// parameter stays linear in the file's size however many parameters it sets.
class TextIndex {
 public:
  explicit TextIndex(const std::string& text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
      if (text[i] != '"') continue;
      size_t j = i + 1;  // the closing quote, past escaped characters
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      if (j >= text.size()) break;
      const size_t after = text.find_first_not_of(" \t\r\n", j + 1);
      if (after != std::string::npos && text[after] == ':') {
        keys_[text.substr(i + 1, j - i - 1)].push_back(i);
      }
      i = j;  // a JSON string holds no raw newline
    }
  }
  // The first occurrence of "key" used as an object key at or after `from`, or npos.
  size_t find_key(const std::string& key, size_t from) const {
    const auto it = keys_.find(key);
    if (it == keys_.end()) return std::string::npos;
    const auto at = std::lower_bound(it->second.begin(), it->second.end(), from);
    return at == it->second.end() ? std::string::npos : *at;
  }
  int line_of_offset(size_t offset) const {
    return 1 + static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(), offset) -
                                newlines_.begin());
  }

 private:
  std::unordered_map<std::string, std::vector<size_t>> keys_;
  std::vector<size_t> newlines_;
};

void flatten(const Json& obj, const std::string& prefix, const TextIndex& text, size_t from,
             Scenario& s) {
  for (const auto& [key, value] : obj.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    size_t pos = text.find_key(key, from);
    if (value.is_object()) {
      if (value.empty()) {
        throw InputError(
            fmt::format("{}:{}: params.{} is an empty object: it sets no parameter", s.path,
                        pos == std::string::npos ? 0 : text.line_of_offset(pos), name));
      }
      flatten(value, name, text, pos == std::string::npos ? from : pos, s);
    } else {
      const int line = pos == std::string::npos ? 0 : text.line_of_offset(pos);
      // The same parameter written flat ("a.b") and nested ({"a": {"b"}}): one value must not
      // silently win over the other.
      if (s.params.contains(name) && s.params[name] != value) {
        throw InputError(fmt::format("{}:{}: parameter '{}' is given twice, as {} (line {}) and {}",
                                     s.path, line, name, s.params[name].dump(),
                                     s.param_lines[name].get<int>(), value.dump()));
      }
      s.params[name] = value;
      s.param_lines[name] = line;
    }
  }
}

// HYBRIDSIM_SCENARIOS if set (a program of one's own linked with the installed runner sets it
// to PREFIX/share/hybridsim/scenarios); else an installed `hybridsim` runs the scenarios
// installed beside it (PREFIX/share/hybridsim/scenarios for PREFIX/bin/hybridsim); one in a
// build tree runs the source tree's.
fs::path scenario_dir() {
  if (const char* dir = std::getenv("HYBRIDSIM_SCENARIOS"); dir && *dir) return dir;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share/hybridsim/scenarios";
    if (fs::is_directory(installed, ec)) return installed;
  }
  return HYBRIDSIM_SCENARIO_DIR;
}

}  // namespace

std::vector<std::string> builtin_scenarios() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(scenario_dir())) {
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string launcher_scenario(const std::string& name) {
  return (scenario_dir() / "launchers" / (name + ".json")).string();
}

std::string resolve_scenario(const std::string& name_or_path) {
  // error_code forms: a name the file system refuses (too long, say) is simply not found.
  std::error_code ec;
  if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
  const fs::path builtin = scenario_dir() / (name_or_path + ".json");
  if (name_or_path.find('/') == std::string::npos && fs::is_regular_file(builtin, ec)) {
    return builtin.string();
  }
  // A launcher's scenario (it runs a program the user names: hybrid_program) by its name too.
  const fs::path launcher = launcher_scenario(name_or_path);
  if (name_or_path.find('/') == std::string::npos && fs::is_regular_file(launcher, ec)) {
    return launcher.string();
  }
  if (fs::is_directory(name_or_path, ec)) {
    throw InputError(
        fmt::format("scenario '{}' is a directory, not a scenario file", name_or_path));
  }
  std::string known;
  const auto names = builtin_scenarios();
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  const std::string guess = closest(name_or_path, names);
  throw InputError(
      fmt::format("scenario '{}': no such file, and not a built-in scenario{} ({})", name_or_path,
                  guess.empty() ? "" : fmt::format("; did you mean '{}'?", guess), known));
}

Scenario load_scenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open scenario file", path));
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  check_json_input(text, path);
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
  } catch (const Json::exception& e) {
    // A number beyond a double's range is not a syntax error (it has no position).
    throw InputError(fmt::format("{}: malformed JSON: {}", path, e.what()));
  }
  const TextIndex index(text);
  auto where = [&](const std::string& key) {
    size_t pos = index.find_key(key, 0);
    return fmt::format("{}:{}", path, pos == std::string::npos ? 1 : index.line_of_offset(pos));
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
    size_t from = index.find_key("params", 0);
    flatten(j["params"], "", index, from == std::string::npos ? 0 : from, s);
  }
  return s;
}

}  // namespace hs::runner
