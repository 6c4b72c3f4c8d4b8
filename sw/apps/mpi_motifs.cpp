#include "sw/apps/mpi_motifs.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace hs::fw::motifs {

std::array<int, 3> grid_dims(int ranks) {
  std::array<int, 3> d = {1, 1, 1};
  std::vector<int> primes;
  for (int n = ranks, f = 2; n > 1;) {
    if (n % f == 0) {
      primes.push_back(f);
      n /= f;
    } else {
      ++f;
    }
  }
  // Largest factors first, each to the currently smallest dimension.
  std::sort(primes.rbegin(), primes.rend());
  for (int f : primes) *std::min_element(d.begin(), d.end()) *= f;
  std::sort(d.rbegin(), d.rend());
  return d;
}

namespace {

uint8_t halo_byte(int sender, int iteration, int dir, uint32_t i) {
  const uint32_t h = static_cast<uint32_t>(sender) * 73856093u ^
                     static_cast<uint32_t>(iteration) * 19349663u ^
                     static_cast<uint32_t>(dir) * 83492791u ^ i * 2654435761u;
  return static_cast<uint8_t>(h >> 24 ^ h);
}

// Spends `cycles` computing and counts them.
void compute(Hal& hal, uint64_t cycles, uint64_t& total) {
  hal.compute(cycles);
  total += cycles;
}

}  // namespace

void halo3d(mpi::Comm& comm, const HaloConfig& cfg, Timing& out) {
  Hal& hal = comm.hal();
  const auto dims = grid_dims(comm.size());
  const int r = comm.rank();
  const int c[3] = {r % dims[0], r / dims[0] % dims[1], r / (dims[0] * dims[1])};
  const auto rank_at = [&](int x, int y, int z) {
    x = (x + dims[0]) % dims[0];
    y = (y + dims[1]) % dims[1];
    z = (z + dims[2]) % dims[2];
    return x + dims[0] * (y + dims[1] * z);
  };
  // Direction k = 2 d + (0: +, 1: -); a face sent in direction k arrives from the opposite side.
  struct Face {
    int dir, peer, from;
  };
  std::vector<Face> faces;
  for (int d = 0; d < 3; ++d) {
    if (dims[static_cast<size_t>(d)] == 1) continue;  // no neighbour along a dimension of one
    for (int s : {1, -1}) {
      int p[3] = {c[0], c[1], c[2]}, q[3] = {c[0], c[1], c[2]};
      p[d] += s;
      q[d] -= s;
      faces.push_back(
          {2 * d + (s > 0 ? 0 : 1), rank_at(p[0], p[1], p[2]), rank_at(q[0], q[1], q[2])});
    }
  }
  const uint32_t face = static_cast<uint32_t>(cfg.cells * cfg.cells) * cfg.bytes_per_cell;
  const uint64_t sbuf = comm.window(), rbuf = comm.window() + (32u << 20);
  const auto cells = static_cast<uint64_t>(cfg.cells) * static_cast<uint64_t>(cfg.cells) *
                     static_cast<uint64_t>(cfg.cells);
  std::vector<uint8_t> data(face);
  for (int it = 0; it < cfg.warmup + cfg.iterations; ++it) {
    const bool timed = it >= cfg.warmup;
    Phase phase(hal, "halo3d iteration");
    const uint64_t t0 = hal.cycles();
    uint64_t computed = 0;
    compute(hal, static_cast<uint64_t>(std::llround(cells * cfg.cycles_per_cell)), computed);
    // The faces to send are part of the stencil's output: written as it computes.
    for (size_t f = 0; f < faces.size(); ++f) {
      for (uint32_t i = 0; i < face; ++i) data[i] = halo_byte(r, it, faces[f].dir, i);
      hal.store(sbuf + f * face, data.data(), face);
    }
    std::vector<mpi::Request> reqs;
    for (size_t f = 0; f < faces.size(); ++f) {
      reqs.push_back(comm.irecv(rbuf + f * face, face, faces[f].from, faces[f].dir));
    }
    for (size_t f = 0; f < faces.size(); ++f) {
      reqs.push_back(comm.isend(sbuf + f * face, face, faces[f].peer, faces[f].dir));
    }
    comm.waitall(reqs);
    for (size_t f = 0; f < faces.size(); ++f) {
      hal.load(rbuf + f * face, data.data(), face);
      for (uint32_t i = 0; i < face; ++i) {
        if (data[i] != halo_byte(faces[f].from, it, faces[f].dir, i)) {
          hal.fail(
              fmt::format("rank {} iteration {}: halo byte {} from rank {} (direction {}) "
                          "differs from what it sent",
                          r, it, i, faces[f].from, faces[f].dir));
        }
      }
    }
    if (!timed) continue;
    const uint64_t spent = hal.cycles() - t0;
    out.iteration_cycles.push_back(spent);
    out.compute_cycles += computed;
    out.comm_cycles += spent - computed;
    out.messages += faces.size();
    out.bytes += faces.size() * face;
  }
}

void allreduce_loop(mpi::Comm& comm, mpi::Collectives& coll, const AllreduceConfig& cfg,
                    Timing& out) {
  Hal& hal = comm.hal();
  const uint64_t sbuf = comm.window(), rbuf = comm.window() + (32u << 20);
  const uint32_t n = cfg.bytes / 8 * 8;
  std::vector<uint8_t> v(n);
  for (int it = 0; it < cfg.warmup + cfg.iterations; ++it) {
    const bool timed = it >= cfg.warmup;
    const uint64_t t0 = hal.cycles();
    const uint64_t sent0 = comm.counts().messages_sent, bytes0 = comm.counts().bytes_sent;
    uint64_t computed = 0;
    compute(hal, cfg.compute_cycles, computed);
    // The contribution is the step's output: a value per element from rank and iteration.
    for (uint32_t i = 0; i + 8 <= n; i += 8) {
      const double d = comm.rank() + 0.5 * it + i / 8;
      const auto x = static_cast<int64_t>(comm.rank() * 1000 + it * 10 + static_cast<int>(i / 8));
      std::memcpy(&v[i], cfg.type == mpi::Datatype::Double ? static_cast<const void*>(&d) : &x, 8);
    }
    hal.store(sbuf, v.data(), n);
    coll.allreduce(sbuf, rbuf, n, cfg.type, mpi::Op::Sum);
    if (!timed) continue;
    const uint64_t spent = hal.cycles() - t0;
    out.iteration_cycles.push_back(spent);
    out.compute_cycles += computed;
    out.comm_cycles += spent - computed;
    out.messages += comm.counts().messages_sent - sent0;
    out.bytes += comm.counts().bytes_sent - bytes0;
  }
}

}  // namespace hs::fw::motifs
