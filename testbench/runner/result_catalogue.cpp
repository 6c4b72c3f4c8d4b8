#include "testbench/runner/result_catalogue.h"

#include <algorithm>
#include <functional>

#include "tlm/common/errors.h"
#include "tlm/common/spelling.h"

namespace hs::runner {

namespace {

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts;
  size_t from = 0;
  while (true) {
    const size_t slash = path.find('/', from);
    parts.push_back(path.substr(from, slash - from));
    if (slash == std::string::npos) return parts;
    from = slash + 1;
  }
}

bool matches(const std::vector<std::string>& pattern, const std::vector<std::string>& path) {
  if (pattern.size() != path.size()) return false;
  for (size_t i = 0; i < path.size(); ++i) {
    if (pattern[i] != "*" && pattern[i] != path[i]) return false;
  }
  return true;
}

bool is_leaf(const nlohmann::json& v) {
  if (v.is_object()) return false;
  if (!v.is_array()) return true;
  return std::none_of(v.begin(), v.end(),
                      [](const nlohmann::json& e) { return e.is_structured(); });
}

void walk(const std::string& prefix, const nlohmann::json& v,
          const std::function<void(const std::string&, const nlohmann::json&)>& fn) {
  if (is_leaf(v)) {
    fn(prefix, v);
    return;
  }
  if (v.is_object()) {
    for (const auto& [k, e] : v.items()) walk(prefix.empty() ? k : prefix + "/" + k, e, fn);
  } else {
    for (size_t i = 0; i < v.size(); ++i) walk(prefix + "/" + std::to_string(i), v[i], fn);
  }
}

}  // namespace

void ResultCatalogue::declare(std::vector<ResultInfo> results) {
  for (auto& r : results) {
    if (find(r.path)) throw ModelError("result '" + r.path + "' is declared twice");
    results_.push_back(std::move(r));
  }
}

const ResultInfo* ResultCatalogue::find(const std::string& path) const {
  const auto parts = split(path);
  for (const auto& r : results_) {
    if (matches(split(r.path), parts)) return &r;
  }
  return nullptr;
}

std::string ResultCatalogue::closest(const std::string& path) const {
  std::vector<std::string> names;
  for (const auto& r : results_) names.push_back(r.path);
  return hs::closest(path, names);
}

void ResultCatalogue::leaves(
    const nlohmann::json& results,
    const std::function<void(const std::string&, const nlohmann::json&)>& fn) {
  if (results.is_object()) walk("", results, fn);
}

bool ResultCatalogue::declares_within(const std::string& path) const {
  const auto parts = split(path);
  for (const auto& r : results_) {
    const auto pattern = split(r.path);
    if (pattern.size() > parts.size() &&
        matches(std::vector<std::string>(pattern.begin(), pattern.begin() + parts.size()), parts)) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> ResultCatalogue::undeclared(const nlohmann::json& results) const {
  std::vector<std::string> missing;
  leaves(results, [&](const std::string& path, const nlohmann::json& v) {
    // An empty list or record (no messages to list) stands for the results declared within it.
    const bool empty_level = (v.is_array() || v.is_object()) && v.empty();
    if (!find(path) && !(empty_level && declares_within(path))) missing.push_back(path);
  });
  return missing;
}

}  // namespace hs::runner
