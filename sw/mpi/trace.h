// The message-passing layer's trace port: each rank reports its messages and collective calls
// here (as it would to a trace buffer) so a checker can verify matching and every collective's
// result in any run. The default does nothing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "sw/mpi/reduce_op.h"

namespace hs::fw::mpi {

enum class Collective {
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Allgather,
  Alltoall,
  Alltoallv,
  Gather,
  Gatherv,
  Scatter,
  Scatterv,
  Allgatherv,
  ReduceScatter,
  ReduceScatterBlock,
  Scan,
  Exscan,
};
// Every collective, in the enum's order (its index is the enum's value).
inline constexpr Collective kAllCollectives[] = {
    Collective::Barrier,       Collective::Bcast,
    Collective::Reduce,        Collective::Allreduce,
    Collective::Allgather,     Collective::Alltoall,
    Collective::Alltoallv,     Collective::Gather,
    Collective::Gatherv,       Collective::Scatter,
    Collective::Scatterv,      Collective::Allgatherv,
    Collective::ReduceScatter, Collective::ReduceScatterBlock,
    Collective::Scan,          Collective::Exscan};
inline constexpr size_t kCollectiveCount = std::size(kAllCollectives);
const char* collective_name(Collective c);

// One rank's view of a collective call. Addresses are the rank's buffers in its node's memory;
// sizes in bytes. Bcast: `recv` is the buffer (the root's holds the data). Allgather, Gather
// and Scatter: `bytes` per rank (the root's `recv` / `send` holds size() blocks). Alltoall:
// `bytes` per pair. The v forms: the count and displacement lists (Gatherv: recv_*, at the
// root; Scatterv: send_*, at the root; Allgatherv: recv_*; Alltoallv: both), and `bytes` this
// rank's own block. ReduceScatter: `send` holds the sum of recv_counts, `recv` gets this
// rank's part; ReduceScatterBlock: `send` holds size() blocks of `bytes`. Scan and Exscan:
// `bytes` per rank (Exscan leaves rank 0's `recv` as it was). Ranks (root, block indices)
// are the communicator's; `group` translates them to world ranks. A reduction with a user's
// operator (Op::User) carries it in `user`; its blocks combine in rank order.
struct CollectiveCall {
  Collective kind = Collective::Barrier;
  uint64_t call = 0;       // the communicator's collective calls so far
  int comm = 0;            // the communicator's id (0: the world)
  std::vector<int> group;  // its world ranks in its rank order (empty: the world)
  int root = 0;
  Op op = Op::Sum;
  Datatype type = Datatype::Int64;
  uint64_t send = 0, recv = 0;
  uint32_t bytes = 0;
  std::vector<uint32_t> send_counts, send_displs, recv_counts, recv_displs;
  const UserOp* user = nullptr;
  bool nonblocking = false;  // started by an MPI_I... call, progressed in the background
};

class MpiTrace {
 public:
  virtual ~MpiTrace() = default;
  virtual void sent(int /*rank*/, int /*dest*/, int /*ctx*/, int /*tag*/, uint32_t /*seq*/,
                    uint32_t /*bytes*/) {}
  // A message bound to a receive (posted, or taking it from the unexpected queue).
  virtual void matched(int /*rank*/, int /*src*/, int /*ctx*/, int /*tag*/, uint32_t /*seq*/,
                       uint32_t /*bytes*/) {}
  // A matched message's data is all in the receive buffer.
  virtual void received(int /*rank*/, int /*src*/, int /*ctx*/, int /*tag*/, uint32_t /*seq*/,
                        uint32_t /*bytes*/) {}
  // `rank` is the world rank.
  virtual void collective_begin(int /*rank*/, const CollectiveCall&) {}
  virtual void collective_end(int /*rank*/, const CollectiveCall&) {}
};

}  // namespace hs::fw::mpi
