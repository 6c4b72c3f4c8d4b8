#include "tlm/fault/fault_streams.h"

#include <algorithm>

#include "tlm/common/random_stream.h"

namespace hs {

FaultStreams::FaultStreams(double rate, Listed listed, const std::string& name, size_t streams)
    : on_(rate > 0 || !listed.every.empty() || !listed.on_stream.empty()),
      rate_(rate),
      seed_(stream_seed(name)),
      listed_(std::move(listed)) {
  if (!on_) return;
  std::sort(listed_.every.begin(), listed_.every.end());
  std::sort(listed_.on_stream.begin(), listed_.on_stream.end());
  events_.assign(streams, 0);
}

bool FaultStreams::draw(size_t stream) {
  const uint64_t n = ++events_[stream];
  const bool listed = std::binary_search(listed_.every.begin(), listed_.every.end(), n) ||
                      std::binary_search(listed_.on_stream.begin(), listed_.on_stream.end(),
                                         std::make_pair(stream, n));
  const bool drawn = rate_ > 0 && uniform_draw(seed_ ^ splitmix64(stream), n) < rate_;
  return listed || drawn;
}

}  // namespace hs
