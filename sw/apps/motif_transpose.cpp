#include "sw/apps/motif_transpose.h"

#include <fmt/format.h>
#include <functional>

namespace hs::fw::motifs {

namespace {
// A split's result checked before use: its ranks are the world ranks `world_of` gives, in that
// order, and a ring exchange on it (each rank sends its world rank to the next) arrives from
// the previous rank, named by its rank in the communicator.
void check_communicator(mpi::Comm& sub, const std::function<int(int)>& world_of, const char* what) {
  Hal& hal = sub.hal();
  const int n = sub.size(), me = sub.rank(), me_world = sub.world_rank(me);
  for (int k = 0; k < n; ++k) {
    if (sub.world_rank(k) != world_of(k)) {
      hal.fail(fmt::format("rank {}: its {} communicator's rank {} is world rank {}, not {}",
                           me_world, what, k, sub.world_rank(k), world_of(k)));
    }
  }
  const uint64_t out = sub.window() + (48u << 20), in = out + 64;
  const int32_t mine = me_world;
  hal.store(out, &mine, sizeof mine);
  const int prev = (me + n - 1) % n;
  const mpi::Status st = sub.sendrecv(out, sizeof mine, (me + 1) % n, in, sizeof mine, prev, 7);
  int32_t got = -1;
  hal.load(in, &got, sizeof got);
  if (st.source != prev || st.tag != 7 || got != world_of(prev)) {
    hal.fail(
        fmt::format("rank {}: on its {} communicator it received {} from rank {} (tag {}); "
                    "expected {} from rank {} (tag 7)",
                    me_world, what, got, st.source, st.tag, world_of(prev), prev));
  }
}
}  // namespace

void transpose(mpi::Comm& comm, mpi::Collectives& coll, const TransposeConfig& cfg, Timing& out) {
  Hal& hal = comm.hal();
  const int r = comm.rank(), cols = comm.size() / cfg.rows;
  const int row = r / cols, col = r % cols;
  mpi::Comm row_comm = coll.split(row, col);
  mpi::Comm col_comm = coll.split(col, row);
  check_communicator(
      row_comm, [&](int k) { return row * cols + k; }, "row");
  check_communicator(
      col_comm, [&](int k) { return k * cols + col; }, "column");
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
