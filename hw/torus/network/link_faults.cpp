#include "hw/torus/network/link_faults.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>
#include <utility>

#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::torus {

namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// "x1y0z2" -> node, or -1 if malformed or outside the machine (`why` says which).
int parse_node(const std::string& t, const TorusShape& shape, std::string& why) {
  int c[3];
  size_t pos = 0;
  for (int d = 0; d < 3; ++d) {
    const char axis = "xyz"[d];
    if (pos >= t.size() || t[pos] != axis) {
      why = fmt::format("'{}' is not a node name x<X>y<Y>z<Z>", t);
      return -1;
    }
    const size_t start = ++pos;
    while (pos < t.size() && t[pos] >= '0' && t[pos] <= '9' && pos - start < 4) ++pos;
    if (pos == start || (pos < t.size() && t[pos] >= '0' && t[pos] <= '9')) {
      why = fmt::format("'{}' is not a node name x<X>y<Y>z<Z>", t);
      return -1;
    }
    c[d] = std::stoi(t.substr(start, pos - start));
    if (c[d] >= shape.size(d)) {
      why = fmt::format("node {} lies outside the {}x{}x{} machine", t, shape.size(0),
                        shape.size(1), shape.size(2));
      return -1;
    }
  }
  if (pos != t.size()) {
    why = fmt::format("'{}' is not a node name x<X>y<Y>z<Z>", t);
    return -1;
  }
  return shape.node({{c[0], c[1], c[2]}});
}

// The failure time after '@', in ns, or NaN.
double parse_time(const std::string& t) {
  if (t.empty() || t[0] == '-' || t[0] == '+') return std::nan("");
  try {
    size_t used = 0;
    const double v = std::stod(t, &used);
    return used == t.size() && std::isfinite(v) && v <= 1e12 ? v : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

}  // namespace

std::string node_label(const TorusShape& shape, int node) {
  const Coord c = shape.coord(node);
  return fmt::format("x{}y{}z{}", c.v[0], c.v[1], c.v[2]);
}

std::string link_label(const TorusShape& shape, int node, int dir) {
  return node_label(shape, node) + ":" + dir_name(dir);
}

namespace {

// "x1y0z0:+x" -> {node, dir}, or node -1 with `why` set.
std::pair<int, int> parse_link(const std::string& entry, const TorusShape& shape,
                               std::string& why) {
  const auto colon = entry.find(':');
  if (colon == std::string::npos) {
    why = "no ':' between the node and the direction";
    return {-1, -1};
  }
  const int node = parse_node(entry.substr(0, colon), shape, why);
  if (node < 0) return {-1, -1};
  const std::string dir_text = entry.substr(colon + 1);
  int dir = -1;
  for (int d = 0; d < kDirs; ++d) {
    if (dir_text == dir_name(d)) dir = d;
  }
  if (dir < 0) {
    why = fmt::format("'{}' is not a direction (+x -x +y -y +z -z)", dir_text);
    return {-1, -1};
  }
  if (shape.neighbour(node, dir) < 0) {
    why = fmt::format("node {} has no {} link in this {}", entry.substr(0, colon), dir_text,
                      shape.wrap() ? "torus" : "mesh");
    return {-1, -1};
  }
  return {node, dir};
}

// The entries of a ','-separated list, trimmed; none for a blank text.
std::vector<std::string> entries(const std::string& text) {
  std::vector<std::string> out;
  if (trimmed(text).empty()) return out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(trimmed(item));
  return out;
}

}  // namespace

std::string packet_label(const TorusShape& shape, const Packet& p) {
  return fmt::format("{}#{}", node_label(shape, p.src), packet_number(p.id));
}

std::vector<FailedLink> parse_failed_links(const std::string& text, const TorusShape& shape,
                                           const std::string& param) {
  std::vector<FailedLink> out;
  for (const std::string& entry : entries(text)) {
    auto refuse = [&](const std::string& why) {
      return InputError(ParamRegistry::instance().refusal(
          param, fmt::format("= '{}': entry '{}': {}; expects NODE:DIR[@NS] entries separated "
                             "by ',', such as 'x1y0z0:+x' or 'x0y0z0:-y@5000'",
                             text, entry, why)));
    };
    const auto at = entry.find('@');
    std::string why;
    const auto [node, dir] = parse_link(entry.substr(0, at), shape, why);
    if (node < 0) throw refuse(why);
    double at_ns = 0;
    if (at != std::string::npos) {
      at_ns = parse_time(entry.substr(at + 1));
      if (std::isnan(at_ns)) {
        throw refuse(fmt::format("'{}' is not a time in ns (0 to 1e12)", entry.substr(at + 1)));
      }
    }
    for (const FailedLink& f : out) {
      if (f.node == node && f.dir == dir) throw refuse("the link is listed twice");
    }
    out.push_back({node, dir, at_ns});
  }
  return out;
}

FaultStreams::Listed parse_link_events(const std::string& text, const TorusShape& shape,
                                       const std::string& param) {
  FaultStreams::Listed out;
  for (const std::string& entry : entries(text)) {
    auto refuse = [&](const std::string& why) {
      return InputError(ParamRegistry::instance().refusal(
          param, fmt::format("= '{}': entry '{}': {}; expects entries N (the Nth packet on "
                             "every link) or LINK#N (the Nth on that link, such as "
                             "'x1y0z0:+x#3') separated by ',', counting from 1",
                             text, entry, why)));
    };
    const auto hash = entry.find('#');
    const std::string number = trimmed(hash == std::string::npos ? entry : entry.substr(hash + 1));
    uint64_t n = 0;
    size_t used = 0;
    try {
      if (!number.empty() && number[0] != '-' && number[0] != '+') n = std::stoull(number, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (number.empty() || used != number.size() || n == 0) {
      throw refuse(fmt::format("'{}' is not a packet number (1, 2, ...)", number));
    }
    if (hash == std::string::npos) {
      out.every.push_back(n);
      continue;
    }
    std::string why;
    const auto [node, dir] = parse_link(trimmed(entry.substr(0, hash)), shape, why);
    if (node < 0) throw refuse(why);
    out.on_stream.emplace_back(static_cast<size_t>(node) * kDirs + dir, n);
  }
  return out;
}

std::string describe_stuck(const TorusShape& shape, const std::vector<StuckTraffic>& stuck,
                           size_t max) {
  std::string out;
  for (size_t i = 0; i < stuck.size() && i < max; ++i) {
    const StuckTraffic& s = stuck[i];
    out += fmt::format("\n  {} packet{} {}->{} at {} {}, waiting for {}", s.packets,
                       s.packets == 1 ? "" : "s", node_label(shape, s.src),
                       node_label(shape, s.dest), node_label(shape, s.node), s.queue, s.waits_for);
  }
  if (stuck.size() > max) out += fmt::format("\n  ... and {} more groups", stuck.size() - max);
  return out;
}

nlohmann::json stuck_json(const TorusShape& shape, const std::vector<StuckTraffic>& stuck) {
  nlohmann::json out = nlohmann::json::array();
  for (const StuckTraffic& s : stuck) {
    out.push_back({{"source", node_label(shape, s.src)},
                   {"destination", node_label(shape, s.dest)},
                   {"node", node_label(shape, s.node)},
                   {"queue", s.queue},
                   {"waits_for", s.waits_for},
                   {"packets", s.packets}});
  }
  return out;
}

}  // namespace hs::torus
