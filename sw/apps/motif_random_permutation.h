// The random_permutation motif: each iteration every rank computes, then sends `bytes` to its
// image under a random derangement (a permutation with no fixed point, the same on every rank:
// drawn from the seed and the iteration) and receives from its preimage, checking every byte.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/apps/mpi_motifs.h"

namespace hs::fw::motifs {

struct PermutationConfig {
  int iterations = 4, warmup = 1;
  uint32_t bytes = 4096;
  uint64_t compute_cycles = 0;
  uint64_t seed = 1;
};

// Iteration `iteration`'s derangement of 0..n-1 (n >= 2): Fisher-Yates shuffles of the seeded
// generator, redrawn until no rank maps to itself.
std::vector<int> derangement(int n, uint64_t seed, int iteration);

void random_permutation(mpi::Comm& comm, const PermutationConfig& cfg, Timing& out);

}  // namespace hs::fw::motifs
