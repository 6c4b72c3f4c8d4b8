// The `program` workload's firmware: one rank running a message-passing program
// (sw/apps/mpi_program.h) through sw/mpi. Every message carries a payload the sender writes
// from (source, destination, tag, its count of such messages) and the receiver checks byte
// for byte; collectives' inputs are written from the rank and their results left to the MPI
// checker. Each iteration of the rank's first loop directly in a group's body is timed and split
// into compute (its compute statements) and communication (the rest), as the motifs are.
#pragma once
#include <cstdint>

#include "sw/apps/mpi_motifs.h"
#include "sw/apps/mpi_program.h"
#include "sw/mpi/collectives.h"

namespace hs::fw::program {

struct RankResult {
  motifs::Timing timing;        // the timed iterations
  uint64_t total_cycles = 0;    // the whole program
  uint64_t compute_cycles = 0;  // the whole program's compute statements
  uint64_t payload_bytes_checked = 0;
};

// Runs `p` as comm's rank. A mistake the checker before the run would have refused fails the
// rank (Hal::fail) rather than running on.
void run_rank(mpi::Comm& comm, mpi::Collectives& coll, const Program& p, const Layout& layout,
              RankResult& out);

}  // namespace hs::fw::program
