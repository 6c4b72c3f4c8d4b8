// Communication motifs as MPI programs, run as every rank, each timing its iterations on the
// core's timebase and splitting them into compute (cycles it spent computing) and
// communication (the rest):
// - halo3d: the ranks as a periodic 3D grid (balanced factors, like MPI_Dims_create); each
//   iteration computes on its cells, then swaps a face with each of its 6 neighbours and
//   checks every byte it received;
// - allreduce: each iteration computes, then allreduces a vector.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "sw/mpi/collectives.h"

namespace hs::fw::motifs {

struct Timing {
  std::vector<uint64_t> iteration_cycles;        // timed iterations
  uint64_t compute_cycles = 0, comm_cycles = 0;  // over the timed iterations
  uint64_t messages = 0, bytes = 0;              // sent in the timed iterations
};

// Balanced factors of `ranks`, largest first.
std::array<int, 3> grid_dims(int ranks);

struct HaloConfig {
  int iterations = 4, warmup = 1;
  int cells = 16;               // cells along each edge of a rank's block
  uint32_t bytes_per_cell = 8;  // a face is cells^2 x this
  double cycles_per_cell = 20;  // the stencil's compute
};
void halo3d(mpi::Comm& comm, const HaloConfig& cfg, Timing& out);

struct AllreduceConfig {
  int iterations = 8, warmup = 1;
  uint32_t bytes = 8;
  uint64_t compute_cycles = 10000;
  mpi::Datatype type = mpi::Datatype::Double;
};
void allreduce_loop(mpi::Comm& comm, mpi::Collectives& coll, const AllreduceConfig& cfg,
                    Timing& out);

}  // namespace hs::fw::motifs
