// Link utilisation over a measurement window: the busy time of every link between two
// snapshots of the network's busy-time counters, so a workload with a warm-up reports only
// its steady state. Without a window it covers the whole run, [0, now].
//
// Rules: the snapshots ride on the network's event heap, so they are taken at exactly the
// window's edges; a run that stops early reports the window up to where it stopped, and a
// window it never entered as not reached (tlm/stats/measurement_window.h).
// Partitioned, each process snapshots its own links only (the network's routers, in their
// order); the reporting process widens its snapshots to the whole machine when it merges the
// others' (merge_partition), so only it holds every link, and only at the end.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hw/torus/network/torus_network.h"

namespace hs::torus {

class LinkLoad : public NetworkTimer {
 public:
  explicit LinkLoad(TorusNetwork& net);

  // Measures over [start, end) instead of the whole run.
  void window(const sc_core::sc_time& start, const sc_core::sc_time& end);

  double window_start_ns() const { return static_cast<double>(start_ps_) / 1e3; }
  double window_end_ns() const { return static_cast<double>(window_end()) / 1e3; }
  // "whole", "part" or "not reached": how much of the window the run covered by now.
  const char* window_reached() const;
  // Busy fraction of the link leaving `node` in direction `dir` (0 where there is no link, or
  // the link is another partition's and not merged here).
  double utilisation(int node, int dir) const;

  struct Summary {
    int links = 0;     // links in this direction
    double mean = 0;   // their mean busy fraction
    double max = 0;    // the busiest one's
    int busiest = -1;  // the node the busiest link leaves
  };
  Summary direction(int dir) const;

  // One row per link: its node's coordinates, direction, neighbour, busy time, utilisation.
  std::string csv() const;

  void on_timer(int edge) override;
  // A parallel run: each partition snapshots its own links; the others' are added here.
  Bytes save_partition() const;
  void merge_partition(const Bytes& b);

 private:
  uint64_t window_end() const;
  // Where the snapshots of the link leaving `node` in `dir` are (-1: not kept here).
  int64_t slot(int node, int dir) const;
  // Its busy time in [start, end of the window]; 0 if not kept here.
  uint64_t busy_in_window(int node, int dir) const;

  TorusNetwork& net_;
  uint64_t start_ps_ = 0, end_ps_ = 0;
  bool windowed_ = false, started_ = true, closed_ = false;
  bool whole_ = false;  // the snapshots cover every link (merged), by node * kDirs + dir
  std::vector<uint64_t> start_busy_, end_busy_;
};

}  // namespace hs::torus
