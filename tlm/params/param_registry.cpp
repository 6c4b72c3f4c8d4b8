#include "tlm/params/param_registry.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "tlm/common/errors.h"
#include "tlm/common/glob.h"
#include "tlm/common/spelling.h"
#include "tlm/params/json_input.h"
#include "tlm/params/quantity.h"

namespace hs {

namespace {

// A value as JSON text for messages. Command-line words are not checked for UTF-8 (a JSON
// string must be), so bytes that are not UTF-8 are shown replaced instead of throwing.
std::string shown(const Json& v) {
  return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A bound or a value with its unit, in the largest unit that shows it exactly ("100MHz").
std::string with_unit(double v, ParamType t, const std::string& unit) {
  if (!unit.empty()) return format_quantity(v, unit, t == ParamType::Int);
  return t == ParamType::Int ? fmt::format("{}", static_cast<int64_t>(v)) : fmt::format("{}", v);
}

std::string describe(const Range& r, ParamType t, const std::string& unit) {
  if (!r.choices.empty()) {
    std::string s = "one of ";
    for (size_t i = 0; i < r.choices.size(); ++i) {
      if (i) s += ",";
      s += r.choices[i].is_string() ? r.choices[i].get<std::string>() : r.choices[i].dump();
    }
    return s;
  }
  // Units with suffixes on each bound ("100MHz..10GHz"); others once, at the end.
  const bool each = has_suffixes(unit);
  auto num = [&](double v) { return with_unit(v, t, each ? unit : ""); };
  const std::string tail = each || unit.empty() ? "" : " " + unit;
  if (r.min && r.max) return num(*r.min) + ".." + num(*r.max) + tail;
  if (r.min) return ">= " + num(*r.min) + tail;
  if (r.max) return "<= " + num(*r.max) + tail;
  return "";
}

}  // namespace

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::Bool:
      return "bool";
    case ParamType::Int:
      return "int";
    case ParamType::Real:
      return "real";
    case ParamType::String:
      return "string";
  }
  return "?";
}

ParamRegistry& ParamRegistry::instance() {
  static ParamRegistry registry;
  return registry;
}

void ParamRegistry::reset() {
  params_.clear();
  ranges_.clear();
  index_.clear();
  overrides_.clear();
  errors_.clear();
}

void ParamRegistry::set_override(const std::string& name, const Json& value,
                                 const ParamSource& src) {
  for (auto& o : overrides_) {
    if (o.pattern == name) {
      if (src.priority >= o.source.priority) {
        o.value = value;
        o.source = src;
      }
      return;
    }
  }
  overrides_.push_back({name, value, src, name.find('*') != std::string::npos, false});
}

void ParamRegistry::set_from_assignment(const std::string& assignment, const std::string& where) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw InputError(fmt::format("{}: expected name=value, got '{}'", where, assignment));
  }
  std::string name = assignment.substr(0, eq);
  std::string text = assignment.substr(eq + 1);
  check_json_input(text, where);
  Json value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded() || value.is_null()) value = text;  // bare words are strings
  set_override(name, value, ParamSource{where, 2});
}

ParamRegistry::Override* ParamRegistry::lookup(const std::string& name) {
  Override* best = nullptr;
  for (auto& o : overrides_) {
    bool hit = o.wildcard ? glob_match(o.pattern, name) : o.pattern == name;
    if (!hit) continue;
    o.used = true;
    // Command line beats file; an exact name beats a pattern from the same source.
    if (!best || o.source.priority > best->source.priority ||
        (o.source.priority == best->source.priority && best->wildcard && !o.wildcard)) {
      best = &o;
    }
  }
  return best;
}

std::optional<Json> ParamRegistry::convert(const ParamInfo& p, const Json& v, const Range& r,
                                           std::string& why) const {
  Json out;
  switch (p.type) {
    case ParamType::Bool:
      if (!v.is_boolean()) {
        why = fmt::format("expects a bool (true/false), got {}", shown(v));
        return std::nullopt;
      }
      return v;
    case ParamType::String:
      // A whole number stands for its digits: `--set x_at=5` means the list "5", as "5,9" does;
      // a JSON list for its text: `--set 'workload.args=["-n","4"]'` means '["-n","4"]'.
      if (v.is_number_integer() || v.is_array()) {
        out = v.dump();
      } else if (!v.is_string()) {
        why = fmt::format("expects a string, got {}", shown(v));
        return std::nullopt;
      } else {
        out = v;
      }
      break;
    case ParamType::Int:
    case ParamType::Real: {
      double d;
      bool bare = true;
      if (v.is_number()) {
        d = v.get<double>();
      } else if (v.is_string()) {
        const std::string& text = v.get<std::string>();
        auto parsed = parse_quantity(text, p.unit);
        if (!parsed) {
          why = fmt::format("expects a number{}: {}", p.unit.empty() ? "" : " in " + p.unit,
                            quantity_error(text, p.unit));
          return std::nullopt;
        }
        d = *parsed;
        bare = is_bare_number(text);
      } else {
        why = fmt::format("expects a number, got {}", shown(v));
        return std::nullopt;
      }
      if (!std::isfinite(d)) {
        why = "expects a finite number";
        return std::nullopt;
      }
      if (bare) {
        if (auto doubt = bare_number_doubt(d, p.unit); !doubt.empty()) {
          why = doubt;
          return std::nullopt;
        }
      }
      if (p.type == ParamType::Int) {
        if (std::floor(d) != d) {
          why = fmt::format("expects an integer, got {}", shown(v));
          return std::nullopt;
        }
        // 2^63 is exact as a double; anything from there on (or below -2^63) has no int64.
        constexpr double kTwoTo63 = 9223372036854775808.0;
        bool fits = d >= -kTwoTo63 && d < kTwoTo63;
        if (v.is_number_unsigned()) {
          fits = v.get<uint64_t>() <= uint64_t{INT64_MAX};
        } else if (v.is_number_integer()) {
          fits = true;  // a signed JSON integer is an int64 as written
        }
        if (!fits) {
          why = fmt::format("value {} does not fit a 64-bit integer", shown(v));
          return std::nullopt;
        }
        // Integers written as integers keep every digit (a double holds only 53 bits).
        out = v.is_number_integer() ? v.get<int64_t>() : static_cast<int64_t>(d);
      } else {
        out = d;
      }
      if (r.min && d < *r.min) {
        why = fmt::format("value {} is below the minimum ({})", with_unit(d, p.type, p.unit),
                          describe(r, p.type, p.unit));
        return std::nullopt;
      }
      if (r.max && d > *r.max) {
        why = fmt::format("value {} is above the maximum ({})", with_unit(d, p.type, p.unit),
                          describe(r, p.type, p.unit));
        return std::nullopt;
      }
      break;
    }
  }
  if (!r.choices.empty()) {
    bool ok = std::any_of(r.choices.begin(), r.choices.end(), [&](const Json& c) {
      return c == out || (c.is_number() && out.is_number() && c.get<double>() == out.get<double>());
    });
    if (!ok) {
      why = fmt::format("value {} is not {}", shown(out), describe(r, p.type, p.unit));
      return std::nullopt;
    }
  }
  return out;
}

std::string ParamRegistry::check_value(const std::string& pattern, const Json& value) const {
  const bool wildcard = pattern.find('*') != std::string::npos;
  for (size_t i = 0; i < params_.size(); ++i) {
    const bool hit = wildcard ? glob_match(pattern, params_[i].name) : params_[i].name == pattern;
    std::string why;
    if (hit && !convert(params_[i], value, ranges_[i], why)) {
      return fmt::format("parameter '{}' {}", params_[i].name, why);
    }
  }
  return "";
}

void ParamRegistry::share_begin(const std::string& instance_prefix,
                                const std::string& shared_prefix) {
  share_from_ = instance_prefix + ".";
  share_to_ = shared_prefix + ".";
}

void ParamRegistry::share_end() {
  share_from_.clear();
  share_to_.clear();
}

std::string ParamRegistry::declared_name(const std::string& instance_name) const {
  if (!share_from_.empty() && instance_name.compare(0, share_from_.size(), share_from_) == 0) {
    return share_to_ + instance_name.substr(share_from_.size());
  }
  return instance_name;
}

Json ParamRegistry::declare(const std::string& instance_name, ParamType type, const Json& def,
                            const std::string& unit, const std::string& desc, const Range& r) {
  const std::string name = declared_name(instance_name);
  if (name != instance_name) {
    auto it = index_.find(name);
    if (it != index_.end()) {
      if (params_[it->second].type != type) {
        throw std::logic_error("shared parameter declared with two types: " + name);
      }
      return params_[it->second].value;
    }
  }
  if (index_.count(name)) {
    // Structural code declared the same name twice: a model bug, not user input.
    throw std::logic_error("parameter declared twice: " + name);
  }
  ParamInfo info{name, type, unit, desc, describe(r, type, unit), def, def, "default"};
  if (Override* o = lookup(name)) {
    std::string why;
    if (auto v = convert(info, o->value, r, why)) {
      info.value = *v;
      info.source = o->source.where;
    } else {
      errors_.push_back(fmt::format("{}: parameter '{}' {}", o->source.where, name, why));
    }
  }
  index_[name] = params_.size();
  params_.push_back(info);
  ranges_.push_back(r);
  return params_.back().value;
}

bool ParamRegistry::declare_bool(const std::string& name, bool def, const std::string& desc) {
  return declare(name, ParamType::Bool, def, "", desc, Range::any()).get<bool>();
}

int64_t ParamRegistry::declare_int(const std::string& name, int64_t def, const std::string& unit,
                                   const std::string& desc, const Range& r) {
  return declare(name, ParamType::Int, def, unit, desc, r).get<int64_t>();
}

double ParamRegistry::declare_real(const std::string& name, double def, const std::string& unit,
                                   const std::string& desc, const Range& r) {
  return declare(name, ParamType::Real, def, unit, desc, r).get<double>();
}

std::string ParamRegistry::declare_string(const std::string& name, const std::string& def,
                                          const std::string& desc,
                                          const std::vector<std::string>& choices) {
  std::vector<Json> c(choices.begin(), choices.end());
  return declare(name, ParamType::String, def, "", desc, Range::one_of(c)).get<std::string>();
}

std::string ParamRegistry::refusal(const std::string& instance_name, const std::string& why) const {
  // A replicated component's parameter goes by its shared name (torus.node.*), as it was set.
  const std::string name = declared_name(instance_name);
  const ParamInfo* p = find(name);
  const std::string from = p && p->source != "default" ? p->source + ": " : "";
  return fmt::format("{}parameter '{}' {}", from, name, why);
}

const ParamInfo* ParamRegistry::find(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &params_[it->second];
}

std::string ParamRegistry::suggest(const std::string& name) const {
  std::string best;
  size_t best_d = std::max<size_t>(3, name.size() / 4) + 1;
  for (const auto& p : params_) {
    size_t d = edit_distance(name, p.name);
    if (d < best_d) {
      best_d = d;
      best = p.name;
    }
  }
  if (best.empty()) {
    // A right leaf under a wrong prefix ("node0.pcie.lanes" for "node0.pcie0.lanes").
    auto leaf = name.substr(name.rfind('.') + 1);
    for (const auto& p : params_) {
      if (p.name.size() > leaf.size() &&
          p.name.compare(p.name.size() - leaf.size(), leaf.size(), leaf) == 0 &&
          p.name[p.name.size() - leaf.size() - 1] == '.') {
        return p.name;
      }
    }
  }
  return best;
}

void ParamRegistry::finalize() {
  InputProblems problems;
  for (const auto& e : errors_) problems.add(e);
  for (const auto& o : overrides_) {
    if (o.used) continue;
    std::string msg = fmt::format("{}: unknown parameter '{}'", o.source.where, o.pattern);
    std::string hint = o.wildcard ? "" : suggest(o.pattern);
    if (!hint.empty()) msg += fmt::format(" (did you mean '{}'?)", hint);
    if (o.wildcard) msg += " (the pattern matches no parameter)";
    problems.add(msg);
  }
  problems.throw_if_any();
}

Json ParamRegistry::values_json() const {
  Json j = Json::object();
  for (const auto& p : params_) j[p.name] = p.value;
  return j;
}

}  // namespace hs
