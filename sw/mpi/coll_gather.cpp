// Gather, scatter and their v forms, allgatherv, reduce-scatter, scan and exscan. Rooted trees
// work in virtual ranks (v = rank - root modulo P), so the root is virtual rank 0 and a
// subtree holds consecutive virtual ranks.
#include <algorithm>
#include <numeric>

#include "sw/mpi/coll_algorithms.h"

namespace hs::fw::mpi {

namespace {
uint64_t at(uint64_t base, int block, uint32_t bytes) {
  return base + static_cast<uint64_t>(block) * bytes;
}

// The root's P blocks of a gather (its receive buffer) or a scatter (its send buffer): equal
// blocks one after another, or the v forms' byte counts and displacements.
struct Blocks {
  uint64_t base = 0;
  uint32_t each = 0;
  const std::vector<uint32_t>* counts = nullptr;  // null: `each` bytes a block
  const std::vector<uint32_t>* displs = nullptr;
  static Blocks uniform(uint64_t base, uint32_t each) { return {base, each, nullptr, nullptr}; }
  static Blocks listed(uint64_t base, const std::vector<uint32_t>& counts,
                       const std::vector<uint32_t>& displs) {
    return {base, 0, &counts, &displs};
  }
  uint64_t addr(int i) const {
    return counts ? base + (*displs)[static_cast<size_t>(i)] : at(base, i, each);
  }
  uint32_t bytes(int i) const { return counts ? (*counts)[static_cast<size_t>(i)] : each; }
};

// The v forms' blocks: the root's receive buffer (gathers) or send buffer (scatters).
Blocks gathered(const CollContext& c) {
  return Blocks::listed(c.call.recv, c.call.recv_counts, c.call.recv_displs);
}
Blocks scattered(const CollContext& c) {
  return Blocks::listed(c.call.send, c.call.send_counts, c.call.send_displs);
}

// A non-root rank's part of a gather (its block to the root) or a scatter (its block from it).
void exchange_with_root(CollContext& c, bool gather) {
  if (gather) {
    c.send(c.call.send, c.call.bytes, c.call.root);
  } else {
    c.recv(c.call.recv, c.call.bytes, c.call.root);
  }
}

// The root's own block stays on the node: copied between its send and receive buffers.
void copy_own_block(CollContext& c, const Blocks& b, bool gather) {
  const uint32_t n = std::min(c.call.bytes, b.bytes(c.rank));
  if (gather) {
    c.copy(b.addr(c.rank), c.call.send, n);
  } else {
    c.copy(c.call.recv, b.addr(c.rank), n);
  }
}

// Linear: the root posts every other rank's block at once (receives for a gather, sends for a
// scatter), copies its own, and waits for all.
void root_blocks_linear(CollContext& c, const Blocks& b, bool gather) {
  if (c.rank != c.call.root) return exchange_with_root(c, gather);
  std::vector<Request> reqs;
  for (int i = 0; i < c.size; ++i) {
    if (i == c.rank) continue;
    reqs.push_back(gather ? c.comm.irecv(b.addr(i), b.bytes(i), i, c.tag, kCollective)
                          : c.comm.isend(b.addr(i), b.bytes(i), i, c.tag, kCollective));
  }
  copy_own_block(c, b, gather);
  c.comm.waitall(reqs);
}

// Sequential: the root takes the ranks one at a time, in rank order.
void root_blocks_sequential(CollContext& c, const Blocks& b, bool gather) {
  if (c.rank != c.call.root) return exchange_with_root(c, gather);
  for (int i = 0; i < c.size; ++i) {
    if (i == c.rank) {
      copy_own_block(c, b, gather);
    } else if (gather) {
      c.recv(b.addr(i), b.bytes(i), i);
    } else {
      c.send(b.addr(i), b.bytes(i), i);
    }
  }
}
}  // namespace

void gather_binomial(CollContext& c) {
  const int v = virtual_rank(c);
  const uint32_t n = c.call.bytes;
  // This rank's subtree, gathered in virtual order: itself, then each child's subtree.
  const uint64_t tmp = c.scratch(static_cast<uint64_t>(c.size) * n);
  c.copy(tmp, c.call.send, n);
  int have = 1;
  for (int mask = 1; mask < c.size; mask <<= 1) {
    if (v & mask) {
      c.send(tmp, static_cast<uint32_t>(have) * n, real_rank(c, v - mask));
      return;
    }
    if (v + mask < c.size) {
      const int blocks = std::min(mask, c.size - (v + mask));
      c.recv(at(tmp, mask, n), static_cast<uint32_t>(blocks) * n, real_rank(c, v + mask));
      have += blocks;
    }
  }
  // The root: virtual order to rank order.
  for (int w = 0; w < c.size; ++w) c.copy(at(c.call.recv, real_rank(c, w), n), at(tmp, w, n), n);
}

void gather_linear(CollContext& c) {
  root_blocks_linear(c, Blocks::uniform(c.call.recv, c.call.bytes), true);
}

void gatherv_linear(CollContext& c) {
  root_blocks_linear(c, gathered(c), true);
}

void gatherv_sequential(CollContext& c) {
  root_blocks_sequential(c, gathered(c), true);
}

void scatter_binomial(CollContext& c) {
  const int v = virtual_rank(c);
  const uint32_t n = c.call.bytes;
  const uint64_t tmp = c.scratch(static_cast<uint64_t>(c.size) * n);
  int top = 1;  // the largest power of two below P
  while (top * 2 < c.size) top *= 2;
  int mask = top * 2;
  if (v == 0) {
    for (int w = 0; w < c.size; ++w) c.copy(at(tmp, w, n), at(c.call.send, real_rank(c, w), n), n);
  } else {
    // The parent sends this rank's whole subtree: virtual ranks v .. v + lowbit(v) - 1.
    mask = v & -v;
    const int blocks = std::min(mask, c.size - v);
    c.recv(tmp, static_cast<uint32_t>(blocks) * n, real_rank(c, v - mask));
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (v + mask < c.size) {
      const int blocks = std::min(mask, c.size - (v + mask));
      c.send(at(tmp, mask, n), static_cast<uint32_t>(blocks) * n, real_rank(c, v + mask));
    }
  }
  c.copy(c.call.recv, tmp, n);
}

void scatter_linear(CollContext& c) {
  root_blocks_linear(c, Blocks::uniform(c.call.send, c.call.bytes), false);
}

void scatterv_linear(CollContext& c) {
  root_blocks_linear(c, scattered(c), false);
}

void scatterv_sequential(CollContext& c) {
  root_blocks_sequential(c, scattered(c), false);
}

void allgatherv_linear(CollContext& c) {
  const auto& call = c.call;
  std::vector<Request> reqs;
  for (int k = 1; k < c.size; ++k) {
    const auto i = static_cast<size_t>((c.rank - k + c.size) % c.size);
    reqs.push_back(c.comm.irecv(call.recv + call.recv_displs[i], call.recv_counts[i],
                                static_cast<int>(i), c.tag, kCollective));
  }
  for (int k = 1; k < c.size; ++k) {
    reqs.push_back(c.comm.isend(call.send, call.bytes, (c.rank + k) % c.size, c.tag, kCollective));
  }
  const auto me = static_cast<size_t>(c.rank);
  c.copy(call.recv + call.recv_displs[me], call.send, std::min(call.bytes, call.recv_counts[me]));
  c.comm.waitall(reqs);
}

void allgatherv_ring(CollContext& c) {
  const auto& call = c.call;
  const int p = c.size, next = (c.rank + 1) % p, prev = (c.rank - 1 + p) % p;
  const auto block = [&](int i, uint64_t& a, uint32_t& n) {
    a = call.recv + call.recv_displs[static_cast<size_t>(i)];
    n = call.recv_counts[static_cast<size_t>(i)];
  };
  uint64_t a, b;
  uint32_t an, bn;
  block(c.rank, a, an);
  c.copy(a, call.send, std::min(an, call.bytes));
  for (int s = 0; s < p - 1; ++s) {
    block((c.rank - s + p) % p, a, an);
    block((c.rank - s - 1 + 2 * p) % p, b, bn);
    c.sendrecv(a, an, next, b, bn, prev);
  }
}

void reduce_scatter_reduce_scatterv(CollContext& c) {
  const auto& call = c.call;
  const bool block = call.kind == Collective::ReduceScatterBlock;
  std::vector<uint32_t> counts(static_cast<size_t>(c.size), call.bytes), displs(counts.size());
  if (!block) counts = call.recv_counts;
  uint32_t total = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    displs[i] = total;
    total += counts[i];
  }
  const uint64_t all = c.scratch(total);
  CollectiveCall r = call;
  r.kind = Collective::Reduce;
  r.root = 0;
  r.recv = all;
  r.bytes = total;
  CollContext rc(c.comm, r);
  reduce_binomial(rc);
  CollectiveCall s = call;
  s.kind = Collective::Scatterv;
  s.root = 0;
  s.send = all;
  s.send_counts = counts;
  s.send_displs = displs;
  s.bytes = counts[static_cast<size_t>(c.rank)];
  CollContext sc(c.comm, s);
  scatterv_linear(sc);
}

void reduce_scatter_ring(CollContext& c) {
  // A ring of P-1 steps, each rank adding its part of the block passing by: part i ends at
  // rank i. A non-commutative operator takes the rank-ordered algorithm instead.
  if (!c.commutative()) return reduce_scatter_reduce_scatterv(c);
  const auto& call = c.call;
  const int p = c.size, next = (c.rank + 1) % p, prev = (c.rank - 1 + p) % p;
  std::vector<uint32_t> counts(static_cast<size_t>(p), call.bytes), displs(counts.size());
  if (call.kind == Collective::ReduceScatter) counts = call.recv_counts;
  uint32_t total = 0, largest = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    displs[i] = total;
    total += counts[i];
    largest = std::max(largest, counts[i]);
  }
  // acc: this rank's running copy of the whole vector, as the ring's sums pass through it.
  const uint64_t acc = c.scratch(total), in = c.scratch(largest);
  c.copy(acc, call.send, total);
  for (int s = 0; s < p - 1; ++s) {
    // Send part (rank - s - 1), receive part (rank - s - 2) and add this rank's share to it.
    const auto out = static_cast<size_t>((c.rank - s - 1 + 2 * p) % p);
    const auto got = static_cast<size_t>((c.rank - s - 2 + 2 * p) % p);
    c.sendrecv(acc + displs[out], counts[out], next, in, counts[got], prev);
    c.combine(acc + displs[got], in, counts[got]);
  }
  const auto mine = static_cast<size_t>(c.rank);
  c.copy(call.recv, acc + displs[mine], counts[mine]);
}

namespace {
// Scan and exscan by recursive doubling: `partial` is the reduction of every rank this one
// has heard of (a consecutive range), `result` of those below it (and, for scan, itself).
void scan(CollContext& c, bool inclusive) {
  const uint32_t n = c.call.bytes;
  const uint64_t partial = c.scratch(n), tmp = c.scratch(n);
  c.copy(partial, c.call.send, n);
  if (inclusive) c.copy(c.call.recv, c.call.send, n);
  bool have_lower = false;
  for (int mask = 1; mask < c.size; mask <<= 1) {
    const int partner = c.rank ^ mask;
    if (partner >= c.size) continue;
    c.sendrecv(partial, n, partner, tmp, n, partner);
    if (partner < c.rank) {  // tmp covers ranks below this one's range
      if (inclusive || have_lower) {
        c.combine(c.call.recv, tmp, n, false);  // tmp op result
      } else {
        c.copy(c.call.recv, tmp, n);
      }
      have_lower = true;
      c.combine(partial, tmp, n, false);  // tmp op partial
    } else {
      c.combine(partial, tmp, n, true);  // partial op tmp
    }
  }
}
}  // namespace

void scan_recursive_doubling(CollContext& c) {
  scan(c, true);
}

void exscan_recursive_doubling(CollContext& c) {
  scan(c, false);
}

namespace {
// Scan and exscan along a chain: rank r takes the prefix of the ranks below it from r - 1,
// adds its own and passes it on.
void chain(CollContext& c, bool inclusive) {
  const uint32_t n = c.call.bytes;
  const uint64_t prefix = c.scratch(n), mine = c.scratch(n);
  c.copy(mine, c.call.send, n);
  if (c.rank == 0) {
    if (inclusive) c.copy(c.call.recv, mine, n);
    if (c.size > 1) c.send(mine, n, 1);
    return;
  }
  c.recv(prefix, n, c.rank - 1);
  if (!inclusive) c.copy(c.call.recv, prefix, n);
  c.combine(prefix, mine, n, true);
  if (inclusive) c.copy(c.call.recv, prefix, n);
  if (c.rank < c.size - 1) c.send(prefix, n, c.rank + 1);
}
}  // namespace

void scan_linear(CollContext& c) {
  chain(c, true);
}

void exscan_linear(CollContext& c) {
  chain(c, false);
}

}  // namespace hs::fw::mpi
