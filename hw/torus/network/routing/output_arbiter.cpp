#include "hw/torus/network/routing/output_arbiter.h"

namespace hs::torus {

namespace {

// The longest-waiting starved request, or -1.
int oldest_starved(const ArbRequest* r, int n) {
  int best = -1;
  for (int i = 0; i < n; ++i) {
    if (r[i].starved && (best < 0 || r[i].waiting_since_ps < r[best].waiting_since_ps)) best = i;
  }
  return best;
}

class Age : public OutputArbiter {
 public:
  const char* name() const override { return "age"; }
  const char* summary() const override {
    return "in-transit packets before injection, oldest first (Blue Gene/P)";
  }
  int pick(const ArbRequest* r, int n, uint8_t&) const override {
    const int s = oldest_starved(r, n);
    if (s >= 0) return s;
    int best = 0;
    for (int i = 1; i < n; ++i) {
      if (r[i].injection != r[best].injection) {
        if (!r[i].injection) best = i;
      } else if (r[i].injected_ps < r[best].injected_ps) {
        best = i;
      }
    }
    return best;
  }
};

class RoundRobin : public OutputArbiter {
 public:
  const char* name() const override { return "round_robin"; }
  const char* summary() const override { return "every input in turn"; }
  int pick(const ArbRequest* r, int n, uint8_t& pointer) const override {
    int best = oldest_starved(r, n);
    if (best < 0) {
      best = 0;  // requests are ordered by slot: the first at or after the pointer, else wrap
      for (int i = 0; i < n; ++i) {
        if (r[i].slot >= pointer) {
          best = i;
          break;
        }
      }
    }
    pointer = static_cast<uint8_t>(r[best].slot + 1);
    return best;
  }
};

}  // namespace

const PolicyList<OutputArbiter>& output_arbiters() {
  static const Age age;
  static const RoundRobin rr;
  static const PolicyList<OutputArbiter> list("output arbiter", {&age, &rr});
  return list;
}

}  // namespace hs::torus
