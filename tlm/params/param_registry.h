// Hierarchical model parameters.
//
// Every component declares its parameters where it is built, with a name that follows the
// SystemC hierarchy (node0.pcie0.lanes), a type, a default, a unit, a one-line description
// and a constraint. Values come from scenario files and --set overrides; an override names a
// parameter exactly or with '*' wildcards. All problems (unknown names, wrong types, values
// out of range) are collected and reported together by finalize(), before simulation starts.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hs {

using Json = nlohmann::json;

enum class ParamType { Bool, Int, Real, String };

// Where a value came from, for error messages: "scenario.json:12" or "--set".
struct ParamSource {
  std::string where;
  int priority = 0;  // higher wins: defaults 0, scenario file 1, command line 2
};

struct ParamInfo {
  std::string name;
  ParamType type;
  std::string unit;
  std::string description;
  std::string constraint;  // human-readable: "1..16", "one of 1,2,4,8"
  Json default_value;
  Json value;
  std::string source;  // "default" or where the override came from
};

// Constraint on a numeric or string parameter.
struct Range {
  std::optional<double> min, max;
  std::vector<Json> choices;  // if non-empty, the value must be one of these
  static Range between(double lo, double hi) { return Range{lo, hi, {}}; }
  static Range at_least(double lo) { return Range{lo, std::nullopt, {}}; }
  static Range one_of(std::vector<Json> c) {
    return Range{std::nullopt, std::nullopt, std::move(c)};
  }
  static Range any() { return Range{}; }
};

class ParamRegistry {
 public:
  // The registry of the current simulation (one SystemC simulation per process).
  static ParamRegistry& instance();

  // Adds an override; `name` may contain '*' (matches any run of characters, dots included).
  void set_override(const std::string& name, const Json& value, const ParamSource& src);
  // Parses "name=value" from the command line; value is JSON if it parses, else a string.
  void set_from_assignment(const std::string& assignment, const std::string& where);

  bool declare_bool(const std::string& name, bool def, const std::string& desc);
  int64_t declare_int(const std::string& name, int64_t def, const std::string& unit,
                      const std::string& desc, const Range& r = Range::any());
  double declare_real(const std::string& name, double def, const std::string& unit,
                      const std::string& desc, const Range& r = Range::any());
  std::string declare_string(const std::string& name, const std::string& def,
                             const std::string& desc, const std::vector<std::string>& choices = {});

  // Reports every problem found so far plus overrides that matched no declared parameter.
  // Throws InputError listing them all. Call once elaboration is complete.
  void finalize();
  // The values refused so far (each naming its source), for reporting them ahead of an error
  // they may have caused before finalize() ran.
  const std::vector<std::string>& value_errors() const { return errors_; }

  // A refusal of declared parameter `name`'s value found by the component that uses it, in the
  // registry's own form: "SOURCE: parameter 'NAME' WHY", naming where the value came from.
  std::string refusal(const std::string& name, const std::string& why) const;

  const std::vector<ParamInfo>& all() const { return params_; }
  const ParamInfo* find(const std::string& name) const;
  // The best-matching declared name for a misspelt one, or "".
  std::string suggest(const std::string& name) const;
  // Why `value` would be rejected by every declared parameter that `pattern` names (exactly or
  // with '*'), or "" if all accept it; used to check a sweep's values before any point runs.
  std::string check_value(const std::string& pattern, const Json& value) const;
  // Every parameter value as a flat JSON object (for reports).
  Json values_json() const;
  // Forget everything (used by tools that inspect several scenarios; not during simulation).
  void reset();

  // Replicated components (the nodes of a torus) share one set of parameters: between
  // share_begin and share_end, a name under `instance_prefix` is declared under
  // `shared_prefix` instead, and declaring it again returns the first declaration's value.
  void share_begin(const std::string& instance_prefix, const std::string& shared_prefix);
  void share_end();
  // The name a parameter declared now as `instance_name` is known by (its shared name inside
  // share_begin / share_end), for messages that must name what the user can set.
  std::string declared_name(const std::string& instance_name) const;

 private:
  struct Override {
    std::string pattern;
    Json value;
    ParamSource source;
    bool wildcard = false;
    bool used = false;
  };
  Json declare(const std::string& name, ParamType type, const Json& def, const std::string& unit,
               const std::string& desc, const Range& r);
  Override* lookup(const std::string& name);
  std::optional<Json> convert(const ParamInfo& p, const Json& v, const Range& r,
                              std::string& why) const;

  std::vector<ParamInfo> params_;
  std::vector<Range> ranges_;  // parallel to params_
  std::map<std::string, size_t> index_;
  std::vector<Override> overrides_;
  std::vector<std::string> errors_;
  std::string share_from_, share_to_;
};

// Scope guard for ParamRegistry::share_begin / share_end.
class SharedParams {
 public:
  SharedParams(const std::string& instance_prefix, const std::string& shared_prefix) {
    ParamRegistry::instance().share_begin(instance_prefix, shared_prefix);
  }
  ~SharedParams() { ParamRegistry::instance().share_end(); }
  SharedParams(const SharedParams&) = delete;
  SharedParams& operator=(const SharedParams&) = delete;
};

// Helper bound to one component's hierarchical prefix: scope.int_("lanes", ...) declares
// "<prefix>.lanes".
class ParamScope {
 public:
  explicit ParamScope(std::string prefix) : prefix_(std::move(prefix)) {}
  std::string name(const std::string& leaf) const {
    return prefix_.empty() ? leaf : prefix_ + "." + leaf;
  }
  bool flag(const std::string& leaf, bool def, const std::string& desc) const {
    return ParamRegistry::instance().declare_bool(name(leaf), def, desc);
  }
  int64_t integer(const std::string& leaf, int64_t def, const std::string& unit,
                  const std::string& desc, const Range& r = Range::any()) const {
    return ParamRegistry::instance().declare_int(name(leaf), def, unit, desc, r);
  }
  double real(const std::string& leaf, double def, const std::string& unit, const std::string& desc,
              const Range& r = Range::any()) const {
    return ParamRegistry::instance().declare_real(name(leaf), def, unit, desc, r);
  }
  std::string choice(const std::string& leaf, const std::string& def, const std::string& desc,
                     const std::vector<std::string>& choices) const {
    return ParamRegistry::instance().declare_string(name(leaf), def, desc, choices);
  }
  // Free text (a file name, coordinates): any string; the caller validates it.
  std::string text(const std::string& leaf, const std::string& def, const std::string& desc) const {
    return ParamRegistry::instance().declare_string(name(leaf), def, desc, {});
  }
  const std::string& prefix() const { return prefix_; }

 private:
  std::string prefix_;
};

const char* to_string(ParamType t);

}  // namespace hs
