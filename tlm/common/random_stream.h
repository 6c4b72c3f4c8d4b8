// The run's random streams. Every random choice a model makes (which packets a fault hits,
// which output an adaptive packet takes) draws from a stream of its own, seeded from the run's
// seed (--seed) and the stream's name: a component's draws depend only on that seed and on its
// own history, never on what other components draw, in which order they were built, or which
// process of a parallel run simulates them.
#pragma once
#include <cstdint>
#include <limits>
#include <string>

namespace hs {

// The splitmix64 finaliser: a bijection of 64-bit numbers that spreads near inputs apart.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The run's seed (--seed), from which every stream derives. Set by the runner before the model
// is built; 1 unless set.
void set_run_seed(uint64_t seed);
uint64_t run_seed();
// A seed for the stream named `name` (a component's path), derived from the run's seed.
uint64_t stream_seed(const std::string& name);

// A small random stream (8 bytes of state, splitmix64), for components replicated by the
// thousand: a UniformRandomBitGenerator, so <random>'s distributions take it.
class RandomStream {
 public:
  using result_type = uint64_t;
  RandomStream() = default;
  explicit RandomStream(uint64_t seed) : state_(seed) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }
  result_type operator()() {
    const uint64_t r = splitmix64(state_);
    state_ += 0x9e3779b97f4a7c15ull;
    return r;
  }

 private:
  uint64_t state_ = 0;
};

// The n-th draw of a counter-based stream, uniform in [0, 1): random access, no state.
inline double uniform_draw(uint64_t stream, uint64_t n) {
  return static_cast<double>(splitmix64(stream ^ splitmix64(n)) >> 11) * 0x1.0p-53;
}

}  // namespace hs
