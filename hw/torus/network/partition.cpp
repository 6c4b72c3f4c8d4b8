#include "hw/torus/network/partition.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <regex>
#include <set>

#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::torus {

Partition::Partition(const TorusShape& shape) : description_("the whole machine") {
  index_.resize(static_cast<size_t>(shape.nodes()));
  local_.resize(static_cast<size_t>(shape.nodes()));
  for (int n = 0; n < shape.nodes(); ++n) {
    index_[static_cast<size_t>(n)] = n;
    local_[static_cast<size_t>(n)] = n;
  }
}

Partition::Partition(const TorusShape& shape, int parts, int self, std::vector<int32_t> owner,
                     std::string description)
    : parts_(parts), self_(self), owner_(std::move(owner)), description_(std::move(description)) {
  index_.assign(static_cast<size_t>(shape.nodes()), -1);
  std::set<int> next;
  for (int n = 0; n < shape.nodes(); ++n) {
    if (owner_[static_cast<size_t>(n)] != self_) continue;
    index_[static_cast<size_t>(n)] = static_cast<int32_t>(local_.size());
    local_.push_back(n);
    for (int d = 0; d < kDirs; ++d) {
      const int m = shape.neighbour(n, d);
      if (m >= 0 && owner_[static_cast<size_t>(m)] != self_)
        next.insert(owner_[static_cast<size_t>(m)]);
    }
  }
  neighbours_.assign(next.begin(), next.end());
}

std::vector<int> Partition::nodes_of(int p) const {
  std::vector<int> out;
  for (size_t n = 0; n < index_.size(); ++n) {
    if (owner(static_cast<int>(n)) == p) out.push_back(static_cast<int>(n));
  }
  return out;
}

namespace {

// Which of `cuts` even pieces coordinate c of an axis of `size` planes falls in: the first
// (size mod cuts) pieces are one plane thicker.
int piece(int c, int size, int cuts) {
  const int base = size / cuts, thick = size % cuts;
  const int boundary = thick * (base + 1);
  return c < boundary ? c / (base + 1) : thick + (c - boundary) / base;
}

std::string sizes(int size, int cuts) {
  const int base = size / cuts, thick = size % cuts;
  return thick == 0 ? fmt::format("{}", base) : fmt::format("{} or {}", base + 1, base);
}

class Slab : public Partitioner {
 public:
  const char* name() const override { return "slab"; }
  const char* summary() const override {
    return "slabs of consecutive planes across one axis (torus.partition.axis)";
  }
  Cut cut(const TorusShape& s, int parts, int axis, const std::array<int, 3>&) const override {
    if (axis < 0) {  // the longest axis; a tie goes to z, then y
      axis = 2;
      for (int d : {1, 0}) {
        if (s.size(d) > s.size(axis)) axis = d;
      }
    }
    if (s.size(axis) < parts) {
      throw InputError(fmt::format(
          "torus.partition.axis: {} partitions need at least {} planes across the axis; {} has "
          "{} (choose another axis, or the box scheme)",
          parts, parts, "xyz"[axis], s.size(axis)));
    }
    Cut c;
    c.owner.resize(static_cast<size_t>(s.nodes()));
    for (int n = 0; n < s.nodes(); ++n) {
      c.owner[static_cast<size_t>(n)] = piece(s.coord(n).v[axis], s.size(axis), parts);
    }
    c.description = fmt::format("slabs across {}: {} partitions of {} planes", "xyz"[axis], parts,
                                sizes(s.size(axis), parts));
    return c;
  }
};

class Box : public Partitioner {
 public:
  const char* name() const override { return "box"; }
  const char* summary() const override {
    return "a grid of boxes, cutting every axis (torus.partition.grid)";
  }
  Cut cut(const TorusShape& s, int parts, int, const std::array<int, 3>& asked) const override {
    std::array<int, 3> g = asked;
    if (g[0] == 0) g = choose(s, parts);
    const int64_t boxes = int64_t{g[0]} * g[1] * g[2];  // up to 99999 per axis: past int
    if (boxes != parts) {
      throw InputError(fmt::format("torus.partition.grid = {}x{}x{}: {} boxes for {} partitions",
                                   g[0], g[1], g[2], boxes, parts));
    }
    for (int d = 0; d < 3; ++d) {
      if (g[d] > s.size(d)) {
        throw InputError(
            fmt::format("torus.partition.grid = {}x{}x{}: {} cuts across {} but it has {} planes",
                        g[0], g[1], g[2], g[d], "xyz"[d], s.size(d)));
      }
    }
    Cut c;
    c.owner.resize(static_cast<size_t>(s.nodes()));
    for (int n = 0; n < s.nodes(); ++n) {
      const Coord k = s.coord(n);
      int p = 0;
      for (int d = 2; d >= 0; --d) p = p * g[d] + piece(k.v[d], s.size(d), g[d]);
      c.owner[static_cast<size_t>(n)] = p;
    }
    c.description =
        fmt::format("boxes: a {}x{}x{} grid of {}x{}x{} nodes", g[0], g[1], g[2],
                    sizes(s.size(0), g[0]), sizes(s.size(1), g[1]), sizes(s.size(2), g[2]));
    return c;
  }

 private:
  // Of the factorisations of `parts` that fit, the one whose boxes have the least surface
  // (the fewest links cut), ties to more cuts across later axes.
  static std::array<int, 3> choose(const TorusShape& s, int parts) {
    std::array<int, 3> best{0, 0, 0};
    double best_surface = 0;
    for (int a = 1; a <= parts; ++a) {
      if (parts % a) continue;
      for (int b = 1; b <= parts / a; ++b) {
        if ((parts / a) % b) continue;
        const int c = parts / a / b;
        if (a > s.size(0) || b > s.size(1) || c > s.size(2)) continue;
        const double x = double(s.size(0)) / a, y = double(s.size(1)) / b,
                     z = double(s.size(2)) / c;
        const double surface = x * y + y * z + x * z;
        if (best[0] == 0 || surface < best_surface - 1e-9 ||
            (surface < best_surface + 1e-9 &&
             std::make_tuple(c, b) > std::make_tuple(best[2], best[1]))) {
          best = {a, b, c};
          best_surface = surface;
        }
      }
    }
    if (best[0] == 0) {
      throw InputError(
          fmt::format("torus.partition.scheme = box: {} partitions do not fit the "
                      "{}x{}x{} machine's axes",
                      parts, s.size(0), s.size(1), s.size(2)));
    }
    return best;
  }
};

}  // namespace

const PolicyList<Partitioner>& partitioners() {
  static const Slab slab;
  static const Box box;
  static const PolicyList<Partitioner> list("partitioner", {&slab, &box});
  return list;
}

Partition declare_partition(const std::string& prefix, const TorusShape& shape, int parts,
                            int self) {
  ParamScope p(prefix);
  const std::string scheme =
      p.choice("scheme", "slab",
               "how a parallel run (mpirun -np P) cuts the machine into P partitions: " +
                   partitioners().help(),
               partitioners().names());
  const std::string axis =
      p.choice("axis", "auto", "the axis slabs cut (auto: the longest; a tie goes to z)",
               {"auto", "x", "y", "z"});
  const std::string grid_text =
      p.text("grid", "auto",
             "boxes per axis for the box scheme, XxYxZ with X*Y*Z = P (auto: the grid whose boxes "
             "have the least surface)");
  std::array<int, 3> grid{0, 0, 0};
  if (grid_text != "auto") {
    static const std::regex kGrid("([1-9][0-9]{0,4})x([1-9][0-9]{0,4})x([1-9][0-9]{0,4})");
    std::smatch m;
    if (!std::regex_match(grid_text, m, kGrid)) {
      throw InputError(ParamRegistry::instance().refusal(
          p.name("grid"), fmt::format("= '{}': it is 'auto' or XxYxZ, such as 2x2x4", grid_text)));
    }
    grid = {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
  }
  if (parts == 1) return Partition(shape);
  const int ax = axis == "auto" ? -1 : axis[0] - 'x';
  Partitioner::Cut cut = partitioners().get(scheme).cut(shape, parts, ax, grid);
  return Partition(shape, parts, self, std::move(cut.owner), std::move(cut.description));
}

}  // namespace hs::torus
