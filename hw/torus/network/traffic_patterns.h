// Traffic patterns: where a synthetic source sends each packet. A pattern is a named,
// swappable policy: the traffic generator asks it for one destination per packet and never
// looks inside. Patterns are listed in one table (traffic_patterns.cpp); adding one is a class
// and a row there.
//
// Rules every pattern keeps:
// - destination(node, rng) returns a node other than `node`, or -1 when `node` sends nothing
//   (sends(node) is false exactly for those nodes, so offered load counts only real sources);
// - the random stream is the source's own, so a run is the same for a given seed whatever
//   other nodes draw.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hw/torus/network/torus_shape.h"

namespace hs {
class ParamScope;
}

namespace hs::torus {

class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  virtual bool sends(int node) const = 0;
  virtual int destination(int node, std::mt19937_64& rng) = 0;
};

// A pattern by name: `params` is the workload's parameter scope, where a pattern declares the
// parameters it alone uses (validated like any other).
struct PatternInfo {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<TrafficPattern>(const TorusShape&, const ParamScope& params)> make;
};
const std::vector<PatternInfo>& traffic_patterns();
// Throws InputError naming `param` when `name` is not a pattern (with the ones there are).
const PatternInfo& traffic_pattern(const std::string& name, const std::string& param);

// "x,y,z" (spaces allowed) inside `shape`; an empty string and the reason if it is not one.
struct CoordParse {
  int node = -1;
  std::string error;
};
CoordParse parse_coord(const std::string& text, const TorusShape& shape);

// A permutation file: one line per sending node, "x,y,z x,y,z" (source, then destination);
// '#' starts a comment. Every node appears at most once as a source and once as a destination;
// nodes not listed as sources send nothing, and a node mapped to itself sends nothing. Returns
// the destination of each node (-1: none). Throws InputError naming "FILE:LINE" on any mistake.
std::vector<int> load_permutation(const std::string& path, const TorusShape& shape);

}  // namespace hs::torus
