// The human-readable run report, printed after a run, derived from the JSON report.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "testbench/runner/result_catalogue.h"

namespace hs::runner {

// `declared`: the workload's results with their units (without it, units come from names).
void write_text_report(const nlohmann::json& report, std::ostream& out,
                       const ResultCatalogue* declared = nullptr);
// A line saying how a run cut short ended (a signal, sim.stop_at, the watchdog) and what the
// figures then cover; nothing for a run that finished its work.
void write_end(const nlohmann::json& report, std::ostream& out);
// Why a failed run failed, in a few lines (the first violations), for standard error.
std::string failure_summary(const nlohmann::json& report);
// The checks section: a verdict line, every check that applied to the run with its verdict and
// evaluation count (a check that could not run because the run was cut short says so; checks
// that never applied are counted, and listed in the JSON only), and the violations with the
// check each broke. A run cut short without a violation is not called passed.
void write_checks(const nlohmann::json& checks, std::ostream& out, bool cut_short = false);

}  // namespace hs::runner
