#include "testbench/checkers/mpi_checker.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"

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

bool reduction(Collective k) {
  return k == Collective::Reduce || k == Collective::Allreduce || k == Collective::ReduceScatter ||
         k == Collective::ReduceScatterBlock || k == Collective::Scan || k == Collective::Exscan;
}

// Every rank gives the same byte count (the v forms' counts are checked pairwise instead).
bool uniform(Collective k) {
  return k != Collective::Gatherv && k != Collective::Scatterv && k != Collective::Allgatherv &&
         k != Collective::Alltoallv && k != Collective::ReduceScatter;
}

bool rooted(Collective k) {
  return k == Collective::Bcast || k == Collective::Reduce || k == Collective::Gather ||
         k == Collective::Gatherv || k == Collective::Scatter || k == Collective::Scatterv;
}

template <class T>
bool close(const uint8_t* a, const uint8_t* b, size_t n, double tolerance) {
  for (size_t i = 0; i + sizeof(T) <= n; i += sizeof(T)) {
    T x, y;
    std::memcpy(&x, a + i, sizeof x);
    std::memcpy(&y, b + i, sizeof y);
    const long double dx = x, dy = y;
    if (std::fabs(dx - dy) >
        tolerance * std::max<long double>(1.0L, std::max(std::fabs(dx), std::fabs(dy)))) {
      return false;
    }
  }
  return true;
}

// x86-64 long doubles: 10 bytes of value in 16, the rest padding nobody defines.
bool same_long_doubles(const uint8_t* a, const uint8_t* b, size_t n, size_t stride,
                       double tolerance) {
  for (size_t i = 0; i + 10 <= n; i += stride) {
    long double x = 0, y = 0;
    std::memcpy(&x, a + i, 10);
    std::memcpy(&y, b + i, 10);
    if (tolerance == 0
            ? x != y
            : std::fabs(x - y) >
                  tolerance * std::max<long double>(1.0L, std::max(std::fabs(x), std::fabs(y)))) {
      return false;
    }
    if (stride == 20 && std::memcmp(a + i + 16, b + i + 16, 4) != 0) return false;  // the index
  }
  return true;
}

// Equal as the call's elements: exactly, but to rounding for floating-point sums and products
// (the algorithms combine in different orders).
bool same(const mpi::CollectiveCall& call, const uint8_t* a, const uint8_t* b, size_t n) {
  const bool rounding = reduction(call.kind) && mpi::rounding_matters(call.op, call.type);
  if (reduction(call.kind)) {
    switch (call.type) {
      case mpi::Datatype::LongDouble:
      case mpi::Datatype::ComplexLongDouble:
        return same_long_doubles(a, b, n, 16, rounding ? 1e-12 : 0);
      case mpi::Datatype::LongDoubleInt:
        return same_long_doubles(a, b, n, 20, 0);
      default:
        break;
    }
  }
  if (!rounding) return std::memcmp(a, b, n) == 0;
  switch (call.type) {
    case mpi::Datatype::Float:
    case mpi::Datatype::ComplexFloat:
      return close<float>(a, b, n, 1e-4);
    case mpi::Datatype::LongDouble:
    case mpi::Datatype::ComplexLongDouble:
      return close<long double>(a, b, n, 1e-12);
    default:
      return close<double>(a, b, n, 1e-9);
  }
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

MpiChecker::Span MpiChecker::reads(const mpi::CollectiveCall& call, int rank, size_t p,
                                   bool at_end) {
  const auto span = [](uint64_t addr, size_t len) { return Span{addr, len}; };
  if (!at_end) {  // the inputs, read as the rank enters the call
    switch (call.kind) {
      case Collective::Barrier:
        return {};
      case Collective::Bcast:
        return rank == call.root ? span(call.recv, call.bytes) : Span{};
      case Collective::Reduce:
      case Collective::Allreduce:
      case Collective::Allgather:
      case Collective::Gather:
      case Collective::Gatherv:
      case Collective::Allgatherv:
      case Collective::Scan:
      case Collective::Exscan:
        return span(call.send, call.bytes);
      case Collective::Alltoall:
      case Collective::ReduceScatterBlock:
        return span(call.send, p * call.bytes);
      case Collective::Scatter:
        return rank == call.root ? span(call.send, p * call.bytes) : Span{};
      case Collective::Scatterv:
        return rank == call.root ? span(call.send, extent(call.send_counts, call.send_displs))
                                 : Span{};
      case Collective::ReduceScatter: {
        size_t total = 0;
        for (uint32_t n : call.recv_counts) total += n;
        return span(call.send, total);
      }
      case Collective::Alltoallv:
        return span(call.send, extent(call.send_counts, call.send_displs));
    }
    return {};
  }
  switch (call.kind) {  // the results, read as the rank leaves it
    case Collective::Barrier:
      return {};
    case Collective::Bcast:
    case Collective::Allreduce:
    case Collective::Scatter:
    case Collective::Scatterv:
    case Collective::ReduceScatterBlock:
    case Collective::Scan:
      return span(call.recv, call.bytes);
    case Collective::Exscan:
      return rank > 0 ? span(call.recv, call.bytes) : Span{};
    case Collective::ReduceScatter:
      return span(call.recv, call.recv_counts[static_cast<size_t>(rank)]);
    case Collective::Reduce:
    case Collective::Gather:
      if (rank != call.root) return {};
      return span(call.recv, call.kind == Collective::Gather ? p * call.bytes : call.bytes);
    case Collective::Gatherv:
      return rank == call.root ? span(call.recv, extent(call.recv_counts, call.recv_displs))
                               : Span{};
    case Collective::Allgather:
    case Collective::Alltoall:
      return span(call.recv, p * call.bytes);
    case Collective::Allgatherv:
    case Collective::Alltoallv:
      return span(call.recv, extent(call.recv_counts, call.recv_displs));
  }
  return {};
}

std::vector<uint8_t> MpiChecker::read(int rank, Span s) const {
  std::vector<uint8_t> v(s.len);
  if (s.len > 0) peek_(rank, s.addr, v.data(), s.len);
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
    HS_EXPECT(rule(mpi_rules::kSameCall),
              o.kind == call.kind && (!rooted(call.kind) || o.root == call.root) &&
                  (!uniform(call.kind) || o.bytes == call.bytes) && o.op == call.op &&
                  o.type == call.type,
              kComponent,
              fmt::format("collective call {}: rank {} calls {} (root {}, {} B, {} {}); rank {} "
                          "called {} (root {}, {} B, {} {})",
                          call.call, rank, mpi::collective_name(call.kind), call.root, call.bytes,
                          mpi::datatype_name(call.type), mpi::op_name(call.op), i,
                          mpi::collective_name(o.kind), o.root, o.bytes, mpi::datatype_name(o.type),
                          mpi::op_name(o.op)));
    break;
  }
  c.calls[r] = call;
  c.begun[r] = true;
  ++c.begun_count;
  c.in[r] = read(world_rank, reads(call, rank, c.world.size(), false));
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
  c.out[r] = read(world_rank, reads(call, rank, p, true));
  c.ended[r] = true;
  if (++c.ended_count == n) {
    verify(call.call, c);
    calls_.erase(found);
  }
}

void MpiChecker::verify(uint64_t index, Call& c) {
  const auto& call0 = c.calls[0];
  const size_t p = c.world.size();
  const auto where = [&](size_t j) {
    return fmt::format("collective call {} ({}): rank {}", index,
                       mpi::collective_name(c.calls[j].kind), j);
  };
  if (call0.kind == Collective::Barrier) {
    ++verified_;
    return;
  }
  if (call0.op == mpi::Op::User && reduction(call0.kind)) {
    ++unverified_;  // a user's operator: the checker cannot compute the reference
    return;
  }
  // The reduction of the inputs of ranks [0, upto).
  const auto fold = [&](size_t upto) {
    std::vector<uint8_t> ref = c.in[0];
    for (size_t i = 1; i < upto; ++i) {
      mpi::combine(call0.op, call0.type, ref.data(), c.in[i].data(), ref.size());
    }
    return ref;
  };
  // Rank j's block at `offset` of its output equals `expect`.
  bool ok = true;
  const auto check_block = [&](size_t j, size_t offset, const uint8_t* expect, size_t n,
                               const std::string& what) {
    const auto& out = c.out[j];
    const bool good = offset + n <= out.size() && same(c.calls[j], out.data() + offset, expect, n);
    HS_EXPECT(rule(mpi_rules::kResult), good, kComponent, fmt::format("{}: {}", where(j), what));
    ok = ok && good;
    if (good) result_bytes_ += n;
  };
  const auto counts_agree = [&](size_t j, size_t i, size_t expected, size_t sent) {
    HS_EXPECT(rule(mpi_rules::kSameCall), expected == sent, kComponent,
              fmt::format("{} expects {} B from rank {}, which sends it {} B", where(j), expected,
                          i, sent));
    ok = ok && expected == sent;
    return expected == sent;
  };
  const auto root = static_cast<size_t>(call0.root);
  switch (call0.kind) {
    case Collective::Barrier:
      break;
    case Collective::Bcast:
      for (size_t j = 0; j < p; ++j) {
        check_block(j, 0, c.in[root].data(), c.in[root].size(), "result differs from the root's");
      }
      break;
    case Collective::Reduce:
    case Collective::Allreduce: {
      const auto ref = fold(p);
      for (size_t j = 0; j < p; ++j) {
        if (call0.kind == Collective::Reduce && j != root) continue;
        check_block(j, 0, ref.data(), ref.size(), "result differs from the reference");
      }
      break;
    }
    case Collective::Allgather:
    case Collective::Gather:
      for (size_t j = 0; j < p; ++j) {
        if (call0.kind == Collective::Gather && j != root) continue;
        for (size_t i = 0; i < p; ++i) {
          check_block(j, i * c.calls[j].bytes, c.in[i].data(), c.in[i].size(),
                      fmt::format("block from rank {} differs from what it sent", i));
        }
      }
      break;
    case Collective::Gatherv:
    case Collective::Allgatherv:
      for (size_t j = 0; j < p; ++j) {
        if (call0.kind == Collective::Gatherv && j != root) continue;
        const auto& cj = c.calls[j];
        for (size_t i = 0; i < p; ++i) {
          if (!counts_agree(j, i, cj.recv_counts[i], c.in[i].size())) return;
          check_block(j, cj.recv_displs[i], c.in[i].data(), c.in[i].size(),
                      fmt::format("block from rank {} differs from what it sent", i));
        }
      }
      break;
    case Collective::Scatter:
      for (size_t j = 0; j < p; ++j) {
        check_block(j, 0, c.in[root].data() + j * c.calls[j].bytes, c.calls[j].bytes,
                    "block differs from the root's");
      }
      break;
    case Collective::Scatterv:
      for (size_t j = 0; j < p; ++j) {
        const auto& from = c.calls[root];
        if (!counts_agree(j, root, c.calls[j].bytes, from.send_counts[j])) return;
        check_block(j, 0, c.in[root].data() + from.send_displs[j], from.send_counts[j],
                    "block differs from the root's");
      }
      break;
    case Collective::Alltoall:
    case Collective::Alltoallv: {
      const bool v = call0.kind == Collective::Alltoallv;
      for (size_t j = 0; j < p; ++j) {
        const auto& call = c.calls[j];
        for (size_t i = 0; i < p; ++i) {
          const auto& from = c.calls[i];
          const size_t sn = v ? from.send_counts[j] : from.bytes;
          const size_t so = v ? from.send_displs[j] : j * from.bytes;
          const size_t rn = v ? call.recv_counts[i] : call.bytes;
          const size_t ro = v ? call.recv_displs[i] : i * call.bytes;
          if (!counts_agree(j, i, rn, sn)) return;
          check_block(j, ro, c.in[i].data() + so, sn,
                      fmt::format("block from rank {} differs from what it sent", i));
        }
      }
      break;
    }
    case Collective::ReduceScatter:
    case Collective::ReduceScatterBlock: {
      const auto ref = fold(p);
      size_t offset = 0;
      for (size_t j = 0; j < p; ++j) {
        const size_t n =
            call0.kind == Collective::ReduceScatterBlock ? c.calls[j].bytes : call0.recv_counts[j];
        if (offset + n > ref.size()) break;
        check_block(j, 0, ref.data() + offset, n, "part differs from the reference");
        offset += n;
      }
      break;
    }
    case Collective::Scan:
    case Collective::Exscan:
      for (size_t j = 0; j < p; ++j) {
        const bool ex = call0.kind == Collective::Exscan;
        if (ex && j == 0) continue;
        const auto ref = fold(ex ? j : j + 1);
        check_block(j, 0, ref.data(), ref.size(), "prefix differs from the reference");
      }
      break;
  }
  if (ok) ++verified_;
}

void MpiChecker::finish() {
  if (CheckRegistry::instance().cut_short() || !CheckRegistry::instance().ok()) return;
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

namespace hs::checkers {

MpiTraceLog::MpiTraceLog(int ranks, MpiChecker::Peek peek)
    : ranks_(ranks), peek_(std::move(peek)) {}

// An event's payload: its kind, its numbers, the bytes the checker reads; a collective's call.
void MpiTraceLog::message(Kind kind, int rank, int other, int ctx, int tag, uint32_t seq,
                          uint32_t bytes) {
  log_.add([&](ByteWriter& w) {
    w.put(kind);
    for (int v : {rank, other, ctx, tag}) w.put(v);
    w.put(seq);
    w.put(bytes);
  });
}

void MpiTraceLog::sent(int rank, int dest, int ctx, int tag, uint32_t seq, uint32_t bytes) {
  message(Kind::Sent, rank, dest, ctx, tag, seq, bytes);
}

void MpiTraceLog::matched(int rank, int src, int ctx, int tag, uint32_t seq, uint32_t bytes) {
  message(Kind::Matched, rank, src, ctx, tag, seq, bytes);
}

void MpiTraceLog::received(int rank, int src, int ctx, int tag, uint32_t seq, uint32_t bytes) {
  message(Kind::Received, rank, src, ctx, tag, seq, bytes);
}

void MpiTraceLog::collective(Kind kind, int rank, const mpi::CollectiveCall& c) {
  const auto& g = c.group;
  const int r =
      g.empty() ? rank : static_cast<int>(std::find(g.begin(), g.end(), rank) - g.begin());
  const size_t p = g.empty() ? static_cast<size_t>(ranks_) : g.size();
  std::vector<uint8_t> data;
  if (static_cast<size_t>(r) < p) {  // a rank outside the group: the checker reads nothing
    const MpiChecker::Span s = MpiChecker::reads(c, r, p, kind == Kind::End);
    data.resize(s.len);
    if (s.len > 0) peek_(rank, s.addr, data.data(), s.len);
  }
  // The checker never calls a user's operator: the call travels without it.
  log_.add([&](ByteWriter& w) {
    w.put(kind);
    w.put(rank);
    w.put_vector(data);
    w.put(c.kind);
    w.put(c.call);
    w.put(c.comm);
    w.put_vector(c.group);
    w.put(c.root);
    w.put(c.op);
    w.put(c.type);
    w.put(c.send);
    w.put(c.recv);
    w.put(c.bytes);
    for (const auto* v : {&c.send_counts, &c.send_displs, &c.recv_counts, &c.recv_displs}) {
      w.put_vector(*v);
    }
    w.put(c.nonblocking);
  });
}

void MpiTraceLog::collective_begin(int rank, const mpi::CollectiveCall& call) {
  collective(Kind::Begin, rank, call);
}

void MpiTraceLog::collective_end(int rank, const mpi::CollectiveCall& call) {
  collective(Kind::End, rank, call);
}

void MpiTraceLog::replay(const std::vector<Bytes>& by_partition, MpiChecker& checker) {
  log_.replay(by_partition, [&](uint64_t, ByteReader& r) {
    const auto kind = r.get<Kind>();
    if (kind != Kind::Begin && kind != Kind::End) {
      int v[4];
      for (int& x : v) x = r.get<int>();
      const auto seq = r.get<uint32_t>();
      const auto bytes = r.get<uint32_t>();
      const auto call = kind == Kind::Sent      ? &MpiChecker::sent
                        : kind == Kind::Matched ? &MpiChecker::matched
                                                : &MpiChecker::received;
      (checker.*call)(v[0], v[1], v[2], v[3], seq, bytes);
      return;
    }
    const int rank = r.get<int>();
    const std::vector<uint8_t> data = r.get_vector<uint8_t>();
    mpi::CollectiveCall c;
    c.kind = r.get<Collective>();
    c.call = r.get<uint64_t>();
    c.comm = r.get<int>();
    c.group = r.get_vector<int>();
    c.root = r.get<int>();
    c.op = r.get<mpi::Op>();
    c.type = r.get<mpi::Datatype>();
    c.send = r.get<uint64_t>();
    c.recv = r.get<uint64_t>();
    c.bytes = r.get<uint32_t>();
    for (auto* v : {&c.send_counts, &c.send_displs, &c.recv_counts, &c.recv_displs}) {
      *v = r.get_vector<uint32_t>();
    }
    c.nonblocking = r.get<bool>();
    replaying_ = &data;
    if (kind == Kind::Begin) {
      checker.collective_begin(rank, c);
    } else {
      checker.collective_end(rank, c);
    }
    replaying_ = nullptr;
  });
}

void MpiTraceLog::replay_peek(void* dst, size_t len) const {
  if (!replaying_ || replaying_->size() != len) {
    throw std::logic_error("MPI trace log: the checker read bytes the event did not record");
  }
  std::memcpy(dst, replaying_->data(), len);
}

}  // namespace hs::checkers
