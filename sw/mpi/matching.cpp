#include "sw/mpi/matching.h"

namespace hs::fw::mpi {

Matcher::Matcher(int ranks)
    : next_seq_(static_cast<size_t>(ranks), 0), held_(static_cast<size_t>(ranks)) {}

size_t Matcher::held() const {
  size_t n = 0;
  for (const auto& h : held_) n += h.size();
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
  auto& next = next_seq_[static_cast<size_t>(e.src)];
  auto& held = held_[static_cast<size_t>(e.src)];
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

}  // namespace hs::fw::mpi
