// Communication motifs as MPI programs, run as every rank, each timing its iterations on the
// core's timebase and splitting them into compute (cycles it spent computing) and
// communication (the rest):
// - halo3d: the ranks as a periodic 3D grid (balanced factors, like MPI_Dims_create); each
//   iteration computes on its cells, then swaps a face with each of its 6 neighbours (or, with
//   26, also an edge with each of 12 and a corner with each of 8) and checks every byte it
//   received;
// - allreduce: each iteration computes, then allreduces a vector.
// The others each have their own file: motif_sweep3d.h, motif_transpose.h,
// motif_random_permutation.h, motif_pingpong_pairs.h. What this file shares with them: the
// timing record, an iteration's clock, and the payload pattern every motif checks.
#pragma once
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "sw/mpi/collectives.h"

namespace hs::fw::motifs {

struct Timing {
  std::vector<uint64_t> iteration_cycles;        // timed iterations
  uint64_t compute_cycles = 0, comm_cycles = 0;  // over the timed iterations
  uint64_t messages = 0, bytes = 0;              // sent in the timed iterations
};

// One iteration on one rank: its phase on the trace, the compute it charges, and, when timed,
// its time, compute and the messages and bytes the rank sent in it added to a Timing.
class Iteration {
 public:
  Iteration(mpi::Comm& comm, const char* name);
  // Spends `cycles` computing and counts them as compute.
  void compute(uint64_t cycles);
  void finish(bool timed, Timing& out);

 private:
  mpi::Comm& comm_;
  Phase phase_;
  uint64_t t0_, sent0_, bytes0_, computed_ = 0;
};

// The payload pattern: byte `i` of what `sender` sends on `channel` in `iteration`.
uint8_t payload_byte(int sender, int iteration, int channel, uint32_t i);
// Writes the pattern to `addr` (the sending step's output, through the core).
void write_payload(Hal& hal, uint64_t addr, uint32_t bytes, int sender, int iteration, int channel);
// Fails the run, naming `receiver` and `what`, unless `addr` holds the pattern.
void check_payload(Hal& hal, uint64_t addr, uint32_t bytes, int sender, int iteration, int channel,
                   int receiver, const char* what);

// The motifs' random choices: a seeded generator the same on every rank, and 0..n-1 in the
// order of a Fisher-Yates shuffle drawn from it.
using Rng = std::mt19937_64;
std::vector<int> shuffled(int n, Rng& rng);

// Balanced factors of `ranks`, largest first.
std::array<int, 3> grid_dims(int ranks);

struct HaloConfig {
  int iterations = 4, warmup = 1;
  int cells = 16;               // cells along each edge of a rank's block
  uint32_t bytes_per_cell = 8;  // a face is cells^2 x this, an edge cells x this, a corner this
  double cycles_per_cell = 20;  // the stencil's compute
  int neighbours = 6;           // 6: faces; 26: faces, edges and corners
  // Ranks along x, y and z, x fastest (their product is the job's ranks); all 0: grid_dims().
  std::array<int, 3> grid{0, 0, 0};
};
// The grid halo3d lays `ranks` out on: cfg.grid if given, else grid_dims(ranks).
std::array<int, 3> halo_grid(const HaloConfig& cfg, int ranks);
// The bytes halo3d sends to one neighbour per iteration, over all of them.
uint64_t halo_bytes_per_rank(const HaloConfig& cfg);
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
