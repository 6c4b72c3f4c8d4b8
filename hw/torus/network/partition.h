// Which process of a parallel run simulates which nodes of the torus (docs/parallel.md).
//
// A partition is a block of nodes, chosen by a named partitioner (torus.partition.scheme):
//  slab  cuts one axis (torus.partition.axis; auto: the longest, a tie going to z, then y)
//        into P slabs of consecutive planes, as even as they go (the first (n mod P) slabs one
//        plane thicker): each slab has two neighbours (one on a ring of two, none for P = 1).
//  box   cuts the machine into a PxQxR grid of boxes (torus.partition.grid, e.g. 2x2x4; auto:
//        the factors of P that cut the longest axes most, keeping boxes near cubes), each axis
//        as even as it goes: more neighbours, less cut traffic per node for large P.
// Rules:
// - Every node belongs to exactly one partition, numbered the same in every process; no
//   partition is empty (an axis with fewer planes than its cuts is refused, naming the
//   parameter).
// - A process builds only its own partition's compute nodes (TorusMachine) and drives its own
//   routers and sources; what one sends to a router across the cut is a message to that
//   partition (TorusNetwork's cut messages). The network keeps state for its own routers
//   only; what spans the machine in every process is this map of owners and dense indices
//   (8 bytes a node).
// - Results do not depend on the partitioning: every figure is the sequential run's.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/torus/network/routing/policy_list.h"
#include "hw/torus/network/torus_shape.h"

namespace hs::torus {

class Partition {
 public:
  // One process: the whole machine.
  explicit Partition(const TorusShape& shape);
  // `owner[node]`: the partition each node belongs to (0 .. parts-1); this process is `self`.
  Partition(const TorusShape& shape, int parts, int self, std::vector<int32_t> owner,
            std::string description);

  int parts() const { return parts_; }
  int self() const { return self_; }
  bool whole() const { return parts_ == 1; }
  int owner(int node) const { return owner_.empty() ? 0 : owner_[static_cast<size_t>(node)]; }
  bool local(int node) const { return index_[static_cast<size_t>(node)] >= 0; }
  // Dense index of a local node among this partition's nodes (ascending node numbers); -1
  // for another partition's node.
  int32_t index(int node) const { return index_[static_cast<size_t>(node)]; }
  const std::vector<int>& local_nodes() const { return local_; }
  // Nodes of partition p, and the partitions next to this one (sharing a link).
  std::vector<int> nodes_of(int p) const;
  const std::vector<int>& neighbours() const { return neighbours_; }
  // "slab along z: 4 partitions of 2 planes" (for reports and errors).
  const std::string& description() const { return description_; }

 private:
  int parts_ = 1, self_ = 0;
  std::vector<int32_t> owner_;  // empty: every node is partition 0's
  std::vector<int32_t> index_;
  std::vector<int> local_, neighbours_;
  std::string description_;
};

// A way of cutting the machine into `parts` partitions: the owner of every node, or an
// InputError naming the parameter that cannot be met.
class Partitioner {
 public:
  virtual ~Partitioner() = default;
  virtual const char* name() const = 0;
  virtual const char* summary() const = 0;
  struct Cut {
    std::vector<int32_t> owner;
    std::string description;
  };
  // `axis`: 0..2, or -1 for the partitioner's choice; `grid`: boxes per axis, or {0,0,0}.
  virtual Cut cut(const TorusShape& shape, int parts, int axis,
                  const std::array<int, 3>& grid) const = 0;
};

const PolicyList<Partitioner>& partitioners();

// The parameters under torus.partition (scheme, axis, grid), declared in every run so that
// `hybridsim params` lists them, and the partition of this process among `parts`.
Partition declare_partition(const std::string& prefix, const TorusShape& shape, int parts,
                            int self);

}  // namespace hs::torus
