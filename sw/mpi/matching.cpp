#include "sw/mpi/matching.h"

namespace hs::fw::mpi {

size_t Matcher::held() const {
  size_t n = 0;
  for (const auto& [src, s] : sources_) n += s.held.size();
  return n;
}

Matcher::Match Matcher::consider(const Envelope& e) {
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (!accepts(*it, e)) continue;
    const int id = it->id;
    posted_.erase(it);
    return {e, id};
  }
  unexpected_.push_back(e);
  return {e, -1};
}

std::vector<Matcher::Match> Matcher::arrive(const Envelope& e) {
  std::vector<Match> out;
  Source& source = sources_[e.src];
  auto& next = source.next_seq;
  auto& held = source.held;
  if (e.seq != next) {
    held.emplace(e.seq, e);
    return out;
  }
  out.push_back(consider(e));
  next = (next + 1) % kSeqModulus;
  for (auto it = held.find(next); it != held.end(); it = held.find(next)) {
    out.push_back(consider(it->second));
    held.erase(it);
    next = (next + 1) % kSeqModulus;
  }
  return out;
}

std::optional<Envelope> Matcher::post(int id, int src, int ctx, int tag) {
  const Posted p{id, src, ctx, tag};
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (!accepts(p, *it)) continue;
    Envelope e = *it;
    unexpected_.erase(it);
    return e;
  }
  posted_.push_back(p);
  return std::nullopt;
}

std::optional<Envelope> Matcher::peek(int src, int ctx, int tag) const {
  const Posted p{-1, src, ctx, tag};
  for (const auto& e : unexpected_) {
    if (accepts(p, e)) return e;
  }
  return std::nullopt;
}

}  // namespace hs::fw::mpi
