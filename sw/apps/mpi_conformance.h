// An MPI conformance program, run as every rank: point-to-point semantics (a ring exchange at
// sizes across the three protocols, empty messages, unexpected messages matched in send
// order, wildcard source and tag, many-to-one with any source, receives posted before their
// messages), each received buffer compared with what its sender wrote; then every
// collective, its inputs written by each rank and its result left to the MPI checker.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sw/mpi/collectives.h"

namespace hs::fw::conformance {

struct Config {
  bool p2p = true;
  bool collectives = true;
  std::vector<uint32_t> p2p_sizes = {0, 8, 1000, 4000, 40000, 200000};
  uint32_t bytes = 4096;  // collective vectors (per rank, per pair for alltoall)
  int repeat = 1;         // rounds of collectives
  mpi::Datatype type = mpi::Datatype::Int64;
  mpi::Op op = mpi::Op::Sum;
};

struct Results {
  uint64_t p2p_checks = 0;                                          // received buffers compared
  std::vector<std::pair<std::string, uint64_t>> collective_cycles;  // last round, per call
};

void run(mpi::Comm& comm, mpi::Collectives& coll, const Config& cfg, Results& out);

}  // namespace hs::fw::conformance
