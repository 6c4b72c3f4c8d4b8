// A run's statistics as CSV, one row per statistic: group, statistic, value, unit,
// description. Histograms give their mean (with count, min and max in their own rows) and
// occupancies their mean (and peak), so every row is one number a spreadsheet can take.
// The workload's results follow as group "results", named by their paths (as sweeps name
// them): a list gives a row per element, a text or yes/no its value, a figure over a window
// the run never reached an empty value.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "testbench/runner/result_catalogue.h"

namespace hs::runner {

// `stats` and `results` are the report's; units and descriptions come from the registry and
// from the workload's declarations.
std::string stats_csv(const nlohmann::json& stats, const nlohmann::json& results,
                      const ResultCatalogue& declared);

}  // namespace hs::runner
