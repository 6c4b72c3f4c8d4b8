#include "testbench/checkers/mpi_checker.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "tlm/check/checker.h"

namespace hs::checkers {

namespace mpi = hs::fw::mpi;
using mpi::Collective;

namespace {
const char* kComponent = "mpi";

Check& rule(const char* name) {
  return CheckRegistry::instance().check(name);
}

// The extent of a v-collective's buffer: the end of its farthest block.
size_t extent(const std::vector<uint32_t>& counts, const std::vector<uint32_t>& displs) {
  size_t e = 0;
  for (size_t i = 0; i < counts.size() && i < displs.size(); ++i) {
    e = std::max<size_t>(e, size_t{displs[i]} + counts[i]);
  }
  return e;
}

// Equal as the call's elements: exactly for integers, to rounding for sums of doubles (the
// algorithms add in different orders).
bool same(const mpi::CollectiveCall& call, const uint8_t* a, const uint8_t* b, size_t n) {
  const bool reduction = call.kind == Collective::Reduce || call.kind == Collective::Allreduce;
  if (!reduction || call.type != mpi::Datatype::Double) return std::memcmp(a, b, n) == 0;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    double x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (std::fabs(x - y) > 1e-9 * std::max(1.0, std::max(std::fabs(x), std::fabs(y)))) {
      return false;
    }
  }
  return true;
}
}  // namespace

MpiChecker::MpiChecker(int ranks, Peek peek) : ranks_(ranks), peek_(std::move(peek)) {
  for (const char* r :
       {mpi_rules::kMatchedSent, mpi_rules::kMatchedOnce, mpi_rules::kInOrder,
        mpi_rules::kAllReceived, mpi_rules::kSameCall, mpi_rules::kBarrier, mpi_rules::kResult}) {
    rule(r);
  }
}

std::deque<MpiChecker::Message>& MpiChecker::pair(int src, int dest) {
  return pairs_[{src, dest}];
}

std::vector<uint8_t> MpiChecker::read(int rank, uint64_t addr, size_t len) const {
  std::vector<uint8_t> v(len);
  if (len > 0) peek_(rank, addr, v.data(), len);
  return v;
}

void MpiChecker::sent(int rank, int dest, int ctx, int tag, uint32_t seq, uint32_t bytes) {
  pair(rank, dest).push_back(Message{ctx, tag, seq, bytes});
  ++messages_;
}

void MpiChecker::matched(int rank, int src, int ctx, int tag, uint32_t seq, uint32_t bytes) {
  auto& msgs = pair(src, rank);
  const std::string what =
      fmt::format("rank {} matched message {} from rank {} (context {}, tag {}, {} B)", rank, seq,
                  src, ctx, tag, bytes);
  auto it = std::find_if(msgs.begin(), msgs.end(), [&](const Message& m) {
    return m.seq == seq && m.ctx == ctx && m.tag == tag && !m.matched;
  });
  if (it == msgs.end()) {
    const bool twice = std::any_of(msgs.begin(), msgs.end(), [&](const Message& m) {
      return m.seq == seq && m.ctx == ctx && m.tag == tag;
    });
    if (twice) {
      HS_EXPECT(rule(mpi_rules::kMatchedOnce), false, kComponent, what + ", matched before");
    } else {
      HS_EXPECT(rule(mpi_rules::kMatchedSent), false, kComponent, what + ", never sent");
    }
    return;
  }
  HS_EXPECT(rule(mpi_rules::kMatchedSent), it->bytes == bytes, kComponent,
            fmt::format("{}: it was sent with {} B", what, it->bytes));
  HS_EXPECT(rule(mpi_rules::kMatchedOnce), true, kComponent, what);
  const auto first = std::find_if(msgs.begin(), msgs.end(), [&](const Message& m) {
    return m.ctx == ctx && m.tag == tag && !m.matched;
  });
  HS_EXPECT(rule(mpi_rules::kInOrder), first == it, kComponent,
            fmt::format("{} before message {}, sent earlier with the same tag", what, first->seq));
  it->matched = true;
}

void MpiChecker::received(int rank, int src, int ctx, int tag, uint32_t seq, uint32_t bytes) {
  auto& msgs = pair(src, rank);
  auto it = std::find_if(msgs.begin(), msgs.end(), [&](const Message& m) {
    return m.seq == seq && m.ctx == ctx && m.tag == tag && m.matched && !m.received;
  });
  HS_EXPECT(rule(mpi_rules::kMatchedOnce), it != msgs.end(), kComponent,
            fmt::format("rank {} received message {} from rank {} (tag {}, {} B) without "
                        "matching it, or twice",
                        rank, seq, src, tag, bytes));
  if (it == msgs.end()) return;
  it->received = true;
  while (!msgs.empty() && msgs.front().received) msgs.pop_front();
}

MpiChecker::CallKey MpiChecker::key(const mpi::CollectiveCall& call) const {
  return {call.comm, call.group.empty() ? 0 : call.group.front(), call.call};
}

void MpiChecker::collective_begin(int world_rank, const mpi::CollectiveCall& call) {
  Call& c = calls_[key(call)];
  if (c.calls.empty()) {
    c.world = call.group;
    if (c.world.empty()) {
      for (int i = 0; i < ranks_; ++i) c.world.push_back(i);
    }
    const size_t n = c.world.size();
    c.calls.resize(n);
    c.begun.assign(n, false);
    c.ended.assign(n, false);
    c.in.resize(n);
    c.out.resize(n);
  }
  const auto r =
      static_cast<size_t>(std::find(c.world.begin(), c.world.end(), world_rank) - c.world.begin());
  const int rank = static_cast<int>(r);
  if (r == c.world.size()) {
    HS_EXPECT(rule(mpi_rules::kSameCall), false, kComponent,
              fmt::format("collective call {} of communicator {}: rank {} is not in its group",
                          call.call, call.comm, world_rank));
    return;
  }
  for (size_t i = 0; i < c.begun.size(); ++i) {
    if (!c.begun[i]) continue;
    const auto& o = c.calls[i];
    const bool rooted = call.kind == Collective::Bcast || call.kind == Collective::Reduce;
    HS_EXPECT(rule(mpi_rules::kSameCall),
              o.kind == call.kind && (!rooted || o.root == call.root) && o.bytes == call.bytes &&
                  o.op == call.op && o.type == call.type,
              kComponent,
              fmt::format("collective call {}: rank {} calls {} (root {}, {} B); rank {} called "
                          "{} (root {}, {} B)",
                          call.call, rank, mpi::collective_name(call.kind), call.root, call.bytes,
                          i, mpi::collective_name(o.kind), o.root, o.bytes));
    break;
  }
  c.calls[r] = call;
  c.begun[r] = true;
  ++c.begun_count;
  const size_t p = c.world.size();
  switch (call.kind) {
    case Collective::Barrier:
      break;
    case Collective::Bcast:
      if (rank == call.root) c.in[r] = read(world_rank, call.recv, call.bytes);
      break;
    case Collective::Reduce:
    case Collective::Allreduce:
    case Collective::Allgather:
      c.in[r] = read(world_rank, call.send, call.bytes);
      break;
    case Collective::Alltoall:
      c.in[r] = read(world_rank, call.send, p * call.bytes);
      break;
    case Collective::Alltoallv:
      c.in[r] = read(world_rank, call.send, extent(call.send_counts, call.send_displs));
      break;
  }
}

void MpiChecker::collective_end(int world_rank, const mpi::CollectiveCall& call) {
  auto found = calls_.find(key(call));
  if (found == calls_.end()) return;
  Call& c = found->second;
  const auto r =
      static_cast<size_t>(std::find(c.world.begin(), c.world.end(), world_rank) - c.world.begin());
  if (r == c.world.size()) return;  // refused at its beginning
  const int rank = static_cast<int>(r);
  const size_t p = c.world.size();
  const int n = static_cast<int>(p);
  if (call.kind == Collective::Barrier) {
    HS_EXPECT(rule(mpi_rules::kBarrier), c.begun_count == n, kComponent,
              fmt::format("collective call {}: rank {} left the barrier when {} of {} ranks had "
                          "entered it",
                          call.call, rank, c.begun_count, n));
  }
  switch (call.kind) {
    case Collective::Barrier:
      break;
    case Collective::Bcast:
    case Collective::Allreduce:
      c.out[r] = read(world_rank, call.recv, call.bytes);
      break;
    case Collective::Reduce:
      if (rank == call.root) c.out[r] = read(world_rank, call.recv, call.bytes);
      break;
    case Collective::Allgather:
    case Collective::Alltoall:
      c.out[r] = read(world_rank, call.recv, p * call.bytes);
      break;
    case Collective::Alltoallv:
      c.out[r] = read(world_rank, call.recv, extent(call.recv_counts, call.recv_displs));
      break;
  }
  c.ended[r] = true;
  if (++c.ended_count == n) {
    verify(call.call, c);
    calls_.erase(found);
  }
}

void MpiChecker::verify(uint64_t index, Call& c) {
  const auto& call0 = c.calls[0];
  const size_t p = c.world.size();
  std::vector<uint8_t> ref;
  switch (call0.kind) {
    case Collective::Barrier:
      ++verified_;
      return;
    case Collective::Bcast:
      ref = c.in[static_cast<size_t>(call0.root)];
      break;
    case Collective::Reduce:
    case Collective::Allreduce:
      ref = c.in[0];
      for (size_t i = 1; i < p; ++i) {
        mpi::combine(call0.op, call0.type, ref.data(), c.in[i].data(), ref.size());
      }
      break;
    case Collective::Allgather:
      for (size_t i = 0; i < p; ++i) ref.insert(ref.end(), c.in[i].begin(), c.in[i].end());
      break;
    case Collective::Alltoall:
    case Collective::Alltoallv:
      break;
  }
  for (size_t j = 0; j < p; ++j) {
    const auto& call = c.calls[j];
    const std::string where =
        fmt::format("collective call {} ({}): rank {}", index, mpi::collective_name(call.kind), j);
    if (call.kind == Collective::Reduce && static_cast<int>(j) != call.root) continue;
    if (call.kind == Collective::Alltoall || call.kind == Collective::Alltoallv) {
      const bool v = call.kind == Collective::Alltoallv;
      for (size_t i = 0; i < p; ++i) {
        const auto& from = c.calls[i];
        const size_t sn = v ? from.send_counts[j] : from.bytes;
        const size_t so = v ? from.send_displs[j] : j * from.bytes;
        const size_t rn = v ? call.recv_counts[i] : call.bytes;
        const size_t ro = v ? call.recv_displs[i] : i * call.bytes;
        HS_EXPECT(
            rule(mpi_rules::kSameCall), sn == rn, kComponent,
            fmt::format("{} expects {} B from rank {}, which sends it {} B", where, rn, i, sn));
        if (sn != rn) return;
        HS_EXPECT(rule(mpi_rules::kResult),
                  std::memcmp(c.out[j].data() + ro, c.in[i].data() + so, sn) == 0, kComponent,
                  fmt::format("{}: block from rank {} differs from what it sent", where, i));
        result_bytes_ += sn;
      }
      continue;
    }
    const auto& out = c.out[j];
    HS_EXPECT(rule(mpi_rules::kResult),
              out.size() == ref.size() && same(call, out.data(), ref.data(), ref.size()),
              kComponent, fmt::format("{}: result differs from the reference", where));
    result_bytes_ += out.size();
  }
  ++verified_;
}

void MpiChecker::finish() {
  if (CheckRegistry::instance().stopped_with_work_left() || !CheckRegistry::instance().ok()) return;
  size_t open = 0;
  std::string first;
  for (const auto& [key, msgs] : pairs_) {
    for (const auto& m : msgs) {
      if (m.received) continue;
      if (open++ == 0) {
        first = fmt::format("message {} from rank {} to rank {} (tag {}, {} B) was {}", m.seq,
                            key.first, key.second, m.tag, m.bytes,
                            m.matched ? "matched but not received" : "never matched");
      }
    }
  }
  HS_EXPECT(
      rule(mpi_rules::kAllReceived), open == 0, kComponent,
      fmt::format("{} messages outstanding at the end of the run; the first: {}", open, first));
  HS_EXPECT(rule(mpi_rules::kResult), calls_.empty(), kComponent,
            fmt::format("{} collective calls did not finish on every rank", calls_.size()));
}

}  // namespace hs::checkers
