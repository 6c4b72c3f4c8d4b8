#include "hw/torus/network/routing/routing_function.h"

#include <array>

namespace hs::torus {

namespace {

class DimensionOrder : public RoutingFunction {
 public:
  const char* name() const override { return "deterministic"; }
  const char* summary() const override {
    return "dimension order (x, y, z) on the bubble escape VC";
  }
  Route route(const TorusShape& s, int node, const Packet& p) const override {
    Route r;
    r.escape_dir = static_cast<int8_t>(s.dor_dir(node, p.dest));
    return r;
  }
};

class MinimalAdaptive : public RoutingFunction {
 public:
  const char* name() const override { return "adaptive"; }
  const char* summary() const override {
    return "minimal adaptive on the dynamic VCs, dimension order on the bubble escape VC "
           "(Blue Gene/P)";
  }
  Route route(const TorusShape& s, int node, const Packet& p) const override {
    Route r;
    if (p.vc_class != VcClass::Dynamic || p.escaped) {
      r.escape_dir = static_cast<int8_t>(s.dor_dir(node, p.dest));
      return r;
    }
    std::array<int, kDirs> dirs{};
    const int n = s.minimal_dirs(node, p.dest, dirs);
    // Minimal directions come in dimension order, a tie's + first: the first is the
    // dimension-order one (dor_dir), found without a second look at the coordinates.
    r.escape_dir = static_cast<int8_t>(n > 0 ? dirs[0] : -1);
    for (int i = 0; i < n; ++i) r.dynamic_dirs |= static_cast<uint8_t>(1u << dirs[i]);
    return r;
  }
};

}  // namespace

const PolicyList<RoutingFunction>& routing_functions() {
  static const MinimalAdaptive adaptive;
  static const DimensionOrder dor;
  static const PolicyList<RoutingFunction> list("routing function", {&adaptive, &dor});
  return list;
}

}  // namespace hs::torus
