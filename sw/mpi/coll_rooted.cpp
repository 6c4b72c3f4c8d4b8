// Barrier, broadcast and reduce. Rooted algorithms work in virtual ranks (v = rank - root
// modulo P), so the root is virtual rank 0.
#include <algorithm>

#include "sw/mpi/coll_algorithms.h"

namespace hs::fw::mpi {

void barrier_recursive_doubling(CollContext& c) {
  for (int k = 1; k < c.size; k *= 2) {
    c.sendrecv(0, 0, (c.rank + k) % c.size, 0, 0, (c.rank - k + c.size) % c.size);
  }
}

void barrier_binomial(CollContext& c) {
  int mask = 1;
  for (; mask < c.size; mask <<= 1) {
    if (c.rank & mask) {
      c.send(0, 0, c.rank - mask);
      c.recv(0, 0, c.rank - mask);
      break;
    }
    if (c.rank + mask < c.size) c.recv(0, 0, c.rank + mask);
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (c.rank + mask < c.size) c.send(0, 0, c.rank + mask);
  }
}

void bcast_binomial(CollContext& c) {
  const int v = virtual_rank(c);
  int mask = 1;
  for (; mask < c.size; mask <<= 1) {
    if (v & mask) {
      c.recv(c.call.recv, c.call.bytes, real_rank(c, v - mask));
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (v + mask < c.size) c.send(c.call.recv, c.call.bytes, real_rank(c, v + mask));
  }
}

void bcast_ring(CollContext& c) {
  const int v = virtual_rank(c);
  const uint32_t seg = std::max<uint32_t>(1, c.comm.config().pipeline_bytes);
  const int prev = real_rank(c, v - 1 + c.size), next = real_rank(c, v + 1);
  std::vector<Request> forwards;
  uint32_t off = 0;
  do {
    const uint32_t n = std::min(seg, c.call.bytes - off);
    if (v > 0) c.recv(c.call.recv + off, n, prev);
    if (v < c.size - 1) {
      forwards.push_back(c.comm.isend(c.call.recv + off, n, next, c.tag, kCollective));
    }
    off += n;
  } while (off < c.call.bytes);
  c.comm.waitall(forwards);
}

void reduce_binomial(CollContext& c) {
  // A non-commutative operator: the tree towards rank 0, where each rank's part covers the
  // ranks just above it (it is the lower part of every combination), then on to the root.
  const bool ordered = !c.commutative();
  const int root = ordered ? 0 : c.call.root;
  const int v = (c.rank - root + c.size) % c.size;
  const auto real = [&](int w) { return (w + root) % c.size; };
  const uint32_t n = c.call.bytes;
  const uint64_t acc = c.scratch(n), in = c.scratch(n);
  c.copy(acc, c.call.send, n);
  bool tree_root = true;
  for (int mask = 1; mask < c.size; mask <<= 1) {
    if (v & mask) {
      c.send(acc, n, real(v - mask));
      tree_root = false;
      break;
    }
    if (v + mask < c.size) {
      c.recv(in, n, real(v + mask));
      c.combine(acc, in, n, true);
    }
  }
  if (tree_root && c.rank == c.call.root) {
    c.copy(c.call.recv, acc, n);
  } else if (tree_root) {
    c.send(acc, n, c.call.root);  // ordered: rank 0 passes the result on
  } else if (ordered && c.rank == c.call.root) {
    c.recv(c.call.recv, n, 0);
  }
}

void reduce_ring(CollContext& c) {
  const int v = virtual_rank(c);
  const uint32_t n = c.call.bytes;
  const uint64_t acc = c.scratch(n), in = c.scratch(n);
  c.copy(acc, c.call.send, n);
  if (v < c.size - 1) {
    c.recv(in, n, real_rank(c, v + 1));
    c.combine(acc, in, n);
  }
  if (v > 0) {
    c.send(acc, n, real_rank(c, v - 1));
  } else {
    c.copy(c.call.recv, acc, n);
  }
}

}  // namespace hs::fw::mpi
