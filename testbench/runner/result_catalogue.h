// The results a workload reports, declared like statistics: each with its path in the
// report's "results", its unit and a description, so that `hybridsim stats` lists them, a
// sweep's "results:PATH" is checked before anything runs, --stats-csv carries them and the
// text report formats each by its unit.
//
// Rules:
// - A workload declares its results when it is installed (before the run); the machine model
//   declares what it adds (link utilisation on the torus).
// - A path names a value in the results record with '/' between levels, as a sweep names it
//   ("link_utilisation/mean"). '*' stands for any one key or list index
//   ("link_utilisation/by_direction/*/mean", "pairs/*/latency_ns").
// - A leaf is a number, a text, a yes/no or null (a figure over a window the run never
//   reached), or a list of those; records and lists of records are levels.
// - Every leaf a run reports must be declared: undeclared() names those that are not, and the
//   runner fails the run on them (a workload's own mistake, caught by every test that runs it).
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hs::runner {

struct ResultInfo {
  std::string path;  // '/'-separated, '*' for any key or index
  std::string unit;  // "ns", "B", "MB/s", "fraction", "messages", ...; "" for texts and ratios
  std::string description;
};

class ResultCatalogue {
 public:
  void declare(std::vector<ResultInfo> results);
  const std::vector<ResultInfo>& all() const { return results_; }
  // The declaration that `path` (no wildcards) falls under, or null.
  const ResultInfo* find(const std::string& path) const;
  // The declared paths nearest `path`, for "did you mean" (empty if none is near).
  std::string closest(const std::string& path) const;
  // Whether some result is declared below `path` ("rows" for "rows/*/x").
  bool declares_within(const std::string& path) const;
  // Leaf paths of `results` that no declaration covers (an empty list or record is covered by
  // the results declared within it).
  std::vector<std::string> undeclared(const nlohmann::json& results) const;
  // Every leaf of `results` with its path, in the record's order (lists of scalars whole).
  static void leaves(const nlohmann::json& results,
                     const std::function<void(const std::string&, const nlohmann::json&)>& fn);

 private:
  std::vector<ResultInfo> results_;
};

}  // namespace hs::runner
