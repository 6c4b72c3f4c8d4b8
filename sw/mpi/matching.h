// MPI matching, apart from any hardware: the posted-receive queue, the unexpected-message
// queue, wildcards, and the non-overtaking rule. Messages from a source are considered in the
// order sent (their sequence numbers): one that arrives ahead of an earlier one is held until
// the earlier one has arrived. A message matches the oldest posted receive that accepts it; a
// receive takes the oldest unexpected message it accepts.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sw/mpi/envelope.h"

namespace hs::fw::mpi {

constexpr int kAnySource = -1;
constexpr int kAnyTag = -1;

class Matcher {
 public:
  Matcher() = default;

  struct Match {
    Envelope msg;
    int recv;  // the posted receive it matched; -1: it joined the unexpected queue
  };
  // A message's first news (its first packet or RTS): the messages now in order, each matched
  // or queued as unexpected, in the order they were considered.
  std::vector<Match> arrive(const Envelope& e);
  // A receive for (src, ctx, tag), either may be a wildcard: the unexpected message it takes,
  // or nothing (it waits in the posted queue under `id`).
  std::optional<Envelope> post(int id, int src, int ctx, int tag);
  // The unexpected message such a receive would take, left in its queue (a probe).
  std::optional<Envelope> peek(int src, int ctx, int tag) const;

  size_t posted() const { return posted_.size(); }
  size_t unexpected() const { return unexpected_.size(); }
  size_t held() const;

 private:
  struct Posted {
    int id, src, ctx, tag;
  };
  static bool accepts(const Posted& p, const Envelope& e) {
    return p.ctx == e.ctx && (p.src == kAnySource || p.src == e.src) &&
           (p.tag == kAnyTag || p.tag == e.tag);
  }
  Match consider(const Envelope& e);

  // Per source that has sent here, created on its first message: state grows with the peers
  // a rank talks to, not with the machine (a halo rank on 73,728 nodes keeps six).
  struct Source {
    uint32_t next_seq = 0;
    std::map<uint32_t, Envelope> held;  // by sequence number
  };
  std::unordered_map<int, Source> sources_;
  std::deque<Posted> posted_;
  std::deque<Envelope> unexpected_;
};

}  // namespace hs::fw::mpi
