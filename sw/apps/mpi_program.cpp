#include "sw/apps/mpi_program.h"

#include <fmt/format.h>
#include <algorithm>

#include "sw/mpi/comm.h"

namespace hs::fw::program {

const char* builtin_name(Builtin b) {
  static const char* names[] = {"rank", "size", "x", "y", "z", "t", "X", "Y", "Z", "T"};
  return names[static_cast<int>(b)];
}

int Layout::rank_of(int64_t x, int64_t y, int64_t z, int64_t t) const {
  const auto wrap = [](int64_t v, int64_t n) { return static_cast<int>((v % n + n) % n); };
  const int node = wrap(x, dims[0]) + dims[0] * (wrap(y, dims[1]) + dims[1] * wrap(z, dims[2]));
  return rank_at[static_cast<size_t>(node * ranks_per_node + wrap(t, ranks_per_node))];
}

Env::Env(const Program& p, const Layout& layout, int rank)
    : layout_(layout), values_(static_cast<size_t>(p.slots), 0) {
  const auto& at = layout.place[static_cast<size_t>(rank)];
  const int64_t builtins[kBuiltinSlots] = {
      rank,  layout.size(),  at[0],          at[1],          at[2],
      at[3], layout.dims[0], layout.dims[1], layout.dims[2], layout.ranks_per_node};
  std::copy(builtins, builtins + kBuiltinSlots, values_.begin());
}

namespace {
int64_t arith(const Expr& e, int64_t a, int64_t b) {
  int64_t r = 0;
  const char c = e.op[0];
  bool overflow = false;
  if (c == '+') overflow = __builtin_add_overflow(a, b, &r);
  if (c == '-') overflow = __builtin_sub_overflow(a, b, &r);
  if (c == '*') overflow = __builtin_mul_overflow(a, b, &r);
  if (c == '/' || c == '%') {
    if (b == 0) throw ProgramError(e.pos, fmt::format("division by zero ({} {} 0)", a, e.op));
    overflow = a == INT64_MIN && b == -1;
    if (!overflow) r = c == '/' ? a / b : a % b;
  }
  if (overflow) throw ProgramError(e.pos, fmt::format("integer overflow in {} {} {}", a, e.op, b));
  return r;
}
}  // namespace

int64_t Env::eval(const Expr& e) const {
  switch (e.kind) {
    case Expr::Number:
      return e.value;
    case Expr::Variable:
      return values_[static_cast<size_t>(e.slot)];
    case Expr::Unary: {
      const int64_t v = eval(e.args[0]);
      if (e.op == "!") return v == 0;
      if (v == INT64_MIN) throw ProgramError(e.pos, "integer overflow in negation");
      return -v;
    }
    case Expr::Binary: {
      const int64_t a = eval(e.args[0]);
      if (e.op == "&&") return a != 0 && eval(e.args[1]) != 0;
      if (e.op == "||") return a != 0 || eval(e.args[1]) != 0;
      const int64_t b = eval(e.args[1]);
      if (e.op == "==") return a == b;
      if (e.op == "!=") return a != b;
      if (e.op == "<") return a < b;
      if (e.op == "<=") return a <= b;
      if (e.op == ">") return a > b;
      if (e.op == ">=") return a >= b;
      return arith(e, a, b);
    }
    case Expr::Call: {
      std::vector<int64_t> v;
      for (const auto& a : e.args) v.push_back(eval(a));
      switch (e.func) {
        case Func::Coord:
          return layout_.rank_of(v[0], v[1], v[2], v.size() > 3 ? v[3] : values_[5]);
        case Func::Min:
          return std::min(v[0], v[1]);
        case Func::Max:
          return std::max(v[0], v[1]);
        case Func::Abs:
          if (v[0] == INT64_MIN) throw ProgramError(e.pos, "integer overflow in abs");
          return v[0] < 0 ? -v[0] : v[0];
      }
    }
  }
  throw ProgramError(e.pos, "unknown expression");
}

uint64_t BufferPool::take(uint64_t bytes, Pos pos) {
  const uint64_t need = std::max<uint64_t>(64, (bytes + 63) / 64 * 64);  // cache-line aligned
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const uint64_t at = it->first, left = it->second - need;
    free_.erase(it);
    if (left) free_[at + need] = left;
    used_[at] = need;
    return at;
  }
  throw ProgramError(pos, fmt::format("a buffer of {} B does not fit in the rank's {} MiB of "
                                      "application memory beside the buffers in use (requests "
                                      "not yet waited for, a collective's other buffer)",
                                      bytes, capacity_ >> 20));
}

void BufferPool::give(uint64_t offset) {
  auto u = used_.find(offset);
  if (u == used_.end()) return;
  uint64_t at = offset, len = u->second;
  used_.erase(u);
  // Merge with the free neighbours on both sides.
  auto next = free_.lower_bound(at);
  if (next != free_.end() && next->first == at + len) {
    len += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == at) {
      prev->second += len;
      return;
    }
  }
  free_[at] = len;
}

uint8_t payload_byte(int src, int dst, int tag, uint32_t k, uint32_t i) {
  const uint32_t h = static_cast<uint32_t>(src) * 73856093u ^
                     static_cast<uint32_t>(dst) * 19349663u ^
                     static_cast<uint32_t>(tag) * 83492791u ^ k * 2246822519u ^ i * 2654435761u;
  return static_cast<uint8_t>(h >> 24 ^ h);
}

RankWalk::RankWalk(const Program& p, const Layout& layout, int rank, Actions& actions,
                   uint64_t* budget)
    : program_(p),
      env_(p, layout, rank),
      rank_(rank),
      actions_(actions),
      budget_(budget),
      pool_(mpi::kRankScratch) {}

bool RankWalk::selects(const Selector& sel) {
  switch (sel.kind) {
    case Selector::All:
      return true;
    case Selector::Even:
      return rank_ % 2 == 0;
    case Selector::Odd:
      return rank_ % 2 == 1;
    case Selector::Condition:
      return env_.eval(sel.condition) != 0;
    case Selector::List: {
      // A range outside the job is a mistake, never an empty group (the check runs every rank's
      // walk, so it is refused before the run).
      const int64_t last = env_.layout().size() - 1;
      bool hit = false;
      for (const auto& [lo, hi] : sel.ranges) {
        const int64_t a = env_.eval(lo), b = env_.eval(hi);
        if (a > b) {
          throw ProgramError(lo.pos, fmt::format("rank range {}..{} is empty", a, b));
        }
        if (a < 0 || b > last) {
          throw ProgramError(lo.pos, fmt::format("{} is outside the job, whose ranks are 0..{}",
                                                 a == b ? fmt::format("rank {}", a)
                                                        : fmt::format("rank range {}..{}", a, b),
                                                 last));
        }
        hit |= a <= rank_ && rank_ <= b;
      }
      return hit;
    }
  }
  return false;
}

void RankWalk::run() {
  for (const auto& g : program_.groups) {
    if (selects(g.ranks)) block(g.body, true);
  }
  if (!outstanding_.empty()) {
    const auto& o = outstanding_.at(order_.front());
    throw ProgramError(o.transfer.pos, fmt::format("request '{}' is never waited for (every "
                                                   "request needs a wait or waitall)",
                                                   order_.front()));
  }
}

void RankWalk::block(const std::vector<Stmt>& body, bool top) {
  for (const auto& s : body) statement(s, top);
}

int64_t RankWalk::operand(const Expr& e, int64_t lo, int64_t hi, const char* what, Pos pos) {
  const int64_t v = env_.eval(e);
  if (v < lo || v > hi) {
    throw ProgramError(e.kind == Expr::Number ? pos : e.pos,
                       fmt::format("{} is {}{}: it must be {}..{}", what, v,
                                   v < 0 && lo == 0 ? " (negative)" : "", lo, hi));
  }
  return v;
}

Transfer RankWalk::transfer(const Stmt& s, size_t peer_arg, size_t bytes_arg, bool receive) {
  Transfer t;
  t.pos = s.pos;
  const int last = env_.layout().size() - 1;
  if (receive && s.any_source) {
    t.peer = kAny;
  } else {
    t.peer = static_cast<int>(operand(s.args[peer_arg], 0, last,
                                      receive ? "the source rank" : "the destination rank", s.pos));
  }
  t.bytes = static_cast<uint32_t>(
      operand(s.args[bytes_arg], 0, kMaxMessageBytes, "the message size (bytes)", s.pos));
  if (receive && s.any_tag) {
    t.tag = kAny;
  } else if (s.has_tag) {
    t.tag = static_cast<int>(operand(s.args.back(), 0, kMaxTag, "the tag", s.pos));
  }
  t.buf = pool_.take(t.bytes, s.pos);
  return t;
}

void RankWalk::start(const Stmt& s, bool send) {
  if (outstanding_.count(s.request)) {
    throw ProgramError(s.pos, fmt::format("request '{}' is still outstanding: wait for it before "
                                          "reusing its name",
                                          s.request));
  }
  if (outstanding_.size() >= kMaxOutstanding) {
    throw ProgramError(s.pos, fmt::format("more than {} requests outstanding", kMaxOutstanding));
  }
  const Transfer t = transfer(s, 0, 1, !send);
  const int h = send ? actions_.isend(t) : actions_.irecv(t);
  outstanding_[s.request] = {h, t, send};
  order_.push_back(s.request);
}

void RankWalk::finish(const std::vector<std::string>& names, Pos pos) {
  std::vector<std::string> done = names.empty() ? order_ : names;
  std::vector<std::pair<int, Transfer>> requests;
  for (const auto& n : done) {
    auto it = outstanding_.find(n);
    if (it == outstanding_.end()) {
      throw ProgramError(pos, fmt::format("no outstanding request '{}' to wait for", n));
    }
    requests.emplace_back(it->second.handle, it->second.transfer);
    outstanding_.erase(it);
    order_.erase(std::find(order_.begin(), order_.end(), n));
  }
  actions_.wait(requests);
  for (const auto& r : requests) pool_.give(r.second.buf);
}

void RankWalk::collective(const Stmt& s, mpi::Collective kind) {
  using mpi::Collective;
  CollectiveOp c;
  c.kind = kind;
  c.pos = s.pos;
  c.op = s.reduce_op;
  c.type = s.type;
  const int size = env_.layout().size();
  size_t arg = 0;
  if (kind == Collective::Bcast || kind == Collective::Reduce) {
    c.root = static_cast<int>(operand(s.args[arg++], 0, size - 1, "the root rank", s.pos));
  }
  if (kind != Collective::Barrier) {
    c.bytes = static_cast<uint32_t>(
        operand(s.args[arg], 0, kMaxMessageBytes, "the message size (bytes)", s.pos));
  }
  if ((kind == Collective::Reduce || kind == Collective::Allreduce) && c.bytes % 8 != 0) {
    throw ProgramError(s.pos, fmt::format("{} of {} B: reductions work on 8-byte elements, so "
                                          "the size must be a multiple of 8",
                                          mpi::collective_name(kind), c.bytes));
  }
  const bool blocks = kind == Collective::Allgather || kind == Collective::Alltoall;
  const uint64_t in = kind == Collective::Alltoall ? uint64_t{c.bytes} * size : c.bytes;
  const uint64_t out = blocks ? uint64_t{c.bytes} * size : c.bytes;
  c.send = pool_.take(in, s.pos);
  c.recv = pool_.take(out, s.pos);
  actions_.collective(c);
  pool_.give(c.recv);
  pool_.give(c.send);
}

void RankWalk::statement(const Stmt& s, bool top) {
  if (budget_) {
    if (*budget_ == 0) {
      throw ProgramError(s.pos,
                         "the program runs too many statements over all ranks to be "
                         "checked before the run (fewer ranks or loop iterations)");
    }
    --*budget_;
  }
  using mpi::Collective;
  // Ends the statement's span however it ends (a ProgramError included).
  struct Span {
    Actions& actions;
    bool open;
    ~Span() {
      if (open) actions.statement_end();
    }
  } span{actions_, s.op != Op::Loop && s.op != Op::If && s.op != Op::Let};
  if (span.open) actions_.statement_begin(s);
  switch (s.op) {
    case Op::Compute:
      actions_.compute(
          static_cast<uint64_t>(operand(s.args[0], 0, kMaxComputeCycles, "compute cycles", s.pos)));
      return;
    case Op::Send:
    case Op::Recv: {
      const Transfer t = transfer(s, 0, 1, s.op == Op::Recv);
      s.op == Op::Send ? actions_.send(t) : actions_.recv(t);
      pool_.give(t.buf);
      return;
    }
    case Op::Sendrecv: {
      const Transfer snd = transfer(s, 0, 1, false);
      const Transfer rcv = transfer(s, 2, 3, true);
      actions_.sendrecv(snd, rcv);
      pool_.give(rcv.buf);
      pool_.give(snd.buf);
      return;
    }
    case Op::Isend:
    case Op::Irecv:
      start(s, s.op == Op::Isend);
      return;
    case Op::Wait:
      finish({s.request}, s.pos);
      return;
    case Op::Waitall:
      finish(s.requests, s.pos);
      return;
    case Op::Barrier:
      return collective(s, Collective::Barrier);
    case Op::Bcast:
      return collective(s, Collective::Bcast);
    case Op::Reduce:
      return collective(s, Collective::Reduce);
    case Op::Allreduce:
      return collective(s, Collective::Allreduce);
    case Op::Allgather:
      return collective(s, Collective::Allgather);
    case Op::Alltoall:
      return collective(s, Collective::Alltoall);
    case Op::Loop: {
      const int64_t n = operand(s.args[0], 0, kMaxLoopCount, "the loop count", s.pos);
      // Only the rank's first loop at the top of a group is timed.
      const bool timed = top && !timed_loop_seen_;
      timed_loop_seen_ = timed_loop_seen_ || top;
      for (int64_t i = 0; i < n; ++i) {
        env_.set(s.slot, i);
        if (timed) actions_.iteration_begin();
        block(s.body, false);
        if (timed) actions_.iteration_end();
      }
      return;
    }
    case Op::If:
      block(env_.eval(s.args[0]) != 0 ? s.body : s.else_body, top);
      return;
    case Op::Let:
      env_.set(s.slot, env_.eval(s.args[0]));
      return;
  }
}

}  // namespace hs::fw::program
