// The steps of each non-blocking collective (sw/mpi/schedule.h). Trees are binomial in
// virtual ranks (v = rank - root modulo P); reductions go towards rank 0, each rank's part the
// lower one of every combination, so a user's non-commutative operator keeps rank order; the
// rest are linear (every message posted at once).
#include <algorithm>

#include "sw/mpi/schedule.h"

namespace hs::fw::mpi {

namespace {

uint64_t at(uint64_t base, int block, uint32_t bytes) {
  return base + static_cast<uint64_t>(block) * bytes;
}

void barrier(Schedule& s) {
  const int p = s.size(), r = s.rank();
  for (int k = 1; k < p; k *= 2) {
    s.recv(0, 0, (r - k + p) % p);
    s.send(0, 0, (r + k) % p);
    s.fence();
  }
}

// Broadcast of [buf, buf + bytes) from `root`.
void bcast(Schedule& s, uint64_t buf, uint32_t bytes, int root) {
  const int p = s.size(), v = (s.rank() - root + p) % p;
  const auto real = [&](int w) { return (w + root) % p; };
  int mask = 1;
  for (; mask < p; mask <<= 1) {
    if (v & mask) {
      s.recv(buf, bytes, real(v - mask));
      s.fence();
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (v + mask < p) s.send(buf, bytes, real(v + mask));
  }
  s.fence();
}

// Reduction of `bytes` from `send` into `recv` at `root`: towards rank 0 in rank order, then
// on to the root.
void reduce(Schedule& s, uint64_t send, uint64_t recv, uint32_t bytes, int root) {
  const int p = s.size(), r = s.rank();
  const uint64_t acc = s.scratch(bytes), in = s.scratch(bytes);
  s.copy(acc, send, bytes);
  bool tree_root = true;
  for (int mask = 1; mask < p; mask <<= 1) {
    if (r & mask) {
      s.send(acc, bytes, r - mask);
      tree_root = false;
      break;
    }
    if (r + mask < p) {
      s.recv(in, bytes, r + mask);
      s.combine(acc, in, bytes, true);
    }
  }
  if (tree_root && r == root) {
    s.copy(recv, acc, bytes);
  } else if (tree_root) {
    s.send(acc, bytes, root);
  } else if (r == root) {
    s.recv(recv, bytes, 0);
  }
  s.fence();
}

// Every rank's block (`mine`, `mine_bytes`) to every rank's `recv` at `displ(i)`, linearly.
template <class Count, class Displ>
void exchange_all(Schedule& s, uint64_t mine, uint32_t mine_bytes, uint64_t recv, Count count,
                  Displ displ) {
  const int p = s.size(), r = s.rank();
  for (int k = 1; k < p; ++k) {
    const int i = (r - k + p) % p;
    s.recv(recv + displ(i), count(i), i);
  }
  for (int k = 1; k < p; ++k) s.send(mine, mine_bytes, (r + k) % p);
  s.copy(recv + displ(r), mine, std::min(mine_bytes, count(r)));
  s.fence();
}

}  // namespace

void build_schedule(Schedule& s) {
  const CollectiveCall& c = s.call();
  const int p = s.size(), r = s.rank();
  const auto k = static_cast<size_t>(r);
  switch (c.kind) {
    case Collective::Barrier:
      barrier(s);
      break;
    case Collective::Bcast:
      bcast(s, c.recv, c.bytes, c.root);
      break;
    case Collective::Reduce:
      reduce(s, c.send, c.recv, c.bytes, c.root);
      break;
    case Collective::Allreduce:
      reduce(s, c.send, c.recv, c.bytes, 0);
      bcast(s, c.recv, c.bytes, 0);
      break;
    case Collective::Gather:
    case Collective::Gatherv: {
      const bool v = c.kind == Collective::Gatherv;
      if (r != c.root) {
        s.send(c.send, c.bytes, c.root);
      } else {
        for (int i = 0; i < p; ++i) {
          const auto n = v ? c.recv_counts[static_cast<size_t>(i)] : c.bytes;
          const uint64_t a =
              v ? c.recv + c.recv_displs[static_cast<size_t>(i)] : at(c.recv, i, c.bytes);
          if (i == r) {
            s.copy(a, c.send, std::min(n, c.bytes));
          } else {
            s.recv(a, n, i);
          }
        }
      }
      s.fence();
      break;
    }
    case Collective::Scatter:
    case Collective::Scatterv: {
      const bool v = c.kind == Collective::Scatterv;
      if (r != c.root) {
        s.recv(c.recv, c.bytes, c.root);
      } else {
        for (int i = 0; i < p; ++i) {
          const auto n = v ? c.send_counts[static_cast<size_t>(i)] : c.bytes;
          const uint64_t a =
              v ? c.send + c.send_displs[static_cast<size_t>(i)] : at(c.send, i, c.bytes);
          if (i == r) {
            s.copy(c.recv, a, std::min(n, c.bytes));
          } else {
            s.send(a, n, i);
          }
        }
      }
      s.fence();
      break;
    }
    case Collective::Allgather:
      exchange_all(
          s, c.send, c.bytes, c.recv, [&](int) { return c.bytes; },
          [&](int i) { return static_cast<uint64_t>(i) * c.bytes; });
      break;
    case Collective::Allgatherv:
      exchange_all(
          s, c.send, c.bytes, c.recv, [&](int i) { return c.recv_counts[static_cast<size_t>(i)]; },
          [&](int i) { return uint64_t{c.recv_displs[static_cast<size_t>(i)]}; });
      break;
    case Collective::Alltoall:
    case Collective::Alltoallv: {
      const bool v = c.kind == Collective::Alltoallv;
      const auto scount = [&](int i) {
        return v ? c.send_counts[static_cast<size_t>(i)] : c.bytes;
      };
      const auto rcount = [&](int i) {
        return v ? c.recv_counts[static_cast<size_t>(i)] : c.bytes;
      };
      const auto sat = [&](int i) {
        return v ? c.send + c.send_displs[static_cast<size_t>(i)] : at(c.send, i, c.bytes);
      };
      const auto rat = [&](int i) {
        return v ? c.recv + c.recv_displs[static_cast<size_t>(i)] : at(c.recv, i, c.bytes);
      };
      for (int j = 1; j < p; ++j) {
        const int i = (r - j + p) % p;
        s.recv(rat(i), rcount(i), i);
      }
      for (int j = 1; j < p; ++j) {
        const int i = (r + j) % p;
        s.send(sat(i), scount(i), i);
      }
      s.copy(rat(r), sat(r), std::min(scount(r), rcount(r)));
      s.fence();
      break;
    }
    case Collective::ReduceScatter:
    case Collective::ReduceScatterBlock: {
      std::vector<uint32_t> counts(static_cast<size_t>(p), c.bytes), displs(counts.size());
      if (c.kind == Collective::ReduceScatter) counts = c.recv_counts;
      uint32_t total = 0;
      for (size_t i = 0; i < counts.size(); ++i) {
        displs[i] = total;
        total += counts[i];
      }
      const uint64_t all = s.scratch(total);
      reduce(s, c.send, all, total, 0);
      if (r == 0) {
        for (int i = 1; i < p; ++i) {
          s.send(all + displs[static_cast<size_t>(i)], counts[static_cast<size_t>(i)], i);
        }
        s.copy(c.recv, all, counts[0]);
      } else {
        s.recv(c.recv, counts[k], 0);
      }
      s.fence();
      break;
    }
    case Collective::Scan:
    case Collective::Exscan: {
      // A chain: rank r takes the prefix of the ranks below it, adds its own, passes it on.
      const bool inclusive = c.kind == Collective::Scan;
      const uint32_t n = c.bytes;
      const uint64_t prefix = s.scratch(n);
      if (r == 0) {
        if (inclusive) s.copy(c.recv, c.send, n);
        if (p > 1) s.send(c.send, n, 1);
      } else {
        s.recv(prefix, n, r - 1);
        s.fence();
        if (!inclusive) s.copy(c.recv, prefix, n);
        if (r < p - 1 || inclusive) s.combine(prefix, c.send, n, true);  // prefix op mine
        if (inclusive) s.copy(c.recv, prefix, n);
        if (r < p - 1) s.send(prefix, n, r + 1);
      }
      s.fence();
      break;
    }
  }
}

}  // namespace hs::fw::mpi
