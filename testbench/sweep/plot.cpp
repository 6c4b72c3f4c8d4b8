#include "testbench/sweep/plot.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "testbench/sweep/csv.h"
#include "testbench/sweep/external_command.h"
#include "tlm/common/errors.h"

namespace hs::sweep {

namespace fs = std::filesystem;

namespace {

struct Series {
  std::string label;
  std::map<double, std::vector<double>> samples;  // x -> y of every repeat
};

std::string gnuplot_string(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

std::optional<double> as_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text == "true") return 1.0;
  if (text == "false") return 0.0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

int require_column(const CsvTable& t, const std::string& name, const std::string& flag,
                   const std::string& path) {
  const int c = t.column(name);
  if (c >= 0) return c;
  std::string cols;
  for (const auto& h : t.header) cols += (cols.empty() ? "" : ", ") + h;
  throw InputError(
      fmt::format("{} '{}': {} has no such column (columns: {})", flag, name, path, cols));
}

std::string file_safe(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// The sweep's scenario, for the default title, if results.json sits next to the CSV.
std::string scenario_of(const fs::path& csv) {
  std::ifstream in(csv.parent_path() / "results.json");
  if (!in) return "";
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) return "";
  const auto p = nlohmann::json::json_pointer("/sweep/scenario");
  return j.contains(p) && j[p].is_string() ? fs::path(j[p].get<std::string>()).stem().string() : "";
}

// Tick marks for a base-2 log axis over [lo, hi]: powers of two, thinned to at most a dozen,
// labelled with binary prefixes (64, 1Ki, 4Mi).
std::string binary_prefix_tics(double lo, double hi) {
  const int first = static_cast<int>(std::floor(std::log2(lo)));
  const int last = static_cast<int>(std::ceil(std::log2(hi)));
  const int stride = std::max(1, (last - first + 11) / 12);
  std::string tics;
  for (int k = first; k <= last; k += stride) {
    static const char* const kPrefixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    const int decade = std::clamp(k / 10, 0, 5);
    const std::string label =
        fmt::format("{:g}{}", std::ldexp(1.0, k - 10 * decade), kPrefixes[decade]);
    tics += fmt::format("{}'{}' {:.17g}", tics.empty() ? "" : ", ", label, std::ldexp(1.0, k));
  }
  return "set xtics (" + tics + ")\n";
}

// Tick marks for a base-10 log axis over [lo, hi] below 1 (a probability or an error rate):
// the decades it spans, labelled 1e-6 ... 1e-1.
std::string decade_tics(double lo, double hi) {
  // Nudged so that an exact decade's rounded logarithm stays on it.
  const int first = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  const int last = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  std::string tics;
  for (int k = first; k <= last; ++k) {
    tics += fmt::format("{}'{}' 1e{}", tics.empty() ? "" : ", ",
                        k == 0 ? std::string("1") : fmt::format("1e{}", k), k);
  }
  return "set xtics (" + tics + ")\n";
}

// A swept parameter the figure does not draw (neither --x, --group nor fixed by --where) that
// takes several values at one point of a line would have those points averaged into one
// without a word (repeats of the same point, other seeds, are averaged on purpose): refused,
// naming it and what to do. The swept parameters are the results' columns between "seed"
// and "status".
void refuse_hidden_axes(const CsvTable& t, const PlotRequest& req, int xc, int gc,
                        const std::vector<std::pair<size_t, std::string>>& filters,
                        const std::string& path) {
  const int first = t.column("seed") + 1, last = t.column("status");
  if (first <= 0 || last < first) return;
  for (int c = first; c < last; ++c) {
    if (c == xc || c == gc) continue;
    if (std::any_of(filters.begin(), filters.end(),
                    [&](const auto& f) { return static_cast<int>(f.first) == c; })) {
      continue;
    }
    // The values this parameter takes at each drawn point (a line's x).
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> at;
    std::vector<std::string> values;
    for (const auto& row : t.rows) {
      if (row[static_cast<size_t>(last)] != "passed") continue;
      if (std::any_of(filters.begin(), filters.end(),
                      [&](const auto& f) { return row[f.first] != f.second; })) {
        continue;
      }
      const std::string& v = row[static_cast<size_t>(c)];
      auto& seen = at[{gc >= 0 ? row[static_cast<size_t>(gc)] : "", row[static_cast<size_t>(xc)]}];
      if (std::find(seen.begin(), seen.end(), v) == seen.end()) seen.push_back(v);
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
    if (std::all_of(at.begin(), at.end(), [](const auto& kv) { return kv.second.size() < 2; })) {
      continue;
    }
    const std::string& name = t.header[static_cast<size_t>(c)];
    throw InputError(fmt::format(
        "{}: swept parameter '{}' takes {} values ({}) at the same point of a line: the figure "
        "would average them into one; draw a line per value with --group {}{}, or pick one with "
        "--where {}={}",
        path, name, values.size(), fmt::join(values, ", "), name,
        req.group.empty() ? "" : " (instead of --group " + req.group + ")", name, values[0]));
  }
}

}  // namespace

std::string plot_results(const PlotRequest& req) {
  fs::path csv_path = req.results;
  if (fs::is_directory(csv_path)) csv_path /= "results.csv";
  const CsvTable t = read_csv(csv_path.string());
  const std::string path = csv_path.string();
  const int xc = require_column(t, req.x, "--x", path);
  const int yc = require_column(t, req.y, "--y", path);
  const int gc = req.group.empty() ? -1 : require_column(t, req.group, "--group", path);
  const int sc = t.column("status");
  std::vector<std::pair<size_t, std::string>> filters;
  for (const auto& w : req.where) {
    const auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError(fmt::format("--where '{}': expected COLUMN=VALUE", w));
    }
    const int c = require_column(t, w.substr(0, eq), "--where", path);
    filters.emplace_back(static_cast<size_t>(c), w.substr(eq + 1));
  }

  std::vector<Series> series;
  std::map<std::string, size_t> series_of;
  size_t used = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    if (sc >= 0 && row[static_cast<size_t>(sc)] != "passed") continue;
    if (std::any_of(filters.begin(), filters.end(),
                    [&](const auto& f) { return row[f.first] != f.second; })) {
      continue;
    }
    const std::string where = fmt::format("{}: row {}", path, r + 2);
    const auto x = as_number(row[static_cast<size_t>(xc)]);
    const auto y = as_number(row[static_cast<size_t>(yc)]);
    if (!x)
      throw InputError(
          fmt::format("{}: {} '{}' is not a number", where, req.x, row[static_cast<size_t>(xc)]));
    if (!y)
      throw InputError(
          fmt::format("{}: {} '{}' is not a number", where, req.y, row[static_cast<size_t>(yc)]));
    if (req.log_x && *x <= 0)
      throw InputError(fmt::format("{}: --log-x needs {} > 0", where, req.x));
    if (req.log_y && *y <= 0)
      throw InputError(fmt::format("{}: --log-y needs {} > 0", where, req.y));
    const std::string g = gc >= 0 ? row[static_cast<size_t>(gc)] : "";
    auto [it, fresh] = series_of.emplace(g, series.size());
    if (fresh) series.push_back(Series{gc >= 0 ? g : req.y, {}});
    series[it->second].samples[*x].push_back(*y);
    ++used;
  }
  if (used == 0) {
    throw InputError(fmt::format("{}: no passed point{} to plot", path,
                                 req.where.empty() ? "" : " matches --where"));
  }
  refuse_hidden_axes(t, req, xc, gc, filters, path);
  // Numeric groups in numeric order (lanes 1, 2, 4, 8, 16), others as they first appear.
  const bool numeric_groups = std::all_of(series_of.begin(), series_of.end(), [](const auto& kv) {
    return as_number(kv.first).has_value();
  });
  if (numeric_groups && gc >= 0) {
    std::vector<std::pair<double, Series>> keyed;
    for (const auto& [g, i] : series_of) keyed.emplace_back(*as_number(g), series[i]);
    std::sort(keyed.begin(), keyed.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    series.clear();
    for (auto& k : keyed) series.push_back(std::move(k.second));
  }

  fs::path out = req.out;
  if (out.empty()) {
    out = csv_path.parent_path() /
          (file_safe(req.y) + "_vs_" + file_safe(req.x) +
           (req.group.empty() ? "" : "_by_" + file_safe(req.group)) + ".svg");
  }
  const std::string ext = out.extension().string();
  if (ext != ".png" && ext != ".svg") {
    throw InputError(fmt::format("--out {}: the figure must be a .png or .svg file", out.string()));
  }
  if (!out.parent_path().empty()) fs::create_directories(out.parent_path());
  bool repeats = false;
  for (const auto& s : series) {
    for (const auto& [_, ys] : s.samples) repeats = repeats || ys.size() > 1;
  }

  std::string gp;
  gp += ext == ".png" ? "set terminal pngcairo size 960,600 font 'sans,11'\n"
                      : "set terminal svg size 960,600 font 'sans,11' background '#ffffff'\n";
  gp += "set output " + gnuplot_string(out.string()) + "\n";
  const std::string scenario = scenario_of(csv_path);
  std::string title = req.title;
  if (title.empty()) {
    title = (scenario.empty() ? "" : scenario + ": ") + req.y + " vs " + req.x;
    for (size_t i = 0; i < req.where.size(); ++i) title += (i ? ", " : " (") + req.where[i];
    if (!req.where.empty()) title += ")";
  }
  gp += "set title " + gnuplot_string(title) + " noenhanced\n";
  gp += "set xlabel " + gnuplot_string(req.xlabel.empty() ? req.x : req.xlabel) + " noenhanced\n";
  gp += "set ylabel " + gnuplot_string(req.ylabel.empty() ? req.y : req.ylabel) + " noenhanced\n";
  gp += "set grid\nset key outside right top noenhanced\nset pointsize 0.8\n";
  if (gc >= 0) gp += "set key title " + gnuplot_string(req.group) + " noenhanced\n";
  // Log axes label their ticks with prefixes: base-2 (64, 1Ki, 4Mi) for x, which is usually a
  // size, or decades for an x below 1 (a rate), and SI (10k, 1M) for y.
  if (req.log_x) {
    double lo = HUGE_VAL, hi = 0;
    for (const auto& s : series) {
      lo = std::min(lo, s.samples.begin()->first);
      hi = std::max(hi, s.samples.rbegin()->first);
    }
    // A tick exactly at a log axis's end can fall outside it by rounding and go undrawn: pad
    // the range by 0.1%.
    gp += fmt::format("set logscale x {}\nset xrange [{:.10g}:{:.10g}]\n", hi < 1 ? 10 : 2,
                      lo * 0.999, hi * 1.001) +
          (hi < 1 ? decade_tics(lo, hi) : binary_prefix_tics(lo, hi));
  }
  if (req.log_y) gp += "set logscale y\nset format y '%.0s%c'\n";
  if (repeats) gp += "# each point: mean of its repeats, bars from min to max\n";
  for (size_t i = 0; i < series.size(); ++i) {
    gp += fmt::format("$s{} << EOD\n", i);
    for (const auto& [x, ys] : series[i].samples) {
      double sum = 0, lo = ys.front(), hi = ys.front();
      for (double y : ys) {
        sum += y;
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
      gp += fmt::format("{:.10g} {:.10g} {:.10g} {:.10g}\n", x,
                        sum / static_cast<double>(ys.size()), lo, hi);
    }
    gp += "EOD\n";
  }
  gp += "plot ";
  for (size_t i = 0; i < series.size(); ++i) {
    gp += fmt::format("{}$s{} using 1:2{} with {} lw 2 title {}", i ? ", \\\n     " : "", i,
                      repeats ? ":3:4" : "", repeats ? "yerrorlines" : "linespoints",
                      gnuplot_string(series[i].label));
  }
  gp += "\n";
  const fs::path script = fs::path(out).replace_extension(".gp");
  std::ofstream(script) << gp;

  if (!on_path("gnuplot")) {
    throw ToolError(
        "gnuplot not found on PATH (Debian package gnuplot-nox; scripts/setup.sh "
        "installs it); the script is in " +
        script.string());
  }
  const auto r = run_command({"gnuplot", script.string()});
  if (!r.started || r.exit_code != 0) {
    throw ToolError(fmt::format("gnuplot failed on {}: {}", script.string(), r.err));
  }
  if (!fs::exists(out) || fs::file_size(out) == 0) {
    throw ToolError(fmt::format("gnuplot wrote nothing to {} ({})", out.string(), script.string()));
  }
  return out.string();
}

}  // namespace hs::sweep
