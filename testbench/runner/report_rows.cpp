#include "testbench/runner/report_rows.h"

#include <fmt/format.h>
#include <algorithm>
#include <vector>

namespace hs::runner {

using Json = nlohmann::json;

namespace {

constexpr size_t kMaxTableRows = 16;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_record_list(const Json& v) {
  return v.is_array() && !v.empty() &&
         std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_object(); });
}

// Records whose values are all records with scalar fields: one table, a row per key.
bool is_record_of_records(const Json& v) {
  if (!v.is_object() || v.empty()) return false;
  for (const auto& [k, e] : v.items()) {
    if (!e.is_object()) return false;
    for (const auto& [f, x] : e.items()) {
      if (x.is_structured()) return false;
    }
  }
  return true;
}

void write_table(const std::vector<std::string>& row_names, const std::vector<const Json*>& rows,
                 const std::string& first_column, size_t total, std::ostream& out, int indent) {
  std::vector<std::string> columns;
  for (const Json* r : rows) {
    for (const auto& [k, v] : r->items()) {
      if (std::find(columns.begin(), columns.end(), k) == columns.end()) columns.push_back(k);
    }
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> width(columns.size() + 1, first_column.size());
  for (size_t c = 0; c < columns.size(); ++c) width[c + 1] = columns[c].size();
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> line{row_names[i]};
    for (const auto& c : columns) {
      line.push_back(rows[i]->contains(c) ? format_result(c, (*rows[i])[c]) : "-");
    }
    for (size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
    cells.push_back(std::move(line));
  }
  const std::string pad(indent, ' ');
  out << pad << fmt::format("{:<{}}", first_column, width[0]);
  for (size_t c = 0; c < columns.size(); ++c)
    out << fmt::format("  {:>{}}", columns[c], width[c + 1]);
  out << "\n";
  for (const auto& line : cells) {
    out << pad << fmt::format("{:<{}}", line[0], width[0]);
    for (size_t c = 1; c < line.size(); ++c) out << fmt::format("  {:>{}}", line[c], width[c]);
    out << "\n";
  }
  if (total > rows.size()) {
    out << pad
        << fmt::format("... {} more rows in the JSON report (--report)\n", total - rows.size());
  }
}

std::string format_number(double v) {
  if (v == static_cast<double>(static_cast<int64_t>(v)) && std::abs(v) < 1e15) {
    return fmt::format("{}", static_cast<int64_t>(v));
  }
  return fmt::format("{:.4g}", v);
}

}  // namespace

std::string human_time(double ns) {
  if (ns >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.3f} us", ns / 1e3);
  return fmt::format("{:.1f} ns", ns);
}

std::string human_bytes(double b) {
  if (b >= 1 << 30) return fmt::format("{:.2f} GiB", b / (1 << 30));
  if (b >= 1 << 20) return fmt::format("{:.2f} MiB", b / (1 << 20));
  if (b >= 1 << 10) return fmt::format("{:.1f} KiB", b / (1 << 10));
  return fmt::format("{:.0f} B", b);
}

std::string format_result(const std::string& name, const Json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "-";
  if (v.is_array()) {
    if (v.size() <= 6) {
      std::string s;
      for (const auto& e : v) s += (s.empty() ? "" : ", ") + format_result(name, e);
      return "[" + s + "]";
    }
    std::vector<double> xs;
    for (const auto& e : v) {
      if (e.is_number()) xs.push_back(e.get<double>());
    }
    if (xs.size() != v.size()) return fmt::format("{} values (see --report)", v.size());
    double sum = 0;
    for (double x : xs) sum += x;
    return fmt::format("{} values, min {} mean {} max {}", xs.size(),
                       format_result(name, *std::min_element(xs.begin(), xs.end())),
                       format_result(name, sum / static_cast<double>(xs.size())),
                       format_result(name, *std::max_element(xs.begin(), xs.end())));
  }
  if (!v.is_number()) return v.dump();
  const double x = v.get<double>();
  if (ends_with(name, "_ns")) return human_time(x);
  if (ends_with(name, "_us")) return human_time(x * 1e3);
  if (name == "bytes" || ends_with(name, "_bytes")) {
    return x >= 1024 ? fmt::format("{} ({})", human_bytes(x), format_number(x)) : human_bytes(x);
  }
  if (ends_with(name, "_GBps")) return fmt::format("{:.3f} GB/s", x);
  if (ends_with(name, "_MBps") || ends_with(name, "_MBps_per_node")) {
    return fmt::format("{:.2f} MB/s", x);
  }
  return format_number(x);
}

void write_result_rows(const Json& results, std::ostream& out, int indent) {
  const std::string pad(indent, ' ');
  size_t width = 0;
  for (const auto& [k, v] : results.items()) {
    if (!v.is_object() && !is_record_list(v)) width = std::max(width, k.size());
  }
  // Scalars first, so a record's summary reads before its tables.
  for (const auto& [k, v] : results.items()) {
    if (v.is_object() || is_record_list(v)) continue;
    out << pad << fmt::format("{:<{}}  {}\n", k, width, format_result(k, v));
  }
  for (const auto& [k, v] : results.items()) {
    if (is_record_list(v)) {
      out << pad << k << "\n";
      std::vector<std::string> names;
      std::vector<const Json*> rows;
      for (size_t i = 0; i < v.size() && i < kMaxTableRows; ++i) {
        names.push_back(std::to_string(i));
        rows.push_back(&v[i]);
      }
      write_table(names, rows, "#", v.size(), out, indent + 2);
    } else if (is_record_of_records(v)) {
      out << pad << k << "\n";
      std::vector<std::string> names;
      std::vector<const Json*> rows;
      for (const auto& [name, row] : v.items()) {
        if (rows.size() == kMaxTableRows) break;
        names.push_back(name);
        rows.push_back(&row);
      }
      write_table(names, rows, "", v.size(), out, indent + 2);
    } else if (v.is_object()) {
      out << pad << k << "\n";
      write_result_rows(v, out, indent + 2);
    }
  }
}

}  // namespace hs::runner
