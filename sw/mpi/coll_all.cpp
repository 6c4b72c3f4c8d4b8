// Allreduce, allgather, alltoall and alltoallv: every rank ends with a result.
#include "sw/mpi/coll_algorithms.h"

namespace hs::fw::mpi {

namespace {
// Block i of P over `bytes`, on the boundaries of `element`-byte elements: [lo, hi).
void block(uint32_t bytes, uint32_t element, int i, int p, uint32_t& lo, uint32_t& hi) {
  const uint64_t elems = bytes / element;
  lo = static_cast<uint32_t>(elems * static_cast<uint64_t>(i) / static_cast<uint64_t>(p) * element);
  hi = static_cast<uint32_t>(elems * static_cast<uint64_t>(i + 1) / static_cast<uint64_t>(p) *
                             element);
  if (i == p - 1) hi = bytes;
}
}  // namespace

void allreduce_recursive_doubling(CollContext& c) {
  const uint32_t n = c.call.bytes;
  const uint64_t acc = c.call.recv, in = c.scratch(n);
  c.copy(acc, c.call.send, n);
  int pof2 = 1;
  while (pof2 * 2 <= c.size) pof2 *= 2;
  const int extra = c.size - pof2;
  // The first 2*extra ranks pair up: the even one hands its vector to the odd one and waits.
  int v;
  if (c.rank < 2 * extra) {
    if (c.rank % 2 == 0) {
      c.send(acc, n, c.rank + 1);
      v = -1;
    } else {
      c.recv(in, n, c.rank - 1);
      c.combine(acc, in, n);
      v = c.rank / 2;
    }
  } else {
    v = c.rank - extra;
  }
  if (v >= 0) {
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int pv = v ^ mask;
      const int partner = pv < extra ? pv * 2 + 1 : pv + extra;
      c.sendrecv(acc, n, partner, in, n, partner);
      c.combine(acc, in, n);
    }
  }
  if (c.rank < 2 * extra) {
    if (c.rank % 2 == 0) {
      c.recv(acc, n, c.rank + 1);
    } else {
      c.send(acc, n, c.rank - 1);
    }
  }
}

void allreduce_ring(CollContext& c) {
  const uint32_t n = c.call.bytes;
  const uint64_t acc = c.call.recv, in = c.scratch(n);
  c.copy(acc, c.call.send, n);
  const int p = c.size, next = (c.rank + 1) % p, prev = (c.rank - 1 + p) % p;
  const auto e =
      static_cast<uint32_t>(c.call.user ? c.call.user->element_bytes : datatype_size(c.call.type));
  uint32_t slo, shi, rlo, rhi;
  for (int s = 0; s < p - 1; ++s) {  // reduce-scatter
    block(n, e, (c.rank - s + p) % p, p, slo, shi);
    block(n, e, (c.rank - s - 1 + 2 * p) % p, p, rlo, rhi);
    c.sendrecv(acc + slo, shi - slo, next, in + rlo, rhi - rlo, prev);
    c.combine(acc + rlo, in + rlo, rhi - rlo);
  }
  for (int s = 0; s < p - 1; ++s) {  // allgather of the reduced blocks
    block(n, e, (c.rank + 1 - s + p) % p, p, slo, shi);
    block(n, e, (c.rank - s + p) % p, p, rlo, rhi);
    c.sendrecv(acc + slo, shi - slo, next, acc + rlo, rhi - rlo, prev);
  }
}

void allreduce_binomial(CollContext& c) {
  CollectiveCall to_root = c.call;
  to_root.root = 0;
  CollContext r(c.comm, to_root);
  reduce_binomial(r);
  CollectiveCall from_root = to_root;
  CollContext b(c.comm, from_root);
  bcast_binomial(b);
}

void allgather_ring(CollContext& c) {
  const uint32_t n = c.call.bytes;
  const int p = c.size, next = (c.rank + 1) % p, prev = (c.rank - 1 + p) % p;
  const auto at = [&](int i) { return c.call.recv + static_cast<uint64_t>(i) * n; };
  c.copy(at(c.rank), c.call.send, n);
  for (int s = 0; s < p - 1; ++s) {
    c.sendrecv(at((c.rank - s + p) % p), n, next, at((c.rank - s - 1 + 2 * p) % p), n, prev);
  }
}

void allgather_recursive_doubling(CollContext& c) {
  const uint32_t n = c.call.bytes;
  const auto at = [&](int i) { return c.call.recv + static_cast<uint64_t>(i) * n; };
  c.copy(at(c.rank), c.call.send, n);
  for (int mask = 1; mask < c.size; mask <<= 1) {
    const int partner = c.rank ^ mask;
    const int mine = c.rank / mask * mask, theirs = partner / mask * mask;
    c.sendrecv(at(mine), n * static_cast<uint32_t>(mask), partner, at(theirs),
               n * static_cast<uint32_t>(mask), partner);
  }
}

namespace {
// One exchange schedule for alltoall and alltoallv: in step k (1..P-1) a rank sends to
// to(k) and receives from from(k).
template <class To, class From>
void exchange(CollContext& c, To to, From from) {
  const auto& call = c.call;
  const bool v = call.kind == Collective::Alltoallv;
  const auto sblock = [&](int j, uint64_t& a, uint32_t& n) {
    n = v ? call.send_counts[static_cast<size_t>(j)] : call.bytes;
    a = call.send +
        (v ? call.send_displs[static_cast<size_t>(j)] : static_cast<uint64_t>(j) * call.bytes);
  };
  const auto rblock = [&](int i, uint64_t& a, uint32_t& n) {
    n = v ? call.recv_counts[static_cast<size_t>(i)] : call.bytes;
    a = call.recv +
        (v ? call.recv_displs[static_cast<size_t>(i)] : static_cast<uint64_t>(i) * call.bytes);
  };
  uint64_t sa, ra;
  uint32_t sn, rn;
  sblock(c.rank, sa, sn);
  rblock(c.rank, ra, rn);
  c.copy(ra, sa, sn);
  for (int k = 1; k < c.size; ++k) {
    sblock(to(k), sa, sn);
    rblock(from(k), ra, rn);
    c.sendrecv(sa, sn, to(k), ra, rn, from(k));
  }
}
}  // namespace

void alltoall_pairwise(CollContext& c) {
  exchange(
      c, [&](int k) { return c.rank ^ k; }, [&](int k) { return c.rank ^ k; });
}

void alltoall_ring(CollContext& c) {
  exchange(
      c, [&](int k) { return (c.rank + k) % c.size; },
      [&](int k) { return (c.rank - k + c.size) % c.size; });
}

void alltoall_linear(CollContext& c) {
  const auto& call = c.call;
  const bool v = call.kind == Collective::Alltoallv;
  const auto count = [&](const std::vector<uint32_t>& counts, int i) {
    return v ? counts[static_cast<size_t>(i)] : call.bytes;
  };
  const auto offset = [&](const std::vector<uint32_t>& displs, int i) {
    return v ? uint64_t{displs[static_cast<size_t>(i)]} : static_cast<uint64_t>(i) * call.bytes;
  };
  c.copy(call.recv + offset(call.recv_displs, c.rank), call.send + offset(call.send_displs, c.rank),
         count(call.send_counts, c.rank));
  std::vector<Request> reqs;
  // Receives first, so no message waits in the unexpected queue for want of one.
  for (int k = 1; k < c.size; ++k) {
    const int i = (c.rank - k + c.size) % c.size;
    reqs.push_back(c.comm.irecv(call.recv + offset(call.recv_displs, i), count(call.recv_counts, i),
                                i, c.tag, kCollective));
  }
  for (int k = 1; k < c.size; ++k) {
    const int j = (c.rank + k) % c.size;
    reqs.push_back(c.comm.isend(call.send + offset(call.send_displs, j), count(call.send_counts, j),
                                j, c.tag, kCollective));
  }
  c.comm.waitall(reqs);
}

void alltoallv_linear(CollContext& c) {
  alltoall_linear(c);
}

void alltoallv_pairwise(CollContext& c) {
  alltoall_pairwise(c);
}

void alltoallv_ring(CollContext& c) {
  alltoall_ring(c);
}

}  // namespace hs::fw::mpi
