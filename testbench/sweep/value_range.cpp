#include "testbench/sweep/value_range.h"

#include <fmt/format.h>
#include <cmath>
#include <set>

#include "tlm/common/errors.h"

namespace hs::sweep {

using Json = nlohmann::json;

namespace {

double number(const Json& range, const char* key, const std::string& where) {
  if (!range.contains(key)) throw InputError(fmt::format("{}: the range needs '{}'", where, key));
  const Json& v = range[key];
  if (!v.is_number() || !std::isfinite(v.get<double>())) {
    throw InputError(fmt::format("{}.{} must be a number, got {}", where, key, v.dump()));
  }
  return v.get<double>();
}

// Number of values a range will give, checked before any vector grows.
size_t checked_count(double n, const std::string& where) {
  if (!(n >= 1) || n > static_cast<double>(kMaxAxisValues)) {
    throw InputError(fmt::format("{}: the range gives {} values (1 to {} allowed)", where,
                                 !(n >= 1)  ? std::string("no")
                                 : n < 1e15 ? fmt::format("{:.0f}", n)
                                            : fmt::format("{:.3g}", n),
                                 kMaxAxisValues));
  }
  return static_cast<size_t>(n);
}

}  // namespace

std::vector<Json> expand_values(const Json& spec, const std::string& where) {
  if (spec.is_array()) {
    if (spec.empty()) throw InputError(where + " must be a non-empty list of values");
    for (const auto& v : spec) {
      if (v.is_array() || v.is_object() || v.is_null()) {
        throw InputError(
            fmt::format("{}: values must be numbers, strings or bools, got {}", where, v.dump()));
      }
    }
    return {spec.begin(), spec.end()};
  }
  if (!spec.is_object()) {
    throw InputError(
        fmt::format("{} must be a non-empty list of values or a range object "
                    "{{\"from\", \"to\", and one of \"step\", \"count\", \"factor\"}}, got {}",
                    where, spec.dump()));
  }
  for (const auto& [k, _] : spec.items()) {
    if (k != "from" && k != "to" && k != "step" && k != "count" && k != "factor" && k != "scale") {
      throw InputError(fmt::format(
          "{}: unknown range field '{}' (fields: from, to, step, count, factor, scale)", where, k));
    }
  }
  const int kinds = spec.contains("step") + spec.contains("count") + spec.contains("factor");
  if (kinds != 1) {
    throw InputError(where + ": a range takes exactly one of 'step', 'count' or 'factor'");
  }
  const Json& scale_field = spec.contains("scale") ? spec["scale"] : Json("linear");
  const std::string scale = scale_field.is_string() ? scale_field.get<std::string>() : "";
  if (scale != "linear" && scale != "log") {
    throw InputError(
        fmt::format("{}.scale must be \"linear\" or \"log\", got {}", where, spec["scale"].dump()));
  }
  if (scale == "log" && !spec.contains("count")) {
    throw InputError(where + ": \"scale\": \"log\" goes with 'count'");
  }
  const double from = number(spec, "from", where), to = number(spec, "to", where);
  bool integral = spec["from"].is_number_integer() && spec["to"].is_number_integer();

  std::vector<double> values;
  if (spec.contains("step")) {
    const double step = number(spec, "step", where);
    integral = integral && spec["step"].is_number_integer();
    if (step == 0 || (to - from) * step < 0) {
      throw InputError(fmt::format("{}.step {} never goes from {} to {}", where, step, from, to));
    }
    const size_t n = checked_count(std::floor((to - from) / step + 1e-9) + 1, where);
    for (size_t i = 0; i < n; ++i) values.push_back(from + step * static_cast<double>(i));
  } else if (spec.contains("count")) {
    const Json& c = spec["count"];
    if (!c.is_number_unsigned() || c.get<uint64_t>() == 0) {
      throw InputError(fmt::format("{}.count must be a positive integer, got {}", where, c.dump()));
    }
    const size_t n = checked_count(static_cast<double>(c.get<uint64_t>()), where);
    if (scale == "log" && (from <= 0 || to <= 0)) {
      throw InputError(fmt::format("{}: a log range needs from and to above 0", where));
    }
    for (size_t i = 0; i < n; ++i) {
      const double t = n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(n - 1);
      values.push_back(scale == "log" ? from * std::pow(to / from, t) : from + (to - from) * t);
    }
  } else {
    const double factor = number(spec, "factor", where);
    integral = integral && spec["factor"].is_number_integer();
    if (from <= 0 || to < from || factor <= 1) {
      throw InputError(
          fmt::format("{}: a geometric range needs 0 < from <= to and factor > 1", where));
    }
    const size_t n =
        checked_count(std::floor(std::log(to / from) / std::log(factor) + 1e-9) + 1, where);
    for (size_t i = 0; i < n; ++i)
      values.push_back(from * std::pow(factor, static_cast<double>(i)));
  }

  std::vector<Json> out;
  std::set<double> seen;
  for (double v : values) {
    // Bounds near the largest doubles can step past them (from -1e308 to 1e308 in 3).
    if (!std::isfinite(v)) {
      throw InputError(
          fmt::format("{}: the range reaches {}, which is not a finite number", where, v));
    }
    if (integral && !(v > -9.2e18 && v < 9.2e18)) {
      throw InputError(fmt::format("{}: the range reaches {:g}, beyond 64-bit integers", where, v));
    }
    if (integral) {
      const auto rounded = static_cast<int64_t>(std::llround(v));
      if (!seen.insert(static_cast<double>(rounded)).second) {
        throw InputError(fmt::format(
            "{}: rounding to integers gives {} twice; use fewer values or real bounds (1.0)", where,
            rounded));
      }
      out.emplace_back(rounded);
    } else {
      // 12 significant digits: 0.1 steps give 0.3, not 0.30000000000000004.
      out.emplace_back(std::stod(fmt::format("{:.12g}", v)));
    }
  }
  return out;
}

}  // namespace hs::sweep
