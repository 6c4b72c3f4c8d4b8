#include "hw/torus/network/routing/output_selection.h"

namespace hs::torus {

namespace {

class MostTokens : public OutputSelection {
 public:
  const char* name() const override { return "most_tokens"; }
  const char* summary() const override {
    return "the option with the most free downstream tokens (Blue Gene/P)";
  }
  int pick(const OutputOption* o, int n, RandomStream&) const override {
    int best = 0;
    for (int i = 1; i < n; ++i) {
      if (o[i].tokens > o[best].tokens) best = i;
    }
    return best;
  }
};

class Random : public OutputSelection {
 public:
  const char* name() const override { return "random"; }
  const char* summary() const override { return "uniformly random among the options"; }
  int pick(const OutputOption*, int n, RandomStream& rng) const override {
    return static_cast<int>(rng() % static_cast<uint64_t>(n));
  }
};

class LeastRecent : public OutputSelection {
 public:
  const char* name() const override { return "least_recent"; }
  const char* summary() const override {
    return "the direction granted longest ago at this router";
  }
  int pick(const OutputOption* o, int n, RandomStream&) const override {
    int best = 0;
    for (int i = 1; i < n; ++i) {
      if (o[i].last_used_ps < o[best].last_used_ps ||
          (o[i].last_used_ps == o[best].last_used_ps && o[i].tokens > o[best].tokens)) {
        best = i;
      }
    }
    return best;
  }
};

}  // namespace

const PolicyList<OutputSelection>& output_selections() {
  static const MostTokens most;
  static const Random random;
  static const LeastRecent lru;
  static const PolicyList<OutputSelection> list("output selection", {&most, &random, &lru});
  return list;
}

}  // namespace hs::torus
