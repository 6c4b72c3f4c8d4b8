#include "hw/torus/network/link_load.h"

#include <fmt/format.h>
#include <algorithm>

#include "tlm/kernel/now.h"

namespace hs::torus {

namespace {
enum Edge { kStart = 0, kEnd = 1 };
}

LinkLoad::LinkLoad(TorusNetwork& net) : net_(net), start_busy_(net.kept_routers() * kDirs, 0) {}

void LinkLoad::window(const sc_core::sc_time& start, const sc_core::sc_time& end) {
  windowed_ = true;
  started_ = start.value() == 0;
  start_ps_ = start.value();
  end_ps_ = end.value();
  if (!started_) net_.schedule(start, this, kStart);
  net_.schedule(end, this, kEnd);
}

void LinkLoad::on_timer(int edge) {
  const uint64_t now = hs::now().value();
  std::vector<uint64_t>& into = edge == kStart ? start_busy_ : end_busy_;
  into.resize(start_busy_.size());
  for (size_t l = 0; l < into.size(); ++l) {
    into[l] = net_.link_busy_ps(net_.router_node(l / kDirs), static_cast<int>(l % kDirs), now);
  }
  (edge == kStart ? started_ : closed_) = true;
}

uint64_t LinkLoad::window_end() const {
  if (!started_) return start_ps_;
  return closed_ ? end_ps_ : hs::now().value();
}

const char* LinkLoad::window_reached() const {
  if (!started_ || window_end() <= start_ps_) return "not reached";
  return !windowed_ || closed_ ? "whole" : "part";
}

int64_t LinkLoad::slot(int node, int dir) const {
  if (whole_) return static_cast<int64_t>(node) * kDirs + dir;
  if (!net_.local(node)) return -1;
  return static_cast<int64_t>(net_.router_index(node)) * kDirs + dir;
}

uint64_t LinkLoad::busy_in_window(int node, int dir) const {
  const int64_t l = slot(node, dir);
  if (l < 0) return 0;
  const uint64_t end =
      closed_ ? end_busy_[static_cast<size_t>(l)] : net_.link_busy_ps(node, dir, hs::now().value());
  return end - start_busy_[static_cast<size_t>(l)];
}

double LinkLoad::utilisation(int node, int dir) const {
  const uint64_t end = window_end();
  if (!started_ || end <= start_ps_) return 0.0;
  return static_cast<double>(busy_in_window(node, dir)) / static_cast<double>(end - start_ps_);
}

LinkLoad::Summary LinkLoad::direction(int dir) const {
  Summary s;
  const TorusShape& shape = net_.shape();
  const uint64_t end = window_end();
  const bool empty = !started_ || end <= start_ps_;
  uint64_t busy = 0;  // exact: the mean is the same however the links are summed
  for (int n = 0; n < shape.nodes(); ++n) {
    if (shape.neighbour(n, dir) < 0) continue;
    busy += empty ? 0 : busy_in_window(n, dir);
    const double u = utilisation(n, dir);
    ++s.links;
    if (s.busiest < 0 || u > s.max) {  // the first of equals, in node order
      s.max = u;
      s.busiest = n;
    }
  }
  if (s.links && !empty) {
    s.mean = static_cast<double>(busy) / static_cast<double>(end - start_ps_) / s.links;
  }
  return s;
}

std::string LinkLoad::csv() const {
  const TorusShape& shape = net_.shape();
  const double span_ns = window_end_ns() - window_start_ns();
  std::string out =
      "x,y,z,direction,to_x,to_y,to_z,window_start_ns,window_end_ns,busy_ns,utilisation\n";
  for (int n = 0; n < shape.nodes(); ++n) {
    const Coord c = shape.coord(n);
    for (int d = 0; d < kDirs; ++d) {
      const int to = shape.neighbour(n, d);
      if (to < 0) continue;
      const Coord t = shape.coord(to);
      const double u = utilisation(n, d);
      out += fmt::format("{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.6f}\n", c.v[0], c.v[1],
                         c.v[2], dir_name(d), t.v[0], t.v[1], t.v[2], window_start_ns(),
                         window_end_ns(), u * span_ns, u);
    }
  }
  return out;
}

Bytes LinkLoad::save_partition() const {
  ByteWriter w;
  std::vector<int32_t> nodes(net_.kept_routers());
  for (size_t r = 0; r < nodes.size(); ++r) nodes[r] = net_.router_node(r);
  w.put_vector(nodes);
  w.put_vector(start_busy_);
  w.put_vector(end_busy_);
  return w.take();
}

void LinkLoad::merge_partition(const Bytes& b) {
  const size_t links = static_cast<size_t>(net_.shape().nodes()) * kDirs;
  if (!whole_) {  // this process's snapshots, widened to every link
    for (auto* mine : {&start_busy_, &end_busy_}) {
      if (mine->empty()) continue;
      std::vector<uint64_t> all(links, 0);
      for (size_t l = 0; l < mine->size(); ++l) {
        all[static_cast<size_t>(net_.router_node(l / kDirs)) * kDirs + l % kDirs] = (*mine)[l];
      }
      mine->swap(all);
    }
    whole_ = true;
  }
  ByteReader r(b);
  const auto nodes = r.get_vector<int32_t>();
  for (auto* mine : {&start_busy_, &end_busy_}) {
    const auto theirs = r.get_vector<uint64_t>();
    if (theirs.empty()) continue;
    mine->resize(links, 0);
    for (size_t l = 0; l < theirs.size(); ++l) {
      (*mine)[static_cast<size_t>(nodes.at(l / kDirs)) * kDirs + l % kDirs] = theirs[l];
    }
  }
}

}  // namespace hs::torus
