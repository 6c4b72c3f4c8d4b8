// The pingpong_pairs motif: every rank in a pair, all pairs at once, each ping-ponging `bytes`
// for the iterations: the pair's lower rank (the pinger) sends and times the echo, its partner
// posts its next receive before echoing. An iteration is one round trip; the pinger checks the
// echo byte for byte and the partner the ping. Pairings (pair_ranks):
// - neighbour: the rank with the same core on the adjacent node along the first torus
//   dimension of even extent (x pairs with x+1 for even x): one hop apart;
// - random: consecutive ranks of a seeded shuffle;
// - bisection: rank r with r + size/2.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/torus/network/torus_shape.h"
#include "sw/apps/mpi_motifs.h"

namespace hs::fw::motifs {

enum class Pairing { Neighbour, Random, Bisection };
Pairing parse_pairing(const std::string& name);  // throws std::invalid_argument
inline const char* const kPairingNames[] = {"neighbour", "random", "bisection"};

// Each rank's partner. Throws std::invalid_argument when the pairing cannot pair every rank
// (an odd count; for neighbour, no torus dimension of even extent).
std::vector<int> pair_ranks(Pairing pairing, const mpi::RankMap& map,
                            const hs::torus::TorusShape& shape, uint64_t seed);

struct PingpongConfig {
  int iterations = 16, warmup = 2;
  uint32_t bytes = 8;
  std::vector<int> partner;  // pair_ranks
};

void pingpong_pairs(mpi::Comm& comm, const PingpongConfig& cfg, Timing& out);

}  // namespace hs::fw::motifs
