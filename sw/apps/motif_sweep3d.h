// The sweep3d motif: a wavefront pipeline over a 2D grid of ranks, as in discrete-ordinates
// transport. Rank r sits at (i, j) = (r mod px, r div px) of a px x py grid (not periodic).
// Each iteration sweeps from `octants` corners in turn (octant o runs towards -i when bit 0 is
// set, -j for bit 1, and through the k-planes backwards for bit 2); a sweep walks the nz
// k-planes in blocks of kblock: for each block a rank receives a face from its upstream
// neighbour along i and along j (where it has one), computes on its cells x cells x planes
// cells, then sends a face to its downstream neighbours. A face is cells x planes x
// bytes_per_cell; every byte received is checked.
#pragma once
#include <cstdint>

#include "sw/apps/mpi_motifs.h"

namespace hs::fw::motifs {

struct Sweep3dConfig {
  int iterations = 2, warmup = 1;
  int px = 1;       // ranks along i (it divides the ranks)
  int cells = 8;    // cells along i and along j of a rank's block
  int nz = 64;      // k-planes
  int kblock = 8;   // k-planes a block (the pipeline's grain)
  int octants = 8;  // sweeps an iteration, corners 0..octants-1
  uint32_t bytes_per_cell = 8;
  double cycles_per_cell = 10;  // compute per cell of a block
};

// Blocks of a sweep (the last may be thinner).
int sweep3d_blocks(const Sweep3dConfig& cfg);
// Messages all ranks send in one iteration.
uint64_t sweep3d_messages(const Sweep3dConfig& cfg, int ranks);
void sweep3d(mpi::Comm& comm, const Sweep3dConfig& cfg, Timing& out);

}  // namespace hs::fw::motifs
