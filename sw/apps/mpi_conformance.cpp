#include "sw/apps/mpi_conformance.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

namespace hs::fw::conformance {

using mpi::kAnySource;
using mpi::kAnyTag;

namespace {

// The byte pattern a rank sends: a function of sender, a message key and the offset, so a
// receiver knows what it must find.
uint8_t pattern(int sender, uint32_t key, uint32_t i) {
  uint32_t h = (static_cast<uint32_t>(sender) * 2654435761u) ^ (key * 40503u) ^ (i * 2246822519u);
  h ^= h >> 13;
  return static_cast<uint8_t>(h * 0x9E3779B1u >> 24);
}

void fill(Hal& hal, uint64_t addr, uint32_t bytes, int sender, uint32_t key) {
  std::vector<uint8_t> v(bytes);
  for (uint32_t i = 0; i < bytes; ++i) v[i] = pattern(sender, key, i);
  if (bytes) hal.store(addr, v.data(), bytes);
}

void expect(Hal& hal, uint64_t addr, uint32_t bytes, int sender, uint32_t key,
            const std::string& what, Results& out) {
  std::vector<uint8_t> v(bytes);
  if (bytes) hal.load(addr, v.data(), bytes);
  for (uint32_t i = 0; i < bytes; ++i) {
    if (v[i] != pattern(sender, key, i)) {
      hal.fail(
          fmt::format("{}: byte {} of {} differs from what rank {} sent", what, i, bytes, sender));
    }
  }
  ++out.p2p_checks;
}

void expect_status(Hal& hal, const mpi::Status& s, int source, int tag, uint32_t bytes,
                   const std::string& what) {
  if (s.source != source || s.tag != tag || s.bytes != bytes) {
    hal.fail(fmt::format("{}: status says rank {} tag {} {} B; expected rank {} tag {} {} B", what,
                         s.source, s.tag, s.bytes, source, tag, bytes));
  }
}

void point_to_point(mpi::Comm& comm, mpi::Collectives& coll, const Config& cfg, Results& out) {
  Hal& hal = comm.hal();
  const int r = comm.rank(), p = comm.size();
  const int next = (r + 1) % p, prev = (r - 1 + p) % p;
  const uint64_t sbuf = comm.window(), rbuf = comm.window() + (32u << 20);
  // A ring exchange at every size: eager, split transfer and rendezvous, and empty messages.
  uint32_t key = 1;
  for (uint32_t bytes : cfg.p2p_sizes) {
    fill(hal, sbuf, bytes, r, key);
    mpi::Request rr = comm.irecv(rbuf, bytes, prev, 10);
    mpi::Request sr = comm.isend(sbuf, bytes, next, 10);
    const mpi::Status s = comm.wait(rr);
    comm.wait(sr);
    const std::string what = fmt::format("rank {}: ring message of {} B", r, bytes);
    expect_status(hal, s, prev, 10, bytes, what);
    expect(hal, rbuf, bytes, prev, key, what, out);
    ++key;
  }
  // Unexpected messages: four with one tag, sent before their receives exist, match in order.
  constexpr int kBurst = 4;
  std::vector<mpi::Request> sends;
  for (int i = 0; i < kBurst; ++i) {
    fill(hal, sbuf + static_cast<uint64_t>(i) * 4096, 256, r, 100 + static_cast<uint32_t>(i));
    sends.push_back(comm.isend(sbuf + static_cast<uint64_t>(i) * 4096, 256, next, 20));
  }
  // A send may not complete before its receive is posted (rendezvous): wait for them after.
  coll.barrier();
  for (int i = 0; i < kBurst; ++i) {
    comm.recv(rbuf, 4096, prev, 20);
    expect(hal, rbuf, 256, prev, 100 + static_cast<uint32_t>(i),
           fmt::format("rank {}: unexpected message {} of tag 20", r, i), out);
  }
  comm.waitall(sends);
  // Wildcards: tags 3, 1, 2 sent in that order; a receive for tag 2 from any source takes the
  // last, then two with any tag take 3 and 1, in send order.
  sends.clear();
  const int tags[3] = {3, 1, 2};
  for (int i = 0; i < 3; ++i) {
    fill(hal, sbuf + static_cast<uint64_t>(i) * 4096, 64, r, 200 + static_cast<uint32_t>(tags[i]));
    sends.push_back(comm.isend(sbuf + static_cast<uint64_t>(i) * 4096, 64, next, tags[i]));
  }
  coll.barrier();
  mpi::Status s = comm.recv(rbuf, 64, kAnySource, 2);
  expect_status(hal, s, prev, 2, 64, fmt::format("rank {}: any source, tag 2", r));
  expect(hal, rbuf, 64, prev, 202, "any source, tag 2", out);
  for (int want : {3, 1}) {
    s = comm.recv(rbuf, 64, prev, kAnyTag);
    expect_status(hal, s, prev, want, 64, fmt::format("rank {}: any tag", r));
    expect(hal, rbuf, 64, prev, 200 + static_cast<uint32_t>(want), "any tag", out);
  }
  comm.waitall(sends);
  // Many to one: every rank sends rank 0 a message tagged with its rank; rank 0 takes them
  // with any source and any tag.
  if (r == 0) {
    std::vector<bool> seen(static_cast<size_t>(p), false);
    for (int i = 1; i < p; ++i) {
      s = comm.recv(rbuf, 128, kAnySource, kAnyTag);
      if (s.source < 1 || s.source >= p || s.tag != s.source ||
          seen[static_cast<size_t>(s.source)]) {
        hal.fail(fmt::format("rank 0: any-source receive got rank {} tag {}", s.source, s.tag));
      }
      seen[static_cast<size_t>(s.source)] = true;
      expect(hal, rbuf, 128, s.source, 300, "many to one", out);
    }
  } else {
    fill(hal, sbuf, 128, r, 300);
    comm.send(sbuf, 128, 0, r);
  }
  // Receives posted before their messages: the posted queue.
  mpi::Request late = comm.irecv(rbuf, 512, prev, 30);
  coll.barrier();
  fill(hal, sbuf, 512, r, 400);
  comm.send(sbuf, 512, next, 30);
  s = comm.wait(late);
  expect_status(hal, s, prev, 30, 512, fmt::format("rank {}: posted receive", r));
  expect(hal, rbuf, 512, prev, 400, "posted receive", out);
}

// Each rank's collective input: int64 or double elements that depend on rank and call.
void fill_elements(Hal& hal, uint64_t addr, uint32_t bytes, int rank, uint32_t key,
                   mpi::Datatype type) {
  std::vector<uint8_t> v(bytes);
  for (uint32_t i = 0; i + 8 <= bytes; i += 8) {
    const int64_t x =
        static_cast<int64_t>(pattern(rank, key, i)) - 128 + rank * 3 + static_cast<int64_t>(i / 8);
    if (type == mpi::Datatype::Int64) {
      std::memcpy(&v[i], &x, 8);
    } else {
      const double d = static_cast<double>(x) * 0.25;
      std::memcpy(&v[i], &d, 8);
    }
  }
  if (bytes) hal.store(addr, v.data(), bytes);
}

void collectives(mpi::Comm& comm, mpi::Collectives& coll, const Config& cfg, Results& out) {
  Hal& hal = comm.hal();
  const int r = comm.rank(), p = comm.size();
  const uint32_t n = cfg.bytes / 8 * 8;
  const uint64_t sbuf = comm.window(), rbuf = comm.window() + (64u << 20);
  const auto timed = [&](const char* name, auto&& call) {
    const uint64_t t0 = hal.cycles();
    call();
    out.collective_cycles.emplace_back(name, hal.cycles() - t0);
  };
  for (int round = 0; round < cfg.repeat; ++round) {
    out.collective_cycles.clear();
    const auto key = static_cast<uint32_t>(round * 16);
    timed("barrier", [&] { coll.barrier(); });
    fill_elements(hal, rbuf, n, r, key + 1, cfg.type);
    const int root = (round + 1) % p;
    timed("bcast", [&] { coll.bcast(rbuf, n, root); });
    fill_elements(hal, sbuf, n, r, key + 2, cfg.type);
    timed("reduce", [&] { coll.reduce(sbuf, rbuf, n, cfg.type, cfg.op, root); });
    fill_elements(hal, sbuf, n, r, key + 3, cfg.type);
    timed("allreduce", [&] { coll.allreduce(sbuf, rbuf, n, cfg.type, cfg.op); });
    fill_elements(hal, sbuf, n, r, key + 4, cfg.type);
    timed("allgather", [&] { coll.allgather(sbuf, rbuf, n); });
    fill_elements(hal, sbuf, n * static_cast<uint32_t>(p), r, key + 5, cfg.type);
    timed("alltoall", [&] { coll.alltoall(sbuf, rbuf, n); });
    // Alltoallv: rank i sends rank j (i + 2j) % 5 * 8 bytes, some of them empty.
    std::vector<uint32_t> sc(static_cast<size_t>(p)), sd(sc.size()), rc(sc.size()), rd(sc.size());
    uint32_t so = 0, ro = 0;
    for (int j = 0; j < p; ++j) {
      sc[static_cast<size_t>(j)] = static_cast<uint32_t>((r + 2 * j) % 5) * 8;
      rc[static_cast<size_t>(j)] = static_cast<uint32_t>((j + 2 * r) % 5) * 8;
      sd[static_cast<size_t>(j)] = so;
      rd[static_cast<size_t>(j)] = ro;
      so += sc[static_cast<size_t>(j)] + 8;  // gaps between blocks
      ro += rc[static_cast<size_t>(j)] + 16;
    }
    fill_elements(hal, sbuf, so, r, key + 6, cfg.type);
    timed("alltoallv", [&] { coll.alltoallv(sbuf, sc, sd, rbuf, rc, rd); });
  }
}

}  // namespace

void run(mpi::Comm& comm, mpi::Collectives& coll, const Config& cfg, Results& out) {
  if (cfg.p2p) {
    Phase phase(comm.hal(), "point to point");
    point_to_point(comm, coll, cfg, out);
  }
  if (cfg.collectives) collectives(comm, coll, cfg, out);
}

}  // namespace hs::fw::conformance
