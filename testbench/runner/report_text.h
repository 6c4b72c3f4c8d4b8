// The human-readable run report, printed after a run, derived from the JSON report.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>

namespace hs::runner {

void write_text_report(const nlohmann::json& report, std::ostream& out);
// The checks section: a verdict line, every check with its verdict and evaluation count, and
// the violations with the check each broke.
void write_checks(const nlohmann::json& checks, std::ostream& out);

}  // namespace hs::runner
