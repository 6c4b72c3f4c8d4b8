#include "sw/mpi/schedule.h"

#include "sw/mpi/coll_algorithms.h"

namespace hs::fw::mpi {

Schedule::Schedule(Comm& comm, CollectiveCall call, Take take, Give give)
    : comm_(comm), call_(std::move(call)), take_(std::move(take)), give_(std::move(give)) {
  call_.call = comm_.next_collective_call();
  call_.comm = comm_.id();
  call_.group = comm_.group();
  call_.nonblocking = true;
  tag_ = comm_.collective_tag(call_.call);
}

Schedule::~Schedule() {
  for (uint64_t t : temporaries_) give_(t);
}

uint64_t Schedule::scratch(uint64_t bytes) {
  const uint64_t a = take_(bytes == 0 ? 1 : bytes);
  temporaries_.push_back(a);
  return a;
}

void Schedule::send(uint64_t buf, uint32_t bytes, int peer) {
  steps_.push_back({Step::Send, buf, 0, bytes, peer});
}
void Schedule::recv(uint64_t buf, uint32_t bytes, int peer) {
  steps_.push_back({Step::Recv, buf, 0, bytes, peer});
}
void Schedule::fence() {
  steps_.push_back({Step::Fence});
}
void Schedule::copy(uint64_t dst, uint64_t src, uint32_t bytes) {
  if (bytes > 0 && dst != src) steps_.push_back({Step::Copy, dst, src, bytes});
}
void Schedule::combine(uint64_t acc, uint64_t in, uint32_t bytes, bool acc_is_lower) {
  if (bytes > 0) steps_.push_back({Step::Combine, acc, in, bytes, 0, acc_is_lower});
}

bool Schedule::all_posted_complete() {
  for (auto& r : posted_) {
    if (r.id >= 0 && !comm_.test(r)) return false;
  }
  posted_.clear();
  return true;
}

bool Schedule::advance() {
  if (done_) return true;
  Hal& hal = comm_.hal();
  const int me = comm_.world_rank(comm_.rank());
  if (!started_) {
    started_ = true;
    comm_.trace().collective_begin(me, call_);
  }
  while (next_ < steps_.size()) {
    const Step& s = steps_[next_];
    switch (s.kind) {
      case Step::Send:
        posted_.push_back(comm_.isend(s.a, s.bytes, s.peer, tag_, kCollective));
        break;
      case Step::Recv:
        posted_.push_back(comm_.irecv(s.a, s.bytes, s.peer, tag_, kCollective));
        break;
      case Step::Fence:
        if (!all_posted_complete()) return false;
        break;
      case Step::Copy: {
        if (!all_posted_complete()) return false;
        std::vector<uint8_t> v(s.bytes);
        hal.load(s.b, v.data(), s.bytes);
        hal.store(s.a, v.data(), s.bytes);
        break;
      }
      case Step::Combine: {
        if (!all_posted_complete()) return false;
        CollContext c(comm_, call_);
        c.combine(s.a, s.b, s.bytes, s.lower);
        break;
      }
    }
    ++next_;
  }
  if (!all_posted_complete()) return false;
  done_ = true;
  comm_.trace().collective_end(me, call_);
  return true;
}

}  // namespace hs::fw::mpi
