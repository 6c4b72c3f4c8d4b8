// `hybridsim plot`: one statistic of a sweep's results against one swept parameter, a line
// per value of an optional grouping parameter (the legend's title, each line labelled with its
// value), drawn by gnuplot (Debian's gnuplot-nox) into
// a PNG or SVG. Repeats of a point (several seeds) are averaged and drawn with min-max bars;
// a swept parameter the figure does not draw that varies at one point of a line is refused
// (its points would be averaged silently), naming it with --group and --where as the remedies.
// The gnuplot script is kept next to the figure so it can be restyled by hand.
#pragma once
#include <string>
#include <vector>

namespace hs::sweep {

struct PlotRequest {
  std::string results;  // a results.csv, or the sweep directory holding it
  std::string x, y, group;
  std::vector<std::string> where;  // "COLUMN=VALUE": plot only the rows that match
  bool log_x = false, log_y = false;
  std::string out;  // FILE.png or FILE.svg; default: next to the results
  std::string title;
  std::string xlabel, ylabel;  // axis labels; default: the column names
};

// Draws the figure and returns its path. Throws InputError for a bad request (unknown
// column, non-numeric values, unknown extension) and ToolError if gnuplot fails.
std::string plot_results(const PlotRequest& request);

}  // namespace hs::sweep
