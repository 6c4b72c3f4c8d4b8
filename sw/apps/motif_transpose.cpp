#include "sw/apps/motif_transpose.h"

namespace hs::fw::motifs {

void transpose(mpi::Comm& comm, mpi::Collectives& coll, const TransposeConfig& cfg, Timing& out) {
  Hal& hal = comm.hal();
  const int r = comm.rank(), cols = comm.size() / cfg.rows;
  const int row = r / cols, col = r % cols;
  mpi::Comm row_comm = coll.split(row, col);
  mpi::Comm col_comm = coll.split(col, row);
  // Ranked by the key: my row's ranks by column, my column's by row.
  for (int k = 0; k < cols; ++k) {
    if (row_comm.world_rank(k) != row * cols + k) hal.fail("transpose: row communicator misranked");
  }
  for (int k = 0; k < cfg.rows; ++k) {
    if (col_comm.world_rank(k) != k * cols + col)
      hal.fail("transpose: column communicator misranked");
  }
  mpi::Collectives row_coll(row_comm, cfg.algorithms), col_coll(col_comm, cfg.algorithms);
  const uint64_t sbuf = comm.window(), rbuf = comm.window() + (32u << 20);
  // One exchange: block j to the communicator's rank j, each checked from its sender.
  const auto exchange = [&](mpi::Comm& sub, mpi::Collectives& sub_coll, int it, int phase) {
    const int n = sub.size(), me = sub.rank();
    const auto channel = [&](int to) { return phase * 65536 + to; };
    for (int j = 0; j < n; ++j) {
      write_payload(hal, sbuf + uint64_t{cfg.bytes} * j, cfg.bytes, r, it, channel(j));
    }
    sub_coll.alltoall(sbuf, rbuf, cfg.bytes);
    for (int i = 0; i < n; ++i) {
      check_payload(hal, rbuf + uint64_t{cfg.bytes} * i, cfg.bytes, sub.world_rank(i), it,
                    channel(me), r, "transpose block");
    }
  };
  for (int it = 0; it < cfg.warmup + cfg.iterations; ++it) {
    Iteration iteration(comm, "transpose iteration");
    // Each exchange sends the compute step's output.
    iteration.compute(cfg.compute_cycles);
    exchange(row_comm, row_coll, it, 0);
    iteration.compute(cfg.compute_cycles);
    exchange(col_comm, col_coll, it, 1);
    iteration.finish(it >= cfg.warmup, out);
  }
}

}  // namespace hs::fw::motifs
