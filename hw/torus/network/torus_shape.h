// The shape of an X x Y x Z torus (or mesh): node numbering, neighbours on the six links, and
// minimal routes. Shared by the network model, the firmware (destination coordinates in
// descriptors) and the checkers (hop counts, route validity).
#pragma once
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace hs::torus {

// Link directions, in the order the router numbers its ports: +x -x +y -y +z -z.
enum Dir : int { kXPlus = 0, kXMinus, kYPlus, kYMinus, kZPlus, kZMinus, kDirs };
inline int dimension(int dir) {
  return dir / 2;
}
inline int opposite(int dir) {
  return dir ^ 1;
}
inline const char* dir_name(int dir) {
  static const char* names[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
  return names[dir];
}

struct Coord {
  int v[3];
  bool operator==(const Coord& o) const {
    return v[0] == o.v[0] && v[1] == o.v[1] && v[2] == o.v[2];
  }
};

class TorusShape {
 public:
  TorusShape() = default;
  TorusShape(int x, int y, int z, bool wrap) : size_{x, y, z}, wrap_(wrap) {
    for (int d = 0; d < 3; ++d) {
      pow2_ = pow2_ && size_[d] > 0 && (size_[d] & (size_[d] - 1)) == 0;
      while (pow2_ && (1 << shift_[d]) < size_[d]) ++shift_[d];
    }
  }

  int size(int d) const { return size_[d]; }
  bool wrap() const { return wrap_; }
  int nodes() const { return size_[0] * size_[1] * size_[2]; }
  Coord coord(int node) const {
    if (pow2_) {  // shifts and masks: the routers and checkers ask on every hop
      return {{node & (size_[0] - 1), (node >> shift_[0]) & (size_[1] - 1),
               node >> (shift_[0] + shift_[1])}};
    }
    return {{node % size_[0], (node / size_[0]) % size_[1], node / (size_[0] * size_[1])}};
  }
  int node(const Coord& c) const { return c.v[0] + size_[0] * (c.v[1] + size_[1] * c.v[2]); }
  std::string name(int node) const {
    const Coord c = coord(node);
    return "(" + std::to_string(c.v[0]) + "," + std::to_string(c.v[1]) + "," +
           std::to_string(c.v[2]) + ")";
  }

  // The node across link `dir`, or -1 where a mesh has no link (or the dimension has size 1).
  int neighbour(int node, int dir) const {
    Coord c = coord(node);
    const int d = dimension(dir), n = size_[d];
    if (n == 1) return -1;
    int x = c.v[d] + ((dir & 1) ? -1 : 1);
    if (x < 0 || x >= n) {
      if (!wrap_) return -1;
      x = (x + n) % n;
    }
    c.v[d] = x;
    return node_of(c);
  }

  // Signed minimal offset along dimension d from a to b: on a torus the shorter way round,
  // with a tie (exactly half way) going in the + direction.
  int offset(int a, int b, int d) const { return minimal(coord(b).v[d] - coord(a).v[d], d); }
  // True when both directions of dimension d are minimal (a torus ring of even size, exactly
  // half way round): adaptive routing may use either.
  bool tie(int a, int b, int d) const { return is_tie(offset(a, b, d), d); }
  // The route functions below find each node's coordinates once (the routers call them on
  // every hop, and a coordinate costs divisions).
  int hops(int a, int b) const {
    const Coord ca = coord(a), cb = coord(b);
    int h = 0;
    for (int d = 0; d < 3; ++d) h += std::abs(minimal(cb.v[d] - ca.v[d], d));
    return h;
  }
  // The dimension-order (x, then y, then z) next direction from a towards b, or -1 if a == b.
  int dor_dir(int a, int b) const {
    const Coord ca = coord(a), cb = coord(b);
    for (int d = 0; d < 3; ++d) {
      const int o = minimal(cb.v[d] - ca.v[d], d);
      if (o != 0) return 2 * d + (o > 0 ? 0 : 1);
    }
    return -1;
  }
  // The one dimension in which a and b differ (they lie on a line), or -1 (a == b, or they
  // differ in more than one).
  int line_dimension(int a, int b) const {
    const Coord ca = coord(a), cb = coord(b);
    int dim = -1;
    for (int d = 0; d < 3; ++d) {
      if (ca.v[d] == cb.v[d]) continue;
      if (dim >= 0) return -1;
      dim = d;
    }
    return dim;
  }
  // True when `node` is one of the nodes a dimension-order route from `src` to `dest` on a line
  // reaches (the source itself excluded, the destination included).
  bool on_line_route(int src, int dest, int node) const {
    const int d = line_dimension(src, dest);
    if (d < 0 || (node != src && line_dimension(src, node) != d)) return false;
    const int to_dest = offset(src, dest, d), to_node = offset(src, node, d);
    return to_node != 0 && (to_node > 0) == (to_dest > 0) && std::abs(to_node) <= std::abs(to_dest);
  }
  // Directions that shorten the route (at most one per dimension, two at a tie).
  int minimal_dirs(int a, int b, std::array<int, kDirs>& out) const {
    const Coord ca = coord(a), cb = coord(b);
    int n = 0;
    for (int d = 0; d < 3; ++d) {
      const int o = minimal(cb.v[d] - ca.v[d], d);
      if (o == 0) continue;
      out[n++] = 2 * d + (o > 0 ? 0 : 1);
      if (is_tie(o, d)) out[n++] = 2 * d + 1;
    }
    return n;
  }

 private:
  // The minimal signed offset for a coordinate difference `delta` along dimension d.
  int minimal(int delta, int d) const {
    const int n = size_[d];
    if (wrap_) {
      if (delta > n / 2) {
        delta -= n;
      } else if (delta < -n / 2) {
        delta += n;
      } else if (n % 2 == 0 && delta == -n / 2) {
        delta = n / 2;
      }
    }
    return delta;
  }
  bool is_tie(int minimal_offset, int d) const {
    return wrap_ && size_[d] % 2 == 0 && std::abs(minimal_offset) == size_[d] / 2;
  }
  int node_of(const Coord& c) const { return node(c); }
  std::array<int, 3> size_{1, 1, 1};
  bool wrap_ = true;
  bool pow2_ = true;                   // every size a power of two: coordinates by shifts
  std::array<int, 3> shift_{0, 0, 0};  // log2 of each size when pow2_
};

}  // namespace hs::torus
