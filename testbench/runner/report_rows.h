// Workload results as readable rows rather than JSON: scalars as "name  value", each value in
// its declared unit (result_catalogue.h) in engineering notation (times in ns, us or ms, sizes
// in B, KiB or MiB, fractions as percentages, counts with digit groups, other numbers with at
// most four significant digits and an exponent that is a multiple of three); lists of records
// as tables, records of records with the same fields (link utilisation by direction) as one
// table, other records as indented sections. Long tables are cut, saying how many rows the
// JSON report has. Without a declaration, the unit is read from the name (_ns, _bytes, _GBps).
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "testbench/runner/result_catalogue.h"

namespace hs::runner {

void write_result_rows(const nlohmann::json& results, std::ostream& out,
                       const ResultCatalogue* declared = nullptr, int indent = 2);

// One value as the report prints it, in `unit` ("" : a plain number).
std::string format_value(const nlohmann::json& value, const std::string& unit);
// The same, with the unit its name implies (for results nobody declared).
std::string format_result(const std::string& name, const nlohmann::json& value);
// The unit a result's name implies: "ns" for _ns, "B" for bytes, "GB/s" for _GBps, ...
std::string unit_from_name(const std::string& name);

std::string human_time(double ns);
std::string human_bytes(double bytes);
// A number in engineering notation: integers with digit groups, others with at most four
// significant digits and, beyond 10^4 or below 10^-3, an exponent that is a multiple of 3.
std::string engineering(double x);

}  // namespace hs::runner
