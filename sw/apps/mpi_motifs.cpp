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

Iteration::Iteration(mpi::Comm& comm, const char* name)
    : comm_(comm),
      phase_(comm.hal(), name),
      t0_(comm.hal().cycles()),
      sent0_(comm.counts().messages_sent),
      bytes0_(comm.counts().bytes_sent) {}

void Iteration::compute(uint64_t cycles) {
  comm_.hal().compute(cycles);
  computed_ += cycles;
}

void Iteration::finish(bool timed, Timing& out) {
  if (!timed) return;
  const uint64_t spent = comm_.hal().cycles() - t0_;
  out.iteration_cycles.push_back(spent);
  out.compute_cycles += computed_;
  out.comm_cycles += spent - computed_;
  out.messages += comm_.counts().messages_sent - sent0_;
  out.bytes += comm_.counts().bytes_sent - bytes0_;
}

uint8_t payload_byte(int sender, int iteration, int channel, uint32_t i) {
  const uint32_t h = static_cast<uint32_t>(sender) * 73856093u ^
                     static_cast<uint32_t>(iteration) * 19349663u ^
                     static_cast<uint32_t>(channel) * 83492791u ^ i * 2654435761u;
  return static_cast<uint8_t>(h >> 24 ^ h);
}

void write_payload(Hal& hal, uint64_t addr, uint32_t bytes, int sender, int iteration,
                   int channel) {
  std::vector<uint8_t> data(bytes);
  for (uint32_t i = 0; i < bytes; ++i) data[i] = payload_byte(sender, iteration, channel, i);
  hal.store(addr, data.data(), bytes);
}

void check_payload(Hal& hal, uint64_t addr, uint32_t bytes, int sender, int iteration, int channel,
                   int receiver, const char* what) {
  std::vector<uint8_t> data(bytes);
  hal.load(addr, data.data(), bytes);
  for (uint32_t i = 0; i < bytes; ++i) {
    if (data[i] != payload_byte(sender, iteration, channel, i)) {
      hal.fail(
          fmt::format("rank {} iteration {}: {} byte {} from rank {} (channel {}) differs "
                      "from what it sent",
                      receiver, iteration, what, i, sender, channel));
    }
  }
}

std::vector<int> shuffled(int n, Rng& rng) {
  std::vector<int> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  for (int i = n - 1; i > 0; --i) {
    std::swap(v[static_cast<size_t>(i)], v[rng() % static_cast<uint64_t>(i + 1)]);
  }
  return v;
}

namespace {

// One halo message: the offset it goes to, the channel (its tag), the rank it goes to and the
// one the same channel comes from, and its size.
struct HaloMessage {
  int channel, peer, from;
  uint32_t bytes;
};

// A message of `nonzero` dimensions' extent (1: a face, 2: an edge, 3: a corner).
uint32_t halo_message_bytes(const HaloConfig& cfg, int nonzero) {
  uint32_t b = cfg.bytes_per_cell;
  for (int d = nonzero; d < 3; ++d) b *= static_cast<uint32_t>(cfg.cells);
  return b;
}

std::vector<HaloMessage> halo_messages(const HaloConfig& cfg, const std::array<int, 3>& dims,
                                       int r) {
  const int c[3] = {r % dims[0], r / dims[0] % dims[1], r / (dims[0] * dims[1])};
  const auto rank_at = [&](const int(&o)[3], int sign) {
    int q[3];
    for (int d = 0; d < 3; ++d) {
      const int n = dims[static_cast<size_t>(d)];
      q[d] = ((c[d] + sign * o[d]) % n + n) % n;
    }
    return q[0] + dims[0] * (q[1] + dims[1] * q[2]);
  };
  std::vector<HaloMessage> v;
  if (cfg.neighbours == 6) {
    // Channel k = 2 d + (0: +, 1: -); a face sent one way arrives from the opposite side.
    for (int d = 0; d < 3; ++d) {
      if (dims[static_cast<size_t>(d)] == 1) continue;  // no neighbour along a dimension of one
      for (int s : {1, -1}) {
        int o[3] = {0, 0, 0};
        o[d] = s;
        v.push_back(
            {2 * d + (s > 0 ? 0 : 1), rank_at(o, 1), rank_at(o, -1), halo_message_bytes(cfg, 1)});
      }
    }
    return v;
  }
  // Every offset in {-1,0,1}^3 but the centre: channel (dx+1) + 3 (dy+1) + 9 (dz+1).
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int o[3] = {dx, dy, dz};
        int nonzero = 0;
        bool along_one = false;
        for (int d = 0; d < 3; ++d) {
          if (o[d] == 0) continue;
          ++nonzero;
          along_one |= dims[static_cast<size_t>(d)] == 1;
        }
        if (nonzero == 0 || along_one) continue;
        v.push_back({(dx + 1) + 3 * (dy + 1) + 9 * (dz + 1), rank_at(o, 1), rank_at(o, -1),
                     halo_message_bytes(cfg, nonzero)});
      }
    }
  }
  return v;
}

}  // namespace

uint64_t halo_bytes_per_rank(const HaloConfig& cfg) {
  uint64_t total = 0;
  for (const auto& m : halo_messages(cfg, {3, 3, 3}, 0)) total += m.bytes;
  return total;
}

std::array<int, 3> halo_grid(const HaloConfig& cfg, int ranks) {
  return cfg.grid[0] > 0 ? cfg.grid : grid_dims(ranks);
}

void halo3d(mpi::Comm& comm, const HaloConfig& cfg, Timing& out) {
  Hal& hal = comm.hal();
  const int r = comm.rank();
  const auto msgs = halo_messages(cfg, halo_grid(cfg, comm.size()), r);
  std::vector<uint64_t> offset;
  uint64_t at = 0;
  for (const auto& m : msgs) {
    offset.push_back(at);
    at += m.bytes;
  }
  const uint64_t sbuf = comm.window(), rbuf = comm.window() + (32u << 20);
  const auto cells = static_cast<uint64_t>(cfg.cells) * static_cast<uint64_t>(cfg.cells) *
                     static_cast<uint64_t>(cfg.cells);
  for (int it = 0; it < cfg.warmup + cfg.iterations; ++it) {
    Iteration iteration(comm, "halo3d iteration");
    iteration.compute(static_cast<uint64_t>(std::llround(cells * cfg.cycles_per_cell)));
    // The halos to send are part of the stencil's output: written as it computes.
    for (size_t f = 0; f < msgs.size(); ++f) {
      write_payload(hal, sbuf + offset[f], msgs[f].bytes, r, it, msgs[f].channel);
    }
    std::vector<mpi::Request> reqs;
    for (size_t f = 0; f < msgs.size(); ++f) {
      reqs.push_back(comm.irecv(rbuf + offset[f], msgs[f].bytes, msgs[f].from, msgs[f].channel));
    }
    for (size_t f = 0; f < msgs.size(); ++f) {
      reqs.push_back(comm.isend(sbuf + offset[f], msgs[f].bytes, msgs[f].peer, msgs[f].channel));
    }
    comm.waitall(reqs);
    for (size_t f = 0; f < msgs.size(); ++f) {
      check_payload(hal, rbuf + offset[f], msgs[f].bytes, msgs[f].from, it, msgs[f].channel, r,
                    "halo");
    }
    iteration.finish(it >= cfg.warmup, out);
  }
}

void allreduce_loop(mpi::Comm& comm, mpi::Collectives& coll, const AllreduceConfig& cfg,
                    Timing& out) {
  Hal& hal = comm.hal();
  const uint64_t sbuf = comm.window(), rbuf = comm.window() + (32u << 20);
  const uint32_t n = cfg.bytes / 8 * 8;
  std::vector<uint8_t> v(n);
  for (int it = 0; it < cfg.warmup + cfg.iterations; ++it) {
    Iteration iteration(comm, "allreduce iteration");
    iteration.compute(cfg.compute_cycles);
    // The contribution is the step's output: a value per element from rank and iteration.
    for (uint32_t i = 0; i + 8 <= n; i += 8) {
      const double d = comm.rank() + 0.5 * it + i / 8;
      const auto x = static_cast<int64_t>(comm.rank() * 1000 + it * 10 + static_cast<int>(i / 8));
      std::memcpy(&v[i], cfg.type == mpi::Datatype::Double ? static_cast<const void*>(&d) : &x, 8);
    }
    hal.store(sbuf, v.data(), n);
    coll.allreduce(sbuf, rbuf, n, cfg.type, mpi::Op::Sum);
    iteration.finish(it >= cfg.warmup, out);
  }
}

}  // namespace hs::fw::motifs
