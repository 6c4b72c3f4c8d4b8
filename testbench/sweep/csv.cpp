#include "testbench/sweep/csv.h"

#include <fmt/format.h>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "tlm/common/errors.h"

namespace hs::sweep {

std::string csv_field(const nlohmann::json& v) {
  if (v.is_null()) return "";
  const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

int CsvTable::column(const std::string& name) const {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

CsvTable read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open results file", path));
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();

  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, field_started = false;
  size_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
    } else if (c == '"' && field.empty() && !field_started) {
      quoted = field_started = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      field_started = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      record.push_back(std::move(field));
      field.clear();
      field_started = false;
      records.push_back(std::move(record));
      record.clear();
      ++line;
    } else {
      field += c;
      field_started = true;
    }
  }
  if (quoted) throw InputError(fmt::format("{}:{}: unterminated quoted field", path, line));
  if (field_started || !record.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  if (records.empty()) throw InputError(fmt::format("{}: empty results file", path));
  CsvTable t;
  t.header = std::move(records.front());
  for (size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != t.header.size()) {
      throw InputError(fmt::format("{}: row {} has {} fields, the header has {}", path, r + 1,
                                   records[r].size(), t.header.size()));
    }
    t.rows.push_back(std::move(records[r]));
  }
  return t;
}

}  // namespace hs::sweep
