// One kind of fault on many replicated streams of events (the links of a torus): each stream
// numbers its own events from 1 and draws from its own random stream, seeded from the run's
// seed, the fault's name and the stream's number. Which events of a stream are hit so depends
// only on that stream's events: not on the traffic of other streams, nor on which process of a
// parallel run simulates it.
//
// Rules it keeps (as FaultInjector's, per stream):
// - Off by default: with rate 0 and no event listed, hit() is false and costs one compare, and
//   nothing is allocated.
// - A listed event is hit exactly once, whatever the rate; the rate's draw happens for every
//   event, listed or not, so listing an event does not shift which later events the rate hits.
// - Memory: one event count per stream (8 bytes), allocated only when on. The draw for event n
//   is a hash of the stream's seed and n, so no generator state is kept.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hs {

class FaultStreams {
 public:
  struct Listed {
    std::vector<uint64_t> every;                         // hit on every stream
    std::vector<std::pair<size_t, uint64_t>> on_stream;  // (stream, event)
  };
  FaultStreams() = default;  // off
  // `name` seeds the random streams (the parameters' common name).
  FaultStreams(double rate, Listed listed, const std::string& name, size_t streams);

  bool enabled() const { return on_; }
  bool hit(size_t stream) {
    if (!on_) return false;
    return draw(stream);
  }
  uint64_t events(size_t stream) const { return on_ ? events_[stream] : 0; }

 private:
  bool draw(size_t stream);
  bool on_ = false;
  double rate_ = 0;
  uint64_t seed_ = 0;
  Listed listed_;  // both sorted
  std::vector<uint64_t> events_;
};

}  // namespace hs
