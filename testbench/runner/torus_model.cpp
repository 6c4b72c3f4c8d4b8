#include "testbench/runner/torus_model.h"

#include <algorithm>

namespace hs::runner {

TorusModel::TorusModel() : machine("torus"), checkers(machine), links(*machine.network) {
  results_declared.declare({
      {"link_utilisation/window_start_ns", "ns", "start of the window the link figures cover"},
      {"link_utilisation/window_end_ns", "ns", "end of that window (where the run reached)"},
      {"link_utilisation/window_reached", "",
       "how much of the window the run covered: whole, part or not reached"},
      {"link_utilisation/links", "links", "links in the machine"},
      {"link_utilisation/mean", "fraction", "busy fraction over the window, mean over every link"},
      {"link_utilisation/max", "fraction", "busy fraction over the window of the busiest link"},
      {"link_utilisation/by_direction/*/links", "links", "links in this direction"},
      {"link_utilisation/by_direction/*/mean", "fraction",
       "their mean busy fraction over the window"},
      {"link_utilisation/by_direction/*/max", "fraction", "the busiest one's busy fraction"},
      {"link_utilisation/by_direction/*/busiest_from", "", "the node the busiest one leaves"},
      {"stuck_traffic/*/source", "", "where stuck packets came from"},
      {"stuck_traffic/*/destination", "", "where they were going"},
      {"stuck_traffic/*/node", "", "the node holding them"},
      {"stuck_traffic/*/queue", "", "the queue holding them"},
      {"stuck_traffic/*/waits_for", "", "the failed link they wait for"},
      {"stuck_traffic/*/packets", "packets", "packets stuck there"},
  });
}

nlohmann::json TorusModel::workload_results() const {
  // A parallel run with failed links: the standstill the partitions could not see alone.
  machine.network->check_progress_merged();
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
  // Over the links' window (the workload's measurement window, or the whole run).
  const std::string reached = links.window_reached();
  const auto figure = [&](double v) {
    return reached == "not reached" ? nlohmann::json(nullptr) : nlohmann::json(v);
  };
  r["link_utilisation"] = {{"window_start_ns", links.window_start_ns()},
                           {"window_end_ns", links.window_end_ns()},
                           {"window_reached", reached},
                           {"links", all},
                           {"mean", figure(all ? busy / all : 0.0)},
                           {"max", figure(busiest)},
                           {"by_direction", std::move(by_dir)}};
  // The traffic a failed link left stuck, when the run ended on it.
  const auto& stuck = machine.network->stuck_traffic();
  if (!stuck.empty()) r["stuck_traffic"] = torus::stuck_json(shape, stuck);
  return r;
}

std::vector<uint64_t> TorusModel::core_places() const {
  // Node by node, as TorusMachine::cores() lists them; a node has fewer than 2^16 cores.
  std::vector<uint64_t> places;
  for (size_t n = 0; n < machine.nodes.size(); ++n) {
    if (!machine.nodes[n]) continue;
    const size_t cores = machine.nodes[n]->cores().size();
    for (size_t c = 0; c < cores; ++c) places.push_back(n << 16 | c);
  }
  return places;
}

Bytes TorusModel::save_partition() const {
  ByteWriter w;
  w.put_vector(machine.network->save_partition());
  w.put_vector(links.save_partition());
  w.put_vector(save_workload());
  return w.take();
}

void TorusModel::merge_partition(const Bytes& b) {
  ByteReader r(b);
  machine.network->merge_partition(r.get_vector<uint8_t>());
  links.merge_partition(r.get_vector<uint8_t>());
  merge_workload(r.get_vector<uint8_t>());
}

}  // namespace hs::runner
