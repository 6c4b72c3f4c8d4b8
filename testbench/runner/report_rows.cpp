#include "testbench/runner/report_rows.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <vector>

namespace hs::runner {

using Json = nlohmann::json;

namespace {

constexpr size_t kMaxTableRows = 16;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The declared unit of the result at `path`, or the one its name implies.
std::string unit_of(const ResultCatalogue* declared, const std::string& path,
                    const std::string& name) {
  if (declared) {
    if (const ResultInfo* info = declared->find(path)) return info->unit;
  }
  return unit_from_name(name);
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

// One table: a row per record, a column per field; `row_paths` name each row's record, for the
// units of its columns.
void write_table(const std::vector<std::string>& row_names, const std::vector<const Json*>& rows,
                 const std::vector<std::string>& row_paths, const ResultCatalogue* declared,
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
      line.push_back(rows[i]->contains(c)
                         ? format_value((*rows[i])[c], unit_of(declared, row_paths[i] + "/" + c, c))
                         : "-");
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

void write_rows(const Json& results, const std::string& prefix, std::ostream& out,
                const ResultCatalogue* declared, int indent) {
  const std::string pad(indent, ' ');
  const auto path = [&](const std::string& k) { return prefix.empty() ? k : prefix + "/" + k; };
  size_t width = 0;
  for (const auto& [k, v] : results.items()) {
    if (!v.is_object() && !is_record_list(v)) width = std::max(width, k.size());
  }
  // Scalars first, so a record's summary reads before its tables.
  for (const auto& [k, v] : results.items()) {
    if (v.is_object() || is_record_list(v)) continue;
    out << pad
        << fmt::format("{:<{}}  {}\n", k, width, format_value(v, unit_of(declared, path(k), k)));
  }
  for (const auto& [k, v] : results.items()) {
    std::vector<std::string> names, paths;
    std::vector<const Json*> rows;
    if (is_record_list(v)) {
      out << pad << k << "\n";
      for (size_t i = 0; i < v.size() && i < kMaxTableRows; ++i) {
        names.push_back(std::to_string(i));
        paths.push_back(path(k) + "/" + std::to_string(i));
        rows.push_back(&v[i]);
      }
      write_table(names, rows, paths, declared, "#", v.size(), out, indent + 2);
    } else if (is_record_of_records(v)) {
      out << pad << k << "\n";
      for (const auto& [name, row] : v.items()) {
        if (rows.size() == kMaxTableRows) break;
        names.push_back(name);
        paths.push_back(path(k) + "/" + name);
        rows.push_back(&row);
      }
      write_table(names, rows, paths, declared, "", v.size(), out, indent + 2);
    } else if (v.is_object()) {
      out << pad << k << "\n";
      write_rows(v, path(k), out, declared, indent + 2);
    }
  }
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

std::string engineering(double x) {
  if (x == static_cast<double>(static_cast<int64_t>(x)) && std::abs(x) < 1e15) {
    // Digit groups: 1,082,741.
    const std::string digits = std::to_string(static_cast<int64_t>(std::abs(x)));
    std::string grouped;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
      grouped += digits[i];
    }
    return (x < 0 ? "-" : "") + grouped;
  }
  const double a = std::abs(x);
  if (a >= 1e4 || a < 1e-3) {
    const int exp3 = static_cast<int>(std::floor(std::log10(a) / 3)) * 3;
    return fmt::format("{:.4g}e{}", x / std::pow(10.0, exp3), exp3);
  }
  return fmt::format("{:.4g}", x);
}

std::string unit_from_name(const std::string& name) {
  if (ends_with(name, "_ns")) return "ns";
  if (ends_with(name, "_us")) return "us";
  if (name == "bytes" || ends_with(name, "_bytes")) return "B";
  if (ends_with(name, "_GBps")) return "GB/s";
  if (ends_with(name, "_MBps") || ends_with(name, "_MBps_per_node")) return "MB/s";
  return "";
}

std::string format_result(const std::string& name, const Json& v) {
  return format_value(v, unit_from_name(name));
}

std::string format_value(const Json& v, const std::string& unit) {
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "not reached";  // a figure over a window the run never entered
  if (v.is_array()) {
    if (v.size() <= 6) {
      std::string s;
      for (const auto& e : v) s += (s.empty() ? "" : ", ") + format_value(e, unit);
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
                       format_value(*std::min_element(xs.begin(), xs.end()), unit),
                       format_value(sum / static_cast<double>(xs.size()), unit),
                       format_value(*std::max_element(xs.begin(), xs.end()), unit));
  }
  if (!v.is_number()) return v.dump();
  const double x = v.get<double>();
  if (unit == "ns") return human_time(x);
  if (unit == "us") return human_time(x * 1e3);
  if (unit == "B") {
    return x >= 1024 ? fmt::format("{} ({})", human_bytes(x), engineering(x)) : human_bytes(x);
  }
  if (unit == "GB/s") return fmt::format("{:.3f} GB/s", x);
  if (unit == "MB/s") return fmt::format("{:.2f} MB/s", x);
  if (unit == "fraction") return fmt::format("{:.3g}%", 100 * x);
  return unit.empty() ? engineering(x) : engineering(x) + " " + unit;
}

void write_result_rows(const Json& results, std::ostream& out, const ResultCatalogue* declared,
                       int indent) {
  write_rows(results, "", out, declared, indent);
}

}  // namespace hs::runner
