// Ranks on the torus: Blue Gene/P's node modes (SMP: one rank per node, DUAL: two, VN: four,
// each on its own core) and the rank-to-node mapping, by an order of the letters X, Y, Z and
// T (T: the core on the node; the first letter varies fastest) or from a mapping file that
// lists each rank's "x y z t" on its own line.
#pragma once
#include <string>
#include <vector>

#include "hw/torus/network/torus_shape.h"

namespace hs::fw::mpi {

enum class NodeMode { Smp, Dual, Vn };
NodeMode parse_node_mode(const std::string& name);  // throws std::invalid_argument
const char* node_mode_name(NodeMode m);
int ranks_per_node(NodeMode m);

// Whether `order` is a permutation of XYZT.
bool valid_order(const std::string& order);

struct RankPlace {
  int node = 0;
  int t = 0;  // the core, and the rank's place among the node's ranks
};

class RankMap {
 public:
  // Ranks by `order` (XYZT, TXYZ, ...): the first `ranks` slots in that order (0: every
  // slot). Throws std::invalid_argument for a bad order or more ranks than slots.
  static RankMap by_order(const hs::torus::TorusShape& shape, int ranks_per_node,
                          const std::string& order, int ranks = 0);
  // A mapping file's text: one "x y z t" line per rank in rank order; '#' starts a comment,
  // blank lines are skipped. Every slot of the machine must hold exactly one rank. Throws
  // std::invalid_argument naming `file:line` for every mistake found.
  static RankMap from_text(const hs::torus::TorusShape& shape, int ranks_per_node,
                           const std::string& text, const std::string& file);
  static RankMap from_file(const hs::torus::TorusShape& shape, int ranks_per_node,
                           const std::string& path);

  int size() const { return static_cast<int>(places_.size()); }
  int ranks_per_node() const { return ranks_per_node_; }
  const RankPlace& place(int rank) const { return places_[static_cast<size_t>(rank)]; }
  // The messaging layer's endpoint of a rank, and back.
  int endpoint(int rank) const { return place(rank).node * ranks_per_node_ + place(rank).t; }
  // -1 for a slot no rank holds.
  int rank_of_endpoint(int endpoint) const { return rank_of_[static_cast<size_t>(endpoint)]; }

 private:
  RankMap(int ranks_per_node, std::vector<RankPlace> places, size_t slots);
  int ranks_per_node_ = 1;
  std::vector<RankPlace> places_;
  std::vector<int> rank_of_;
};

}  // namespace hs::fw::mpi
