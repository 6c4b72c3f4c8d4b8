// The collectives' algorithms as named, swappable policies: each is a function of one call,
// listed with its name in the table of its collective. Adding an algorithm is a function and
// a row (docs/developer-guide.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/mpi/comm.h"
#include "sw/mpi/trace.h"

namespace hs::fw::mpi {

// What an algorithm works with: the communicator, the call, its tag, and temporary memory
// from the rank's scratch window (freed when the call ends).
class CollContext {
 public:
  CollContext(Comm& comm, const CollectiveCall& call);
  Comm& comm;
  const CollectiveCall& call;
  int tag;
  int rank, size;

  uint64_t scratch(uint64_t bytes);
  // Memory to memory through the core (loads and stores on the node bus).
  void copy(uint64_t dst, uint64_t src, uint32_t bytes);
  // acc = acc op in, element by element; the arithmetic is charged per byte. With a user's
  // operator the order matters: `acc_is_lower` says acc holds the lower ranks' part (the
  // result is then acc op in, else in op acc).
  void combine(uint64_t acc, uint64_t in, uint32_t bytes, bool acc_is_lower = true);
  // Whether the call's operator lets blocks combine in any order.
  bool commutative() const { return !call.user || call.user->commutative; }
  void send(uint64_t buf, uint32_t bytes, int dest);
  void recv(uint64_t buf, uint32_t bytes, int src);
  void sendrecv(uint64_t sbuf, uint32_t sbytes, int dest, uint64_t rbuf, uint32_t rbytes, int src);

 private:
  uint64_t next_;
  uint64_t end_;
};

// Rooted algorithms work in virtual ranks (v = rank - root modulo P), so the root is virtual
// rank 0 and a subtree holds consecutive virtual ranks.
inline int virtual_rank(const CollContext& c) {
  return (c.rank - c.call.root + c.size) % c.size;
}
inline int real_rank(const CollContext& c, int v) {
  return (v + c.call.root) % c.size;
}

using AlgorithmFn = void (*)(CollContext&);
// Whether the places on the torus of a communicator's ranks (`group`: their world ranks, empty
// for the world) suit an algorithm; if not, `why` says how.
using PlacementFn = bool (*)(const hs::torus::TorusShape&, const RankMap&,
                             const std::vector<int>& group, std::string& why);
struct AlgorithmInfo {
  const char* name;
  const char* summary;
  bool power_of_two;  // needs a power-of-two number of ranks
  AlgorithmFn run;
  PlacementFn fits = nullptr;  // needs the ranks placed so (nullptr: any placement)
};

// The algorithms of a collective, the first its default.
const std::vector<AlgorithmInfo>& algorithms(Collective c);
// The named algorithm, or nullptr; `why` says what is wrong (unknown name, rank count).
const AlgorithmInfo* find_algorithm(Collective c, const std::string& name, int ranks,
                                    std::string& why);
// The same, also checking the placement of a communicator's ranks (`group`: their world
// ranks, empty for the world) for algorithms that need one.
const AlgorithmInfo* find_algorithm(Collective c, const std::string& name,
                                    const hs::torus::TorusShape& shape, const RankMap& map,
                                    const std::vector<int>& group, std::string& why);

// Each algorithm (coll_rooted.cpp, coll_all.cpp).
void barrier_recursive_doubling(CollContext& c);
void barrier_binomial(CollContext& c);
void bcast_binomial(CollContext& c);
void bcast_ring(CollContext& c);
void bcast_deposit_line(CollContext& c);  // coll_deposit.cpp
void bcast_deposit_rectangle(CollContext& c);
bool deposit_line_fits(const hs::torus::TorusShape& shape, const RankMap& map,
                       const std::vector<int>& group, std::string& why);
bool deposit_rectangle_fits(const hs::torus::TorusShape& shape, const RankMap& map,
                            const std::vector<int>& group, std::string& why);
void reduce_binomial(CollContext& c);
void reduce_ring(CollContext& c);
void allreduce_recursive_doubling(CollContext& c);
void allreduce_ring(CollContext& c);
void allreduce_binomial(CollContext& c);
void allgather_ring(CollContext& c);
void allgather_recursive_doubling(CollContext& c);
void alltoall_pairwise(CollContext& c);
void alltoall_ring(CollContext& c);
void alltoall_linear(CollContext& c);
void alltoallv_pairwise(CollContext& c);
void alltoallv_ring(CollContext& c);
void alltoallv_linear(CollContext& c);
void gather_binomial(CollContext& c);  // coll_gather.cpp
void gather_linear(CollContext& c);
void gatherv_linear(CollContext& c);
void gatherv_sequential(CollContext& c);
void scatter_binomial(CollContext& c);
void scatter_linear(CollContext& c);
void scatterv_linear(CollContext& c);
void scatterv_sequential(CollContext& c);
void allgatherv_ring(CollContext& c);
void allgatherv_linear(CollContext& c);
void reduce_scatter_reduce_scatterv(CollContext& c);
void reduce_scatter_ring(CollContext& c);
void scan_recursive_doubling(CollContext& c);
void scan_linear(CollContext& c);
void exscan_recursive_doubling(CollContext& c);
void exscan_linear(CollContext& c);

}  // namespace hs::fw::mpi
