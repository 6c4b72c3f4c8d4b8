#include "testbench/runner/torus_model.h"

#include <algorithm>

namespace hs::runner {

nlohmann::json TorusModel::workload_results() const {
  nlohmann::json r = results ? results() : nlohmann::json::object();
  const auto& shape = machine.shape();
  nlohmann::json by_dir = nlohmann::json::object();
  int all = 0;
  double busy = 0, busiest = 0;  // over every link
  for (int d = 0; d < torus::kDirs; ++d) {
    const auto s = links.direction(d);
    if (s.links == 0) continue;
    all += s.links;
    busy += s.mean * s.links;
    busiest = std::max(busiest, s.max);
    by_dir[torus::dir_name(d)] = {{"links", s.links},
                                  {"mean", s.mean},
                                  {"max", s.max},
                                  {"busiest_from", s.max > 0 ? shape.name(s.busiest) : "-"}};
  }
  r["link_utilisation"] = {{"window_start_ns", links.window_start_ns()},
                           {"window_end_ns", links.window_end_ns()},
                           {"links", all},
                           {"mean", all ? busy / all : 0.0},
                           {"max", busiest},
                           {"by_direction", std::move(by_dir)}};
  // The traffic a failed link left stuck, when the run ended on it.
  const auto& stuck = machine.network->stuck_traffic();
  if (!stuck.empty()) r["stuck_traffic"] = torus::stuck_json(shape, stuck);
  return r;
}

}  // namespace hs::runner
