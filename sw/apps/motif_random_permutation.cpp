#include "sw/apps/motif_random_permutation.h"

#include <algorithm>

namespace hs::fw::motifs {

std::vector<int> derangement(int n, uint64_t seed, int iteration) {
  Rng rng(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(iteration));
  for (;;) {
    std::vector<int> p = shuffled(n, rng);
    bool fixed = false;
    for (int i = 0; i < n && !fixed; ++i) fixed = p[static_cast<size_t>(i)] == i;
    if (!fixed) return p;
  }
}

void random_permutation(mpi::Comm& comm, const PermutationConfig& cfg, Timing& out) {
  Hal& hal = comm.hal();
  const int r = comm.rank();
  const uint64_t sbuf = comm.window(), rbuf = comm.window() + (32u << 20);
  for (int it = 0; it < cfg.warmup + cfg.iterations; ++it) {
    const std::vector<int> p = derangement(comm.size(), cfg.seed, it);
    const int to = p[static_cast<size_t>(r)];
    const int from = static_cast<int>(std::find(p.begin(), p.end(), r) - p.begin());
    const int tag = it % (mpi::kTagUpperBound + 1);
    Iteration iteration(comm, "random_permutation iteration");
    iteration.compute(cfg.compute_cycles);
    write_payload(hal, sbuf, cfg.bytes, r, it, 0);
    std::vector<mpi::Request> reqs = {comm.irecv(rbuf, cfg.bytes, from, tag),
                                      comm.isend(sbuf, cfg.bytes, to, tag)};
    comm.waitall(reqs);
    check_payload(hal, rbuf, cfg.bytes, from, it, 0, r, "permutation message");
    iteration.finish(it >= cfg.warmup, out);
  }
}

}  // namespace hs::fw::motifs
