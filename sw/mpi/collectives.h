// MPI collectives over point-to-point (sw/mpi/comm.h) in their own context, each call tagged
// with the communicator's count of collective calls so consecutive calls never mix. Each
// collective's algorithm is a named policy (sw/mpi/coll_algorithms.h lists them), chosen per
// run; every call is reported on the trace port with its buffers, so a checker can verify its
// result from the inputs. Reductions charge their arithmetic in core cycles per byte.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sw/mpi/comm.h"

namespace hs::fw::mpi {

struct AlgorithmInfo;

// An algorithm by name for each collective.
struct Algorithms {
  std::array<std::string, kCollectiveCount> by_collective = {
      "recursive_doubling", "binomial", "binomial", "recursive_doubling", "ring",
      "pairwise",           "pairwise"};
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
  // `bytes` from each rank; recv holds size() blocks.
  void allgather(uint64_t send, uint64_t recv, uint32_t bytes);
  // `bytes` for each pair: block j of send goes to rank j, block i of recv comes from rank i.
  void alltoall(uint64_t send, uint64_t recv, uint32_t bytes);
  // Counts and displacements in bytes, one per rank.
  void alltoallv(uint64_t send, const std::vector<uint32_t>& send_counts,
                 const std::vector<uint32_t>& send_displs, uint64_t recv,
                 const std::vector<uint32_t>& recv_counts,
                 const std::vector<uint32_t>& recv_displs);

  // MPI_Comm_split: every rank of this communicator calls it; those with the same `color`
  // (>= 0) form a new communicator, ranked by `key` and then by their rank here. The colours
  // and keys travel by an allgather on this communicator (comm_split.cpp).
  Comm split(int color, int key);

  uint64_t calls() const { return comm_.collective_calls(); }

 private:
  void run(CollectiveCall call);
  Comm& comm_;
  // Each collective's algorithm, found once (the constructor refuses unknown ones).
  std::array<const AlgorithmInfo*, kCollectiveCount> chosen_{};
};

}  // namespace hs::fw::mpi
