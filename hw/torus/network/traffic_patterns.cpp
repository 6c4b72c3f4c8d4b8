#include "hw/torus/network/traffic_patterns.h"

#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::torus {

namespace {

// A fixed destination per node (-1: the node sends nothing): transpose, bit complement,
// tornado and user permutations are all of this kind.
class FixedMap : public TrafficPattern {
 public:
  explicit FixedMap(std::vector<int> dest) : dest_(std::move(dest)) {}
  bool sends(int node) const override { return dest_[node] >= 0; }
  int destination(int node, std::mt19937_64&) override { return dest_[node]; }

 private:
  std::vector<int> dest_;
};

// Builds a FixedMap from a per-coordinate rule; a node the rule maps to itself sends nothing.
std::unique_ptr<TrafficPattern> map_coords(const TorusShape& s,
                                           const std::function<Coord(Coord)>& rule) {
  std::vector<int> dest(s.nodes());
  for (int n = 0; n < s.nodes(); ++n) {
    const int d = s.node(rule(s.coord(n)));
    dest[n] = d == n ? -1 : d;
  }
  return std::make_unique<FixedMap>(std::move(dest));
}

class UniformRandom : public TrafficPattern {
 public:
  explicit UniformRandom(int nodes) : nodes_(nodes) {}
  bool sends(int) const override { return nodes_ >= 2; }
  int destination(int node, std::mt19937_64& rng) override {
    if (nodes_ < 2) return -1;
    std::uniform_int_distribution<int> pick(0, nodes_ - 2);
    const int d = pick(rng);
    return d >= node ? d + 1 : d;
  }

 private:
  int nodes_;
};

// Each source cycles through its six links' neighbours in turn (a halo exchange's traffic).
class NearestNeighbour : public TrafficPattern {
 public:
  explicit NearestNeighbour(const TorusShape& s) : shape_(s), next_(s.nodes(), 0) {}
  bool sends(int node) const override {
    for (int d = 0; d < kDirs; ++d) {
      const int n = shape_.neighbour(node, d);
      if (n >= 0 && n != node) return true;
    }
    return false;
  }
  int destination(int node, std::mt19937_64&) override {
    for (int i = 0; i < kDirs; ++i) {
      const int d = shape_.neighbour(node, next_[node]++ % kDirs);
      if (d >= 0 && d != node) return d;
    }
    return -1;
  }

 private:
  TorusShape shape_;
  std::vector<uint8_t> next_;
};

// A share of every source's packets goes to one hot node, the rest uniformly at random.
class HotSpot : public TrafficPattern {
 public:
  HotSpot(int nodes, int hot, double fraction) : uniform_(nodes), hot_(hot), fraction_(fraction) {}
  bool sends(int node) const override { return uniform_.sends(node); }
  int destination(int node, std::mt19937_64& rng) override {
    std::bernoulli_distribution to_hot(fraction_);
    if (node != hot_ && to_hot(rng)) return hot_;
    return uniform_.destination(node, rng);
  }

 private:
  UniformRandom uniform_;
  int hot_;
  double fraction_;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::unique_ptr<TrafficPattern> make_hotspot(const TorusShape& s, const ParamScope& p) {
  const double fraction = p.real("hotspot_fraction", 0.2, "",
                                 "hot-spot pattern: share of each source's packets sent to the "
                                 "hot node (the rest are uniform random)",
                                 Range::between(0, 1));
  const std::string centre = fmt::format("{},{},{}", s.size(0) / 2, s.size(1) / 2, s.size(2) / 2);
  const std::string at = p.text("hotspot", centre,
                                "hot-spot pattern: the hot node's coordinates x,y,z (default: "
                                "the machine's centre)");
  const CoordParse hot = parse_coord(at, s);
  if (hot.node < 0)
    throw InputError(fmt::format("{} = '{}': {}", p.name("hotspot"), at, hot.error));
  return std::make_unique<HotSpot>(s.nodes(), hot.node, fraction);
}

}  // namespace

const std::vector<PatternInfo>& traffic_patterns() {
  static const std::vector<PatternInfo> patterns = {
      {"uniform", "every packet to a node drawn uniformly at random",
       [](const TorusShape& s, const ParamScope&) {
         return std::make_unique<UniformRandom>(s.nodes());
       }},
      {"neighbour", "each source cycles through its six nearest neighbours (halo traffic)",
       [](const TorusShape& s, const ParamScope&) {
         return std::make_unique<NearestNeighbour>(s);
       }},
      {"transpose", "(x,y,z) sends to (y,x,z); needs x and y of equal size",
       [](const TorusShape& s, const ParamScope& p) {
         if (s.size(0) != s.size(1)) {
           throw InputError(fmt::format(
               "{} = transpose needs torus.network.x = torus.network.y (they are {} and {})",
               p.name("pattern"), s.size(0), s.size(1)));
         }
         return map_coords(s, [](Coord c) { return Coord{{c.v[1], c.v[0], c.v[2]}}; });
       }},
      {"bitcomp", "bit complement: (x,y,z) sends to (X-1-x, Y-1-y, Z-1-z), across the bisection",
       [](const TorusShape& s, const ParamScope&) {
         return map_coords(s, [&s](Coord c) {
           for (int d = 0; d < 3; ++d) c.v[d] = s.size(d) - 1 - c.v[d];
           return c;
         });
       }},
      {"tornado",
       "each coordinate moves ceil(k/2)-1 along its ring of size k: the longest minimal route "
       "all in one direction, which loads one direction of every ring",
       [](const TorusShape& s, const ParamScope&) {
         return map_coords(s, [&s](Coord c) {
           for (int d = 0; d < 3; ++d) c.v[d] = (c.v[d] + (s.size(d) + 1) / 2 - 1) % s.size(d);
           return c;
         });
       }},
      {"hotspot",
       "a share (workload.hotspot_fraction) of every source's packets to one hot node "
       "(workload.hotspot), the rest uniform random",
       make_hotspot},
      {"permutation", "destinations from a permutation file (workload.permutation)",
       [](const TorusShape& s, const ParamScope& p) -> std::unique_ptr<TrafficPattern> {
         const std::string path =
             p.text("permutation", "",
                    "permutation pattern: file of 'x,y,z x,y,z' lines (source, destination)");
         if (path.empty()) {
           throw InputError(fmt::format("{} = permutation needs {} = FILE", p.name("pattern"),
                                        p.name("permutation")));
         }
         return std::make_unique<FixedMap>(load_permutation(path, s));
       }},
  };
  return patterns;
}

const PatternInfo& traffic_pattern(const std::string& name, const std::string& param) {
  std::string known;
  for (const auto& p : traffic_patterns()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw InputError(
      fmt::format("{} = '{}' is not a traffic pattern (patterns: {})", param, name, known));
}

CoordParse parse_coord(const std::string& text, const TorusShape& shape) {
  std::string s = text;
  for (char& ch : s) {
    if (ch == ',') ch = ' ';
  }
  std::istringstream in(s);
  Coord c{};
  for (int d = 0; d < 3; ++d) {
    std::string word;
    if (!(in >> word)) return {-1, "expected three coordinates x,y,z"};
    size_t used = 0;
    long v = -1;
    try {
      v = std::stol(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != word.size()) return {-1, fmt::format("'{}' is not a coordinate", word)};
    if (v < 0 || v >= shape.size(d)) {
      return {-1, fmt::format("{} = {} is outside the machine (0 to {})", "xyz"[d], v,
                              shape.size(d) - 1)};
    }
    c.v[d] = static_cast<int>(v);
  }
  std::string extra;
  if (in >> extra) return {-1, fmt::format("unexpected '{}' after three coordinates", extra)};
  return {shape.node(c), ""};
}

std::vector<int> load_permutation(const std::string& path, const TorusShape& shape) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot read permutation file '{}'", path));
  std::vector<int> dest(shape.nodes(), -1);
  std::vector<int> source_line(shape.nodes(), 0), dest_line(shape.nodes(), 0);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string body = trim(line.substr(0, line.find('#')));
    if (body.empty()) continue;
    const auto where = [&](const std::string& what) {
      return InputError(fmt::format("{}:{}: {}", path, number, what));
    };
    // Two coordinates, three numbers each, separated by commas or spaces.
    std::string spaced = body;
    for (char& ch : spaced) {
      if (ch == ',') ch = ' ';
    }
    std::istringstream words(spaced);
    std::vector<std::string> w;
    for (std::string t; words >> t;) w.push_back(t);
    if (w.size() != 6) {
      throw where(
          fmt::format("expected 'x,y,z x,y,z' (source, then destination), found {} "
                      "numbers",
                      w.size()));
    }
    const std::string from = w[0] + "," + w[1] + "," + w[2];
    const std::string to = w[3] + "," + w[4] + "," + w[5];
    const CoordParse src = parse_coord(from, shape);
    if (src.node < 0) throw where(fmt::format("source '{}': {}", from, src.error));
    const CoordParse dst = parse_coord(to, shape);
    if (dst.node < 0) throw where(fmt::format("destination '{}': {}", to, dst.error));
    if (source_line[src.node]) {
      throw where(fmt::format("source {} already sends (line {})", shape.name(src.node),
                              source_line[src.node]));
    }
    if (dest_line[dst.node]) {
      throw where(fmt::format("destination {} already receives (line {}): not a permutation",
                              shape.name(dst.node), dest_line[dst.node]));
    }
    source_line[src.node] = dest_line[dst.node] = number;
    dest[src.node] = dst.node == src.node ? -1 : dst.node;
  }
  return dest;
}

}  // namespace hs::torus
