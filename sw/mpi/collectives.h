// MPI collectives over point-to-point (sw/mpi/comm.h) in their own context, each call tagged
// with the communicator's count of collective calls so consecutive calls never mix. Each
// collective's algorithm is a named policy (sw/mpi/coll_algorithms.h lists them), chosen per
// run; every call is reported on the trace port with its buffers, so a checker can verify its
// result from the inputs. Reductions charge their arithmetic in core cycles per byte.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sw/mpi/comm.h"

namespace hs::fw::mpi {

struct AlgorithmInfo;

// An algorithm by name for each collective (each table's first by default).
struct Algorithms {
  Algorithms();
  std::array<std::string, kCollectiveCount> by_collective;
  const std::string& of(Collective c) const { return by_collective[static_cast<size_t>(c)]; }
  std::string& of(Collective c) { return by_collective[static_cast<size_t>(c)]; }
};

class Collectives {
 public:
  // Throws std::invalid_argument for an unknown algorithm or one `comm`'s size does not allow.
  Collectives(Comm& comm, const Algorithms& algorithms);

  void barrier();
  void bcast(uint64_t buf, uint32_t bytes, int root);
  void reduce(uint64_t send, uint64_t recv, uint32_t bytes, Datatype type, Op op, int root);
  void allreduce(uint64_t send, uint64_t recv, uint32_t bytes, Datatype type, Op op);
  // The same with a user's operator (`user`, with `type` its elements' packed size in bytes
  // given by user->element_bytes): a non-commutative one combines in rank order (binomial
  // towards rank 0, whatever algorithm was chosen).
  void reduce(uint64_t send, uint64_t recv, uint32_t bytes, const UserOp& user, int root);
  void allreduce(uint64_t send, uint64_t recv, uint32_t bytes, const UserOp& user);
  // `bytes` from each rank; recv holds size() blocks.
  void allgather(uint64_t send, uint64_t recv, uint32_t bytes);
  // `bytes` for each pair: block j of send goes to rank j, block i of recv comes from rank i.
  void alltoall(uint64_t send, uint64_t recv, uint32_t bytes);
  // Counts and displacements in bytes, one per rank.
  void alltoallv(uint64_t send, const std::vector<uint32_t>& send_counts,
                 const std::vector<uint32_t>& send_displs, uint64_t recv,
                 const std::vector<uint32_t>& recv_counts,
                 const std::vector<uint32_t>& recv_displs);
  // Any collective, described whole (trace.h says what each field means for each kind); the
  // communicator's call number, id and group are filled in here.
  void run_call(CollectiveCall call) { run(std::move(call)); }

  // MPI_Comm_split: every rank of this communicator calls it; those with the same `color`
  // (>= 0) form a new communicator, ranked by `key` and then by their rank here. The colours
  // and keys travel by an allgather on this communicator (comm_split.cpp).
  Comm split(int color, int key);
  // The same, where a negative colour (MPI_UNDEFINED) joins no communicator: nullptr.
  std::unique_ptr<Comm> split_or_none(int color, int key);
  // MPI_Comm_create: every rank calls it with the same `members` (ranks here, in the new
  // communicator's order); those not among them get nullptr. MPI_Comm_dup is every rank.
  std::unique_ptr<Comm> subset(const std::vector<int>& members);
  // A communicator of this rank alone (MPI_COMM_SELF), in its lowest free slot; no messages.
  std::unique_ptr<Comm> alone();

  uint64_t calls() const { return comm_.collective_calls(); }

 private:
  void run(CollectiveCall call);
  // Each rank's (a, b, c) by an allgather in the layer's buffers: 4 words a rank.
  std::vector<int32_t> exchange_words(int32_t a, int32_t b, int32_t c);
  // The lowest slot free on every rank, from exchange_words' third words.
  int agreed_slot(const std::vector<int32_t>& words);
  Comm& comm_;
  // Each collective's algorithm, found once (the constructor refuses unknown ones).
  std::array<const AlgorithmInfo*, kCollectiveCount> chosen_{};
};

}  // namespace hs::fw::mpi
