// Fault injection for one stream of events of one component (TLPs on a PCIe direction, packets
// on a torus link, frames on an Ethernet link): which events are hit, by rate or by number.
//
// Rules it keeps:
// - Off by default: with rate 0 and no numbers listed, hit() is false and costs one compare.
// - Off costs little memory: the random stream exists only when a rate is set.
// - Deterministic: the random stream is seeded from the run's seed and the component's name,
//   so a run is the same for a given --seed whatever other components draw.
// - Events are numbered from 1 in the order hit() is asked; a listed number is hit exactly
//   once, whatever the rate.
// Parameters, under the component's scope: `<what>_rate` (probability per event, 0..1) and
// `<what>_at` ("3,17,200": the numbers of events to hit). Bad lists are refused before the
// run, naming the parameter.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tlm/common/random_stream.h"

namespace hs {

class ParamScope;

class FaultInjector {
 public:
  // What the parameters ask for: a component whose configuration is plain data (built in
  // tests without parameters) keeps this and builds its injector from it.
  struct Spec {
    double rate = 0;
    std::vector<uint64_t> at;  // sorted, distinct
    std::string name;          // the parameters' common name, which seeds the random stream
  };
  // Declares `<what>_rate` and `<what>_at` in `scope`; `event` names one event in descriptions
  // ("TLP", "packet"). `max_rate` bounds the rate where a hit event is retried until it passes
  // (a link that corrupts everything would never deliver).
  static Spec declare(const ParamScope& scope, const std::string& what, const std::string& desc,
                      const std::string& event, double max_rate = 1.0);

  FaultInjector() = default;  // off
  // `stream` tells apart the streams of one component ("down", "up").
  explicit FaultInjector(const Spec& spec, const std::string& stream = "");
  FaultInjector(const ParamScope& scope, const std::string& what, const std::string& desc,
                const std::string& event, double max_rate = 1.0, const std::string& stream = "")
      : FaultInjector(declare(scope, what, desc, event, max_rate), stream) {}

  bool enabled() const { return on_; }
  // Whether the next event is hit.
  bool hit() {
    if (!enabled()) return false;
    return draw();
  }
  uint64_t events() const { return events_; }

 private:
  bool draw();
  bool on_ = false;  // a rate or a number is set (hot paths test only this)
  double rate_ = 0;
  std::vector<uint64_t> at_;  // sorted, distinct
  size_t next_at_ = 0;
  uint64_t events_ = 0;
  // Only with a rate, so a large machine's idle injectors stay small.
  std::unique_ptr<std::mt19937_64> rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

}  // namespace hs
