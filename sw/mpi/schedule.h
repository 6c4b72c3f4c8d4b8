// A collective started now and finished later (MPI's non-blocking collectives): a list of steps
// progressed without blocking, so the rank's program computes while its messages move.
//
// Steps run in order: a send or receive is posted when reached (it does not wait); a fence
// waits until everything posted so far has completed; a copy or a combination waits the same
// way, then runs on the core. advance() takes as many steps as it can and returns; whoever
// holds the schedule calls it from the rank's MPI calls (the test and wait calls, and any
// other that may progress), and it is done when every step has run.
//
// Rules: the call takes its number (and so its tag) from the communicator when it is built, so
// its messages keep their place among the communicator's collectives, in the order every rank
// starts them, as MPI requires. Its temporaries come from `scratch` (the rank's heap) and go
// back when the schedule is destroyed. The trace port sees the call begin when it starts and
// end when its last step has run, so the checker verifies it like any other.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "sw/mpi/comm.h"

namespace hs::fw::mpi {

class Schedule {
 public:
  using Take = std::function<uint64_t(uint64_t bytes)>;
  using Give = std::function<void(uint64_t addr)>;

  // `call`'s kind and buffers; its number is taken here.
  Schedule(Comm& comm, CollectiveCall call, Take take, Give give);
  ~Schedule();
  Schedule(const Schedule&) = delete;
  Schedule& operator=(const Schedule&) = delete;

  const CollectiveCall& call() const { return call_; }
  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }

  // Building.
  uint64_t scratch(uint64_t bytes);
  void send(uint64_t buf, uint32_t bytes, int peer);
  void recv(uint64_t buf, uint32_t bytes, int peer);
  void fence();
  void copy(uint64_t dst, uint64_t src, uint32_t bytes);
  // acc = acc op in (acc_is_lower) or in op acc, as CollContext::combine.
  void combine(uint64_t acc, uint64_t in, uint32_t bytes, bool acc_is_lower);

  // Running: reports the call's beginning (once) and takes every step it can. True when done.
  bool advance();
  bool done() const { return done_; }

 private:
  struct Step {
    enum Kind { Send, Recv, Fence, Copy, Combine } kind;
    uint64_t a = 0, b = 0;
    uint32_t bytes = 0;
    int peer = 0;
    bool lower = true;
  };
  bool all_posted_complete();

  Comm& comm_;
  CollectiveCall call_;
  int tag_;
  Take take_;
  Give give_;
  std::vector<uint64_t> temporaries_;
  std::vector<Step> steps_;
  size_t next_ = 0;
  std::vector<Request> posted_;
  bool started_ = false, done_ = false;
};

// Builds the steps of a non-blocking collective from its call (the kinds of trace.h): linear
// or binomial forms that need no power of two and keep a user operator's rank order.
void build_schedule(Schedule& s);

}  // namespace hs::fw::mpi
