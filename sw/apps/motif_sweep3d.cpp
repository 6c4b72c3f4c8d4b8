#include "sw/apps/motif_sweep3d.h"

#include <algorithm>
#include <cmath>

namespace hs::fw::motifs {

int sweep3d_blocks(const Sweep3dConfig& cfg) {
  return (cfg.nz + cfg.kblock - 1) / cfg.kblock;
}

uint64_t sweep3d_messages(const Sweep3dConfig& cfg, int ranks) {
  const uint64_t px = static_cast<uint64_t>(cfg.px), py = static_cast<uint64_t>(ranks) / px;
  // Per block: every rank but the last along i sends along i, likewise along j.
  const uint64_t per_block = (px - 1) * py + px * (py - 1);
  return per_block * static_cast<uint64_t>(sweep3d_blocks(cfg)) *
         static_cast<uint64_t>(cfg.octants);
}

void sweep3d(mpi::Comm& comm, const Sweep3dConfig& cfg, Timing& out) {
  Hal& hal = comm.hal();
  const int r = comm.rank(), px = cfg.px, py = comm.size() / cfg.px;
  const int i = r % px, j = r / px;
  const int blocks = sweep3d_blocks(cfg);
  // Buffers: the face along i and along j, to send and received.
  const uint64_t send[2] = {comm.window(), comm.window() + (8u << 20)};
  const uint64_t recv[2] = {comm.window() + (32u << 20), comm.window() + (40u << 20)};
  for (int it = 0; it < cfg.warmup + cfg.iterations; ++it) {
    Iteration iteration(comm, "sweep3d iteration");
    for (int o = 0; o < cfg.octants; ++o) {
      const int di = (o & 1) ? -1 : 1, dj = (o & 2) ? -1 : 1;
      const bool backwards = (o & 4) != 0;
      // Neighbours along i and j: upstream (-1 where none) and downstream.
      const int up[2] = {i - di >= 0 && i - di < px ? r - di : -1,
                         j - dj >= 0 && j - dj < py ? r - dj * px : -1};
      const int down[2] = {i + di >= 0 && i + di < px ? r + di : -1,
                           j + dj >= 0 && j + dj < py ? r + dj * px : -1};
      for (int n = 0; n < blocks; ++n) {
        const int b = backwards ? blocks - 1 - n : n;
        const int planes = std::min(cfg.kblock, cfg.nz - b * cfg.kblock);
        const uint32_t face = static_cast<uint32_t>(cfg.cells * planes) * cfg.bytes_per_cell;
        const auto channel = [&](int axis) { return (o * blocks + b) * 2 + axis; };
        std::vector<mpi::Request> reqs;
        for (int a = 0; a < 2; ++a) {
          if (up[a] >= 0) reqs.push_back(comm.irecv(recv[a], face, up[a], 2 * o + a));
        }
        comm.waitall(reqs);
        for (int a = 0; a < 2; ++a) {
          if (up[a] >= 0) check_payload(hal, recv[a], face, up[a], it, channel(a), r, "sweep face");
        }
        iteration.compute(static_cast<uint64_t>(
            std::llround(double(cfg.cells) * cfg.cells * planes * cfg.cycles_per_cell)));
        reqs.clear();
        for (int a = 0; a < 2; ++a) {
          if (down[a] < 0) continue;
          write_payload(hal, send[a], face, r, it, channel(a));
          reqs.push_back(comm.isend(send[a], face, down[a], 2 * o + a));
        }
        comm.waitall(reqs);
      }
    }
    iteration.finish(it >= cfg.warmup, out);
  }
}

}  // namespace hs::fw::motifs
