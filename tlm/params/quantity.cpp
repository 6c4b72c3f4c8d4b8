#include "tlm/params/quantity.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <vector>

namespace hs {

namespace {

using Suffixes = std::vector<std::pair<std::string, double>>;

// Scale factors for each unit's suffixes, smallest first within each family.
const Suffixes* suffixes(const std::string& unit) {
  static const std::map<std::string, Suffixes> kSuffixes = {
      {"B",
       {{"B", 1},
        {"KiB", 1024.0},
        {"MiB", 1024.0 * 1024},
        {"GiB", 1024.0 * 1024 * 1024},
        {"TiB", 1024.0 * 1024 * 1024 * 1024},
        {"KB", 1e3},
        {"kB", 1e3},
        {"MB", 1e6},
        {"GB", 1e9},
        {"TB", 1e12}}},
      {"ns", {{"ps", 1e-3}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}}},
      {"Hz", {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}}},
      {"MHz", {{"MHz", 1}, {"GHz", 1e3}}},
      {"GHz", {{"MHz", 1e-3}, {"GHz", 1}}},
      {"B/s", {{"B/s", 1}, {"KB/s", 1e3}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}}},
      {"GB/s", {{"MB/s", 1e-3}, {"GB/s", 1}}},
      {"MB/s", {{"MB/s", 1}, {"GB/s", 1e3}}},
      {"Gb/s", {{"Mb/s", 1e-3}, {"Gb/s", 1}}},
  };
  auto it = kSuffixes.find(unit);
  return it == kSuffixes.end() ? nullptr : &it->second;
}

bool exact(double shown, double v) {
  return std::abs(shown - v) <= 1e-12 * std::max(std::abs(v), 1.0);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The number at the start of `text` and what follows it (spaces removed); nullopt if `text`
// does not start with a number.
std::optional<std::pair<double, std::string>> split(const std::string& text) {
  size_t pos = 0;
  double number = 0;
  try {
    number = std::stod(text, &pos);
  } catch (...) {
    return std::nullopt;
  }
  std::string suffix = text.substr(pos);
  suffix.erase(std::remove(suffix.begin(), suffix.end(), ' '), suffix.end());
  return std::make_pair(number, suffix);
}

// The scale of `suffix` in `table`: its exact spelling first, then ignoring case if that
// names one scale only ("kb" is kB and KB alike; "mb" could not be both MB and mb).
std::optional<double> scale_of(const std::string& suffix, const Suffixes& table) {
  for (const auto& [s, scale] : table) {
    if (suffix == s) return scale;
  }
  std::optional<double> found;
  for (const auto& [s, scale] : table) {
    if (lower(suffix) != lower(s)) continue;
    if (found && *found != scale) return std::nullopt;
    found = scale;
  }
  return found;
}

}  // namespace

std::optional<double> parse_quantity(const std::string& text, const std::string& unit) {
  auto parts = split(text);
  if (!parts) return std::nullopt;
  const auto& [number, suffix] = *parts;
  if (suffix.empty()) return number;  // a bare number is in the listed unit
  const Suffixes* table = suffixes(unit);
  if (!table) return std::nullopt;
  auto scale = scale_of(suffix, *table);
  if (!scale) return std::nullopt;
  return number * *scale;
}

std::string quantity_error(const std::string& text, const std::string& unit) {
  if (parse_quantity(text, unit)) return "";
  auto parts = split(text);
  if (!parts) return fmt::format("'{}' is not a number", text);
  const Suffixes* table = suffixes(unit);
  if (!table) {
    return unit.empty() ? fmt::format("'{}' takes no unit, only a number", text)
                        : fmt::format("'{}' takes a bare number of {}", text, unit);
  }
  std::vector<std::string> known;
  for (const auto& s : *table) known.push_back(s.first);
  return fmt::format("'{}' is not a unit of {} (write one of {})", parts->second, unit,
                     fmt::join(known, ", "));
}

bool is_bare_number(const std::string& text) {
  auto parts = split(text);
  return parts && parts->second.empty();
}

std::string bare_number_doubt(double v, const std::string& unit) {
  if (v == 0) return "";
  if (unit == "ns" && std::abs(v) < 1) {
    return fmt::format(
        "is bare, and a bare number is in ns: {} would be {}; write the unit (for example "
        "'{}s' or '{}ms')",
        v, format_quantity(v, "ns"), v, v);
  }
  if (unit == "Hz" && std::abs(v) < 1e3) {
    return fmt::format(
        "is bare, and a bare number is in Hz: {} would be {} Hz; write the unit (for example "
        "'{}GHz' or '{}MHz')",
        v, v, v, v);
  }
  return "";
}

bool has_suffixes(const std::string& unit) {
  return suffixes(unit) != nullptr;
}

std::string format_quantity(double v, const std::string& unit, bool integer) {
  const std::string plain = integer && std::abs(v) < 9.2e18
                                ? fmt::format("{}", static_cast<int64_t>(v))
                                : fmt::format("{}", v);
  const Suffixes* table = suffixes(unit);
  if (!table) return plain + (unit.empty() ? "" : " " + unit);
  if (v == 0) return plain + unit;
  // Of the suffixes that show the value exactly (at most 6 significant digits), the one with
  // the shortest number ("1023B", not "1.023KB"); on a tie, the larger unit.
  std::string best, best_number;
  double best_scale = 0;
  for (const auto& [s, scale] : *table) {
    const double scaled = v / scale;
    if (std::abs(scaled) < 1) continue;
    const std::string text = fmt::format("{:.6g}", scaled);
    if (!exact(std::stod(text) * scale, v)) continue;
    const bool shorter = best.empty() || text.size() < best_number.size() ||
                         (text.size() == best_number.size() && scale > best_scale);
    if (!shorter) continue;
    best = text + s;
    best_number = text;
    best_scale = scale;
  }
  return best.empty() ? plain + unit : best;
}

}  // namespace hs
