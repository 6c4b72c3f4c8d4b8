#include "sw/mpi/collectives.h"

#include <fmt/format.h>
#include <array>
#include <cmath>
#include <stdexcept>

#include "sw/mpi/coll_algorithms.h"

namespace hs::fw::mpi {

const char* collective_name(Collective c) {
  switch (c) {
    case Collective::Barrier:
      return "barrier";
    case Collective::Bcast:
      return "bcast";
    case Collective::Reduce:
      return "reduce";
    case Collective::Allreduce:
      return "allreduce";
    case Collective::Allgather:
      return "allgather";
    case Collective::Alltoall:
      return "alltoall";
    case Collective::Alltoallv:
      return "alltoallv";
    case Collective::Gather:
      return "gather";
    case Collective::Gatherv:
      return "gatherv";
    case Collective::Scatter:
      return "scatter";
    case Collective::Scatterv:
      return "scatterv";
    case Collective::Allgatherv:
      return "allgatherv";
    case Collective::ReduceScatter:
      return "reduce_scatter";
    case Collective::ReduceScatterBlock:
      return "reduce_scatter_block";
    case Collective::Scan:
      return "scan";
    case Collective::Exscan:
      return "exscan";
  }
  return "?";
}

const std::vector<AlgorithmInfo>& algorithms(Collective c) {
  // One table per collective, in the enum's order.
  static const std::array<std::vector<AlgorithmInfo>, kCollectiveCount> tables = {{
      // barrier
      {{"recursive_doubling", "dissemination: log2(P) rounds of empty messages", false,
        barrier_recursive_doubling},
       {"binomial", "gather up a binomial tree to rank 0, release down it", false,
        barrier_binomial}},
      // bcast
      {{"binomial", "binomial tree from the root: log2(P) rounds", false, bcast_binomial},
       {"ring", "pipelined chain from the root in segments of mpi.pipeline_bytes", false,
        bcast_ring},
       {"deposit_line",
        "torus deposit bit: the root's direct puts land at every node of its line (the ranks "
        "must fill one torus line, one a node)",
        false, bcast_deposit_line, deposit_line_fits},
       {"deposit_rectangle",
        "torus deposit bit along x, then each line along y, then each plane along z (the ranks "
        "must fill a whole line, plane or box, one a node)",
        false, bcast_deposit_rectangle, deposit_rectangle_fits}},
      // reduce
      {{"binomial", "binomial tree towards the root: log2(P) rounds", false, reduce_binomial},
       {"ring", "chain towards the root, each rank adding its part", false, reduce_ring}},
      // allreduce
      {{"recursive_doubling", "log2(P) exchanges of the whole vector (extra ranks folded in)",
        false, allreduce_recursive_doubling},
       {"ring", "reduce-scatter then allgather around the ring: 2(P-1) steps of 1/P", false,
        allreduce_ring},
       {"binomial", "binomial reduce to rank 0, then binomial broadcast", false,
        allreduce_binomial}},
      // allgather
      {{"ring", "P-1 steps passing blocks to the next rank", false, allgather_ring},
       {"recursive_doubling", "log2(P) exchanges of doubling size", true,
        allgather_recursive_doubling}},
      // alltoall
      {{"pairwise", "pairwise exchange: in step k each rank swaps with rank XOR k", true,
        alltoall_pairwise},
       {"ring", "in step k each rank sends to rank+k and receives from rank-k", false,
        alltoall_ring},
       {"linear", "every receive and send posted at once; the network orders them", false,
        alltoall_linear}},
      // alltoallv
      {{"pairwise", "pairwise exchange: in step k each rank swaps with rank XOR k", true,
        alltoallv_pairwise},
       {"ring", "in step k each rank sends to rank+k and receives from rank-k", false,
        alltoallv_ring},
       {"linear", "every receive and send posted at once; the network orders them", false,
        alltoallv_linear}},
      // gather
      {{"binomial", "binomial tree towards the root, each subtree's blocks together", false,
        gather_binomial},
       {"linear", "every rank sends its block to the root", false, gather_linear}},
      // gatherv
      {{"linear", "every rank sends its block to the root, which posts every receive at once",
        false, gatherv_linear},
       {"sequential", "the root receives the blocks one rank after another", false,
        gatherv_sequential}},
      // scatter
      {{"binomial", "binomial tree from the root, each subtree's blocks together", false,
        scatter_binomial},
       {"linear", "the root sends every rank its block", false, scatter_linear}},
      // scatterv
      {{"linear", "the root sends every rank its block, all at once", false, scatterv_linear},
       {"sequential", "the root sends the blocks one rank after another", false,
        scatterv_sequential}},
      // allgatherv
      {{"ring", "P-1 steps passing blocks to the next rank", false, allgatherv_ring},
       {"linear", "every rank sends its block to every other, all at once", false,
        allgatherv_linear}},
      // reduce_scatter
      {{"reduce_scatterv", "binomial reduce to rank 0, then its parts scattered", false,
        reduce_scatter_reduce_scatterv},
       {"ring", "P-1 steps around the ring, each rank adding its part of the block passing by",
        false, reduce_scatter_ring}},
      // reduce_scatter_block
      {{"reduce_scatterv", "binomial reduce to rank 0, then its parts scattered", false,
        reduce_scatter_reduce_scatterv},
       {"ring", "P-1 steps around the ring, each rank adding its part of the block passing by",
        false, reduce_scatter_ring}},
      // scan
      {{"recursive_doubling", "log2(P) exchanges of partial prefixes", false,
        scan_recursive_doubling},
       {"linear", "a chain: each rank adds its part and passes the prefix on", false, scan_linear}},
      // exscan
      {{"recursive_doubling", "log2(P) exchanges of partial prefixes", false,
        exscan_recursive_doubling},
       {"linear", "a chain: each rank adds its part and passes the prefix on", false,
        exscan_linear}},
  }};
  return tables[static_cast<size_t>(c)];
}

const AlgorithmInfo* find_algorithm(Collective c, const std::string& name, int ranks,
                                    std::string& why) {
  std::string names;
  for (const auto& a : algorithms(c)) {
    names += (names.empty() ? "" : ", ") + std::string(a.name);
    if (name != a.name) continue;
    if (a.power_of_two && (ranks & (ranks - 1)) != 0) {
      why = fmt::format("{} algorithm '{}' needs a power-of-two number of ranks; the job has {}",
                        collective_name(c), name, ranks);
      return nullptr;
    }
    return &a;
  }
  why = fmt::format("{} algorithm '{}' ({})", collective_name(c), name, names);
  return nullptr;
}

const AlgorithmInfo* find_algorithm(Collective c, const std::string& name,
                                    const hs::torus::TorusShape& shape, const RankMap& map,
                                    const std::vector<int>& group, std::string& why) {
  const int ranks = group.empty() ? map.size() : static_cast<int>(group.size());
  const AlgorithmInfo* a = find_algorithm(c, name, ranks, why);
  if (a && a->fits && !a->fits(shape, map, group, why)) {
    why =
        fmt::format("{} algorithm '{}' does not fit the ranks' placement on the {}x{}x{} torus: {}",
                    collective_name(c), name, shape.size(0), shape.size(1), shape.size(2), why);
    return nullptr;
  }
  return a;
}

Algorithms::Algorithms() {
  for (auto c : kAllCollectives) of(c) = algorithms(c).front().name;
}

CollContext::CollContext(Comm& comm_, const CollectiveCall& call_)
    : comm(comm_),
      call(call_),
      tag(comm_.collective_tag(call_.call)),
      rank(comm_.rank()),
      size(comm_.size()),
      next_(comm_.window() + kRankScratch),
      end_(comm_.window() + kRankLayerBuffers) {}

uint64_t CollContext::scratch(uint64_t bytes) {
  const uint64_t a = next_;
  next_ += (bytes + 63) & ~uint64_t{63};
  if (next_ > end_) {
    comm.hal().fail(fmt::format("{}: temporaries exceed the rank's {} MiB scratch window",
                                collective_name(call.kind), (kRankWindow - kRankScratch) >> 20));
  }
  return a;
}

void CollContext::copy(uint64_t dst, uint64_t src, uint32_t bytes) {
  if (bytes == 0 || dst == src) return;
  std::vector<uint8_t> v(bytes);
  comm.hal().load(src, v.data(), bytes);
  comm.hal().store(dst, v.data(), bytes);
}

void CollContext::combine(uint64_t acc, uint64_t in, uint32_t bytes, bool acc_is_lower) {
  if (bytes == 0) return;
  std::vector<uint8_t> a(bytes), b(bytes);
  comm.hal().load(acc, a.data(), bytes);
  comm.hal().load(in, b.data(), bytes);
  if (call.user) {
    const size_t n = bytes / call.user->element_bytes;
    if (acc_is_lower) {  // acc op in, landing in in's copy
      call.user->apply(a.data(), b.data(), n);
      a.swap(b);
    } else {
      call.user->apply(b.data(), a.data(), n);
    }
  } else {
    mpi::combine(call.op, call.type, a.data(), b.data(), bytes);
  }
  comm.hal().compute(
      static_cast<uint64_t>(std::ceil(bytes * comm.config().reduce_cycles_per_byte)));
  comm.hal().store(acc, a.data(), bytes);
}

void CollContext::send(uint64_t buf, uint32_t bytes, int dest) {
  comm.send(buf, bytes, dest, tag, kCollective);
}

void CollContext::recv(uint64_t buf, uint32_t bytes, int src) {
  comm.recv(buf, bytes, src, tag, kCollective);
}

void CollContext::sendrecv(uint64_t sbuf, uint32_t sbytes, int dest, uint64_t rbuf, uint32_t rbytes,
                           int src) {
  comm.sendrecv(sbuf, sbytes, dest, rbuf, rbytes, src, tag, kCollective);
}

Collectives::Collectives(Comm& comm, const Algorithms& algorithms) : comm_(comm) {
  for (auto c : kAllCollectives) {
    std::string why;
    const AlgorithmInfo* a = find_algorithm(c, algorithms.of(c), comm.messenger().shape(),
                                            comm.map(), comm.group(), why);
    if (!a) throw std::invalid_argument(why);
    chosen_[static_cast<size_t>(c)] = a;
  }
}

void Collectives::run(CollectiveCall call) {
  call.call = comm_.next_collective_call();
  call.comm = comm_.id();
  call.group = comm_.group();
  const AlgorithmInfo* a = chosen_[static_cast<size_t>(call.kind)];
  // A user's non-commutative operator combines in rank order: the binomial tree towards rank
  // 0 (reduce_binomial keeps the order then), for whatever algorithm was chosen.
  if (call.user && !call.user->commutative && call.kind == Collective::Allreduce) {
    static const AlgorithmInfo ordered{"binomial", "", false, allreduce_binomial};
    a = &ordered;
  }
  if (call.user && !call.user->commutative && call.kind == Collective::Reduce) {
    static const AlgorithmInfo ordered{"binomial", "", false, reduce_binomial};
    a = &ordered;
  }
  Phase phase(comm_.hal(), collective_name(call.kind));
  const int me = comm_.world_rank(comm_.rank());
  comm_.trace().collective_begin(me, call);
  CollContext c(comm_, call);
  a->run(c);
  comm_.trace().collective_end(me, call);
}

namespace {

// A call moving `bytes` from `send` to `recv` (either may be unused by its kind).
CollectiveCall moving(Collective kind, uint64_t send, uint64_t recv, uint32_t bytes) {
  CollectiveCall c;
  c.kind = kind;
  c.send = send;
  c.recv = recv;
  c.bytes = bytes;
  return c;
}

}  // namespace

void Collectives::barrier() {
  run(moving(Collective::Barrier, 0, 0, 0));
}

void Collectives::bcast(uint64_t buf, uint32_t bytes, int root) {
  CollectiveCall c = moving(Collective::Bcast, 0, buf, bytes);
  c.root = root;
  run(c);
}

void Collectives::reduce(uint64_t send, uint64_t recv, uint32_t bytes, Datatype type, Op op,
                         int root) {
  CollectiveCall c = moving(Collective::Reduce, send, recv, bytes);
  c.type = type;
  c.op = op;
  c.root = root;
  run(c);
}

void Collectives::allreduce(uint64_t send, uint64_t recv, uint32_t bytes, Datatype type, Op op) {
  CollectiveCall c = moving(Collective::Allreduce, send, recv, bytes);
  c.type = type;
  c.op = op;
  run(c);
}

void Collectives::reduce(uint64_t send, uint64_t recv, uint32_t bytes, const UserOp& user,
                         int root) {
  CollectiveCall c = moving(Collective::Reduce, send, recv, bytes);
  c.op = Op::User;
  c.user = &user;
  c.root = root;
  run(c);
}

void Collectives::allreduce(uint64_t send, uint64_t recv, uint32_t bytes, const UserOp& user) {
  CollectiveCall c = moving(Collective::Allreduce, send, recv, bytes);
  c.op = Op::User;
  c.user = &user;
  run(c);
}

void Collectives::allgather(uint64_t send, uint64_t recv, uint32_t bytes) {
  run(moving(Collective::Allgather, send, recv, bytes));
}

void Collectives::alltoall(uint64_t send, uint64_t recv, uint32_t bytes) {
  run(moving(Collective::Alltoall, send, recv, bytes));
}

void Collectives::alltoallv(uint64_t send, const std::vector<uint32_t>& send_counts,
                            const std::vector<uint32_t>& send_displs, uint64_t recv,
                            const std::vector<uint32_t>& recv_counts,
                            const std::vector<uint32_t>& recv_displs) {
  CollectiveCall c = moving(Collective::Alltoallv, send, recv, 0);
  c.send_counts = send_counts;
  c.send_displs = send_displs;
  c.recv_counts = recv_counts;
  c.recv_displs = recv_displs;
  run(c);
}

}  // namespace hs::fw::mpi
