// A run's statistics as CSV, one row per statistic: group, statistic, value, unit,
// description. Histograms give their mean (with count, min and max in their own rows) and
// occupancies their mean (and peak), so every row is one number a spreadsheet can take.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace hs::runner {

// `stats` is the report's "stats" object; units and descriptions come from the registry.
std::string stats_csv(const nlohmann::json& stats);

}  // namespace hs::runner
