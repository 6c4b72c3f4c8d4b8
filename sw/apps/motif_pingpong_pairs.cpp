#include "sw/apps/motif_pingpong_pairs.h"

#include <stdexcept>

namespace hs::fw::motifs {

Pairing parse_pairing(const std::string& name) {
  for (int i = 0; i < 3; ++i) {
    if (name == kPairingNames[i]) return static_cast<Pairing>(i);
  }
  throw std::invalid_argument("pairing '" + name + "' (neighbour, random, bisection)");
}

std::vector<int> pair_ranks(Pairing pairing, const mpi::RankMap& map,
                            const hs::torus::TorusShape& shape, uint64_t seed) {
  const int n = map.size();
  if (n % 2 != 0) throw std::invalid_argument(std::to_string(n) + " ranks cannot all be paired");
  std::vector<int> partner(static_cast<size_t>(n), -1);
  const auto pair = [&](int a, int b) {
    partner[static_cast<size_t>(a)] = b;
    partner[static_cast<size_t>(b)] = a;
  };
  switch (pairing) {
    case Pairing::Neighbour: {
      int d = 0;
      while (d < 3 && shape.size(d) % 2 != 0) ++d;
      if (d == 3) {
        throw std::invalid_argument("neighbour pairing needs a torus dimension of even extent");
      }
      for (int r = 0; r < n; ++r) {
        const auto& place = map.place(r);
        auto c = shape.coord(place.node);
        if (c.v[d] % 2 != 0) continue;
        c.v[d] += 1;
        pair(r, map.rank_of_endpoint(shape.node(c) * map.ranks_per_node() + place.t));
      }
      break;
    }
    case Pairing::Random: {
      Rng rng(seed);
      const std::vector<int> order = shuffled(n, rng);
      for (size_t i = 0; i + 1 < order.size(); i += 2) pair(order[i], order[i + 1]);
      break;
    }
    case Pairing::Bisection:
      for (int r = 0; r < n / 2; ++r) pair(r, r + n / 2);
      break;
  }
  return partner;
}

void pingpong_pairs(mpi::Comm& comm, const PingpongConfig& cfg, Timing& out) {
  Hal& hal = comm.hal();
  const int r = comm.rank(), peer = cfg.partner[static_cast<size_t>(r)];
  const uint64_t buf[2] = {comm.window(), comm.window() + (32u << 20)};
  const int total = cfg.warmup + cfg.iterations;
  if (r < peer) {
    for (int it = 0; it < total; ++it) {
      write_payload(hal, buf[0], cfg.bytes, r, it, 0);
      Iteration iteration(comm, "pingpong round trip");
      mpi::Request echo = comm.irecv(buf[1], cfg.bytes, peer, 0);
      comm.send(buf[0], cfg.bytes, peer, 0);
      comm.wait(echo);
      iteration.finish(it >= cfg.warmup, out);
      check_payload(hal, buf[1], cfg.bytes, r, it, 0, r, "echo");
    }
    return;
  }
  // The partner: each ping's receive is posted before the previous one is echoed.
  mpi::Request ping = comm.irecv(buf[0], cfg.bytes, peer, 0);
  for (int it = 0; it < total; ++it) {
    Iteration iteration(comm, "pingpong echo");
    comm.wait(ping);
    const uint64_t got = buf[it % 2];
    if (it + 1 < total) ping = comm.irecv(buf[(it + 1) % 2], cfg.bytes, peer, 0);
    comm.send(got, cfg.bytes, peer, 0);
    iteration.finish(it >= cfg.warmup, out);
    check_payload(hal, got, cfg.bytes, peer, it, 0, r, "ping");
  }
}

}  // namespace hs::fw::motifs
