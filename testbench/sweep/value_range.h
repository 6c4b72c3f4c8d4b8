// The values of one swept parameter: a JSON list taken as it is, or a range object.
//
//   [128, 256, 512]                               the list itself
//   {"from": 1, "to": 16, "step": 3}              linear steps: 1, 4, 7, 10, 13, 16
//   {"from": 0, "to": 1, "count": 5}              5 evenly spaced values: 0, 0.25, ... 1
//   {"from": 32, "to": 4096, "count": 8, "scale": "log"}   8 values evenly spaced in log
//   {"from": 32, "to": 4194304, "factor": 4}      geometric: 32, 128, 512, ... up to `to`
//
// When `from`, `to` and `step` (or `factor`) are integers the values are integers (log steps
// are rounded); write 1.0 to get reals. Every problem is an InputError naming `where`.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hs::sweep {

// Upper bound on the values one axis may expand to (a typo such as step 0.0001 is caught).
inline constexpr size_t kMaxAxisValues = 100000;

std::vector<nlohmann::json> expand_values(const nlohmann::json& spec, const std::string& where);

}  // namespace hs::sweep
