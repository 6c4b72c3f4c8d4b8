// The processes of a parallel run, one per partition, and what they say to each other
// (docs/parallel.md): each window's cut traffic, to the neighbours across the cut only; the
// window's vote (the earliest next event anywhere, requests to stop); and at the end the
// gathers that merge the partitions' reports into one.
//
// Rules:
// - A run is parallel when it was started by mpirun or srun with more than one process
//   (join_process_group reads the launcher's environment); otherwise it is alone, and nothing
//   here costs anything.
// - Every call is collective over the processes it names: all call it, in the same order.
// - Any MPI error, or a process that cannot go on, ends the whole run with a message naming
//   the partition (abort); a process that dies is reported by the launcher, which ends the
//   others: no run hangs.
// - A build without MPI refuses a launch of more than one process, saying so, rather than
//   running the whole machine in every process.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tlm/parallel/bytes.h"

namespace hs {

// What a window's vote carries: element-wise minima, maxima and sums over every process.
struct Vote {
  std::vector<uint64_t> min, max, sum;
};

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Sends out[i] to peers[i] and returns what each of `peers` sent, in the same order. Every
  // peer names this process among its own peers (cuts are two-way).
  virtual std::vector<Bytes> exchange(const std::vector<int>& peers,
                                      const std::vector<Bytes>& out) = 0;
  // Combines every process's vote (each vector the same length everywhere).
  virtual void vote(Vote& v) = 0;
  // Every process's bytes at rank 0, in rank order (the others get nothing).
  virtual std::vector<Bytes> gather(const Bytes& mine) = 0;
  // Rank 0's bytes, at every process.
  virtual Bytes broadcast(const Bytes& from_root) = 0;
  // Ends every process of the run: `why` is printed naming this process's partition.
  [[noreturn]] virtual void abort(const std::string& why) = 0;
  // Whether this build can run in parallel (it was built with MPI).
  static bool available();
};

// The processes of the run being built, as the runner joined them (one, rank 0, until then):
// what a machine reads to build its own partition.
struct RunProcesses {
  int rank = 0, size = 1;
};
RunProcesses& run_processes();

// The group this process belongs to: under mpirun or srun with several processes, the MPI
// group (MPI initialised here, finalised when the group is destroyed); otherwise a group of
// one. Throws InputError for several processes in a build without MPI.
std::unique_ptr<ProcessGroup> join_process_group();

}  // namespace hs
