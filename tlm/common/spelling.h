// "Did you mean" for names users type: scenarios, parameters, statistics, choices.
#pragma once
#include <string>
#include <vector>

namespace hs {

// Levenshtein distance: insertions, deletions and substitutions of one character.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest `name` if it is near enough to be a misspelling (a quarter of the
// name's length, at least 3 edits), else "".
std::string closest(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace hs
