#include "testbench/runner/stream_meter.h"

#include <algorithm>

namespace hs::runner {

using sc_core::sc_time;

StreamMeter::StreamMeter(int streams, uint64_t bytes_per_stream, double lead, const sc_time& bin)
    : bytes_per_stream_(bytes_per_stream),
      lead_(lead),
      bin_(bin),
      bins_(static_cast<size_t>(streams)) {}

StreamMeter::Bin& StreamMeter::bin_at(int stream, const sc_time& t) {
  auto& v = bins_[static_cast<size_t>(stream)];
  const auto i = static_cast<size_t>(t / bin_);
  if (i >= v.size()) v.resize(i + 1);
  return v[i];
}

void StreamMeter::delivered(int stream, uint64_t bytes, const sc_time& at) {
  bin_at(stream, at).bytes += bytes;
}

void StreamMeter::command_done(int stream, const sc_time& issued, const sc_time& done) {
  Bin& b = bin_at(stream, done);
  ++b.commands;
  b.latency_ns += (done - issued).to_seconds() * 1e9;
}

SteadyWindow StreamMeter::window() const {
  const auto lead = static_cast<uint64_t>(static_cast<double>(bytes_per_stream_) * lead_);
  size_t open = 0, close = SIZE_MAX;
  for (const auto& v : bins_) {
    // Bin i holds deliveries in [i, i + 1) bins: the stream has passed a mark by the end of
    // the bin in which its running total reaches it.
    uint64_t total = 0;
    size_t past_lead = v.size(), before_tail = v.size();
    for (size_t i = 0; i < v.size(); ++i) {
      total += v[i].bytes;
      if (past_lead == v.size() && total >= lead) past_lead = i + 1;
      if (before_tail == v.size() && total > bytes_per_stream_ - lead) before_tail = i;
    }
    open = std::max(open, past_lead);
    close = std::min(close, before_tail);
  }
  SteadyWindow w;
  if (bins_.empty() || close == SIZE_MAX || close <= open) return w;
  w.found = true;
  w.start = bin_ * static_cast<double>(open);
  w.end = bin_ * static_cast<double>(close);
  const double seconds = (w.end - w.start).to_seconds();
  double latency = 0;
  for (const auto& v : bins_) {
    uint64_t bytes = 0;
    for (size_t i = open; i < close && i < v.size(); ++i) {
      bytes += v[i].bytes;
      w.commands += v[i].commands;
      latency += v[i].latency_ns;
    }
    w.bytes_per_second.push_back(static_cast<double>(bytes) / seconds);
  }
  w.mean_command_latency_ns = w.commands ? latency / static_cast<double>(w.commands) : 0.0;
  return w;
}

}  // namespace hs::runner
