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

// Requests are ordered by slot: the first accepted at or after the pointer, else the first
// accepted; the pointer moves past the winner. -1 if none is accepted.
template <class Accept>
int round_robin(const ArbRequest* r, int n, uint8_t& pointer, Accept accept) {
  int first = -1, after = -1;
  for (int i = 0; i < n && after < 0; ++i) {
    if (!accept(r[i])) continue;
    if (first < 0) first = i;
    if (r[i].slot >= pointer) after = i;
  }
  const int best = after >= 0 ? after : first;
  if (best >= 0) pointer = static_cast<uint8_t>(r[best].slot + 1);
  return best;
}

class Age : public OutputArbiter {
 public:
  const char* name() const override { return "age"; }
  const char* summary() const override {
    return "in-transit packets before injection, oldest first; injection FIFOs in turn "
           "(in-transit priority)";
  }
  int pick(const ArbRequest* r, int n, uint8_t& pointer) const override {
    const int s = oldest_starved(r, n);
    if (s >= 0) return s;
    int best = -1;
    for (int i = 0; i < n; ++i) {
      if (!r[i].injection && (best < 0 || r[i].injected_ps < r[best].injected_ps)) best = i;
    }
    if (best >= 0) return best;
    return round_robin(r, n, pointer, [](const ArbRequest&) { return true; });
  }
};

class RoundRobin : public OutputArbiter {
 public:
  const char* name() const override { return "round_robin"; }
  const char* summary() const override { return "every input in turn"; }
  int pick(const ArbRequest* r, int n, uint8_t& pointer) const override {
    const int s = oldest_starved(r, n);
    if (s >= 0) return s;
    return round_robin(r, n, pointer, [](const ArbRequest&) { return true; });
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
