// Name patterns users write ("node0.*.lanes", "*.core0"): '*' matches any run of characters,
// dots included; everything else matches itself.
#pragma once
#include <string>

namespace hs {

// Greedy with one backtrack point (the latest '*'): O(pattern x name) at worst, never
// exponential however many stars a pattern has.
bool glob_match(const std::string& pattern, const std::string& name);

}  // namespace hs
