// Workload results as readable rows rather than JSON: scalars as "name  value" with units read
// from the name (_ns: a time; bytes: a size; _GBps, _MBps: a rate), lists of records as tables,
// records of records with the same fields (link utilisation by direction) as one table, other
// records as indented sections. Long tables are cut, saying how many rows the JSON report has.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace hs::runner {

void write_result_rows(const nlohmann::json& results, std::ostream& out, int indent = 2);

// One value as the report prints it, formatted by the unit its name implies.
std::string format_result(const std::string& name, const nlohmann::json& value);

std::string human_time(double ns);
std::string human_bytes(double bytes);

}  // namespace hs::runner
