// RFC 4180 CSV: fields quoted only when they hold a comma, quote or line break.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hs::sweep {

// One field: a string as it is, other JSON as its text, null as empty.
std::string csv_field(const nlohmann::json& value);

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as long as the header
  // Index of a column, or -1.
  int column(const std::string& name) const;
};

// Reads a CSV file; throws InputError naming the file and line if it is malformed.
CsvTable read_csv(const std::string& path);

}  // namespace hs::sweep
