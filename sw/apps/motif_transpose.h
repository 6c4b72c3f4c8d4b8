// The transpose motif: the all-to-all exchanges of a 3D FFT on a 2D (pencil) decomposition.
// The ranks form a rows x cols grid, rank r at row r div cols and column r mod cols; each rank
// splits a communicator of its row and one of its column (Collectives::split), checking each
// by its ranks and a ring exchange of point-to-point messages on it. Each iteration
// computes, alltoalls `bytes` per pair within its row, computes again, then alltoalls within
// its column. Every block is checked by its receiver, and by the MPI checker.
#pragma once
#include <cstdint>

#include "sw/apps/mpi_motifs.h"

namespace hs::fw::motifs {

struct TransposeConfig {
  int iterations = 4, warmup = 1;
  int rows = 1;                     // grid rows (they divide the ranks)
  uint32_t bytes = 1024;            // per pair, in each exchange
  uint64_t compute_cycles = 10000;  // before each exchange
  mpi::Algorithms algorithms;       // the job's, for the row and column communicators
};

void transpose(mpi::Comm& comm, mpi::Collectives& coll, const TransposeConfig& cfg, Timing& out);

}  // namespace hs::fw::motifs
