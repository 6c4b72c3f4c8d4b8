#include "testbench/runner/program/program_check.h"

#include <fmt/format.h>
#include <algorithm>
#include <limits>
#include <map>
#include <queue>
#include <tuple>
#include <vector>

#include "tlm/common/errors.h"

namespace hs::runner::program {

namespace fp = hs::fw::program;
using fp::Pos;

namespace {

struct Message {
  int peer, tag;  // receives: fp::kAny for a wildcard
  uint32_t bytes;
  Pos pos;
};

struct Call {
  fp::CollectiveOp op;
  bool operator==(const Call& o) const {
    return op.kind == o.op.kind && op.root == o.op.root && op.bytes == o.op.bytes &&
           op.op == o.op.op && op.type == o.op.type;
  }
};

std::string describe(const fp::CollectiveOp& c) {
  using fw::mpi::Collective;
  std::string s = fw::mpi::collective_name(c.kind);
  if (c.kind == Collective::Bcast || c.kind == Collective::Reduce)
    s += fmt::format(" root {}", c.root);
  if (c.kind != Collective::Barrier) s += fmt::format(" of {} B", c.bytes);
  if (c.kind == Collective::Reduce || c.kind == Collective::Allreduce) {
    s += fmt::format(" ({} {})", fw::mpi::op_name(c.op), fw::mpi::datatype_name(c.type));
  }
  return s;
}

// One rank's operations, recorded.
class Recorder : public fp::Actions {
 public:
  std::vector<Message> sends, recvs;
  std::vector<Call> calls;
  void compute(uint64_t) override {}
  void send(const fp::Transfer& t) override { sends.push_back({t.peer, t.tag, t.bytes, t.pos}); }
  void recv(const fp::Transfer& t) override { recvs.push_back({t.peer, t.tag, t.bytes, t.pos}); }
  void sendrecv(const fp::Transfer& s, const fp::Transfer& r) override {
    send(s);
    recv(r);
  }
  int isend(const fp::Transfer& t) override {
    send(t);
    return 0;
  }
  int irecv(const fp::Transfer& t) override {
    recv(t);
    return 0;
  }
  void wait(const std::vector<std::pair<int, fp::Transfer>>&) override {}
  void collective(const fp::CollectiveOp& c) override { calls.push_back({c}); }
};

// Maximum flow (Dinic) on a small graph: send classes to the receive classes accepting them.
class Flow {
 public:
  explicit Flow(int nodes) : adj_(static_cast<size_t>(nodes)) {}
  int edge(int a, int b, int64_t cap) {
    adj_[static_cast<size_t>(a)].push_back(static_cast<int>(e_.size()));
    e_.push_back({b, cap});
    adj_[static_cast<size_t>(b)].push_back(static_cast<int>(e_.size()));
    e_.push_back({a, 0});
    return static_cast<int>(e_.size()) - 2;
  }
  int64_t flow_on(int edge) const { return e_[static_cast<size_t>(edge) ^ 1].cap; }
  int64_t run(int s, int t) {
    int64_t total = 0;
    while (levels(s, t)) {
      next_.assign(adj_.size(), 0);
      while (int64_t f = push(s, t, std::numeric_limits<int64_t>::max())) total += f;
    }
    return total;
  }

 private:
  struct E {
    int to;
    int64_t cap;
  };
  bool levels(int s, int t) {
    level_.assign(adj_.size(), -1);
    std::queue<int> q;
    level_[static_cast<size_t>(s)] = 0;
    q.push(s);
    while (!q.empty()) {
      const int v = q.front();
      q.pop();
      for (int id : adj_[static_cast<size_t>(v)]) {
        const E& e = e_[static_cast<size_t>(id)];
        if (e.cap > 0 && level_[static_cast<size_t>(e.to)] < 0) {
          level_[static_cast<size_t>(e.to)] = level_[static_cast<size_t>(v)] + 1;
          q.push(e.to);
        }
      }
    }
    return level_[static_cast<size_t>(t)] >= 0;
  }
  // The graph is three layers deep, so the recursion is too.
  int64_t push(int v, int t, int64_t limit) {
    if (v == t) return limit;
    auto& list = adj_[static_cast<size_t>(v)];
    for (size_t& k = next_[static_cast<size_t>(v)]; k < list.size(); ++k) {
      E& e = e_[static_cast<size_t>(list[k])];
      if (e.cap <= 0 || level_[static_cast<size_t>(e.to)] != level_[static_cast<size_t>(v)] + 1) {
        continue;
      }
      if (int64_t f = push(e.to, t, std::min(limit, e.cap))) {
        e.cap -= f;
        e_[static_cast<size_t>(list[k]) ^ 1].cap += f;
        return f;
      }
    }
    return 0;
  }
  std::vector<std::vector<int>> adj_;
  std::vector<E> e_;
  std::vector<int> level_;
  std::vector<size_t> next_;
};

std::string plural(size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

class Checker {
 public:
  explicit Checker(const std::string& file) : file_(file) {}

  [[noreturn]] void refuse(Pos pos, int rank, const std::string& why) const {
    throw InputError(fmt::format("{}:{}:{}: rank {}: {}", file_, pos.line, pos.col, rank, why));
  }
  std::string at(Pos pos) const { return fmt::format("{}:{}", pos.line, pos.col); }

  void collectives(const std::vector<Recorder>& ranks) const {
    const auto& ref = ranks[0].calls;
    for (size_t r = 1; r < ranks.size(); ++r) {
      const auto& mine = ranks[r].calls;
      for (size_t k = 0; k < std::max(ref.size(), mine.size()); ++k) {
        if (k >= mine.size()) {
          refuse(
              ref[k].op.pos, 0,
              fmt::format("collective call {} ({}) is never made by rank {}, which makes {}", k + 1,
                          describe(ref[k].op), r, plural(mine.size(), "collective call")));
        }
        if (k >= ref.size()) {
          refuse(mine[k].op.pos, static_cast<int>(r),
                 fmt::format("collective call {} ({}) is never made by rank 0, which makes {}",
                             k + 1, describe(mine[k].op), plural(ref.size(), "collective call")));
        }
        if (!(mine[k] == ref[k])) {
          refuse(mine[k].op.pos, static_cast<int>(r),
                 fmt::format("collective call {} is {}, but rank 0's is {} (at {}): every rank "
                             "must make the same calls in the same order",
                             k + 1, describe(mine[k].op), describe(ref[k].op), at(ref[k].op.pos)));
        }
      }
    }
  }

  // Sends into rank `dst` against its receives.
  void messages(int dst, const std::vector<std::pair<int, Message>>& in,
                const std::vector<Message>& recvs) const {
    const bool wild = std::any_of(recvs.begin(), recvs.end(), [](const Message& m) {
      return m.peer == fp::kAny || m.tag == fp::kAny;
    });
    if (!wild) return exact(dst, in, recvs);
    return matched(dst, in, recvs);
  }

 private:
  using Key = std::pair<int, int>;  // (source, tag)

  void exact(int dst, const std::vector<std::pair<int, Message>>& in,
             const std::vector<Message>& recvs) const {
    std::map<Key, std::vector<const Message*>> sent, posted;
    for (const auto& [src, m] : in) sent[{src, m.tag}].push_back(&m);
    for (const auto& m : recvs) posted[{m.peer, m.tag}].push_back(&m);
    for (const auto& [key, list] : sent) {
      const auto& want = posted[key];
      if (list.size() > want.size()) {
        refuse(list[want.size()]->pos, key.first,
               fmt::format("send to rank {} with tag {} has no matching receive: rank {} sends {} "
                           "to rank {} with tag {}, which receives {} from rank {} with that tag",
                           dst, key.second, key.first, plural(list.size(), "message"), dst,
                           key.second, want.size(), key.first));
      }
      for (size_t k = 0; k < list.size(); ++k) {
        if (list[k]->bytes > want[k]->bytes) {
          refuse(list[k]->pos, key.first,
                 fmt::format("message {} to rank {} with tag {} is {} B, but the receive it "
                             "matches (at {}) has room for {} B",
                             k + 1, dst, key.second, list[k]->bytes, at(want[k]->pos),
                             want[k]->bytes));
        }
      }
    }
    for (const auto& [key, list] : posted) {
      const auto s = sent.find(key);
      const size_t n = s == sent.end() ? 0 : s->second.size();
      if (list.size() > n) {
        refuse(list[n]->pos, dst,
               fmt::format("receive from rank {} with tag {} is never matched: rank {} receives "
                           "{} from rank {} with tag {}, which sends it {}",
                           key.first, key.second, dst, plural(list.size(), "message"), key.first,
                           key.second, n));
      }
    }
  }

  // With wildcards: the most messages any matching can pair with receives.
  void matched(int dst, const std::vector<std::pair<int, Message>>& in,
               const std::vector<Message>& recvs) const {
    std::map<Key, std::vector<const Message*>> sent, posted;
    for (const auto& [src, m] : in) sent[{src, m.tag}].push_back(&m);
    for (const auto& m : recvs) posted[{m.peer, m.tag}].push_back(&m);
    const int s = 0, t = 1;
    Flow flow(2 + static_cast<int>(sent.size() + posted.size()));
    std::vector<int> send_edge, recv_edge;
    int node = 2;
    std::vector<int> send_node;
    for (const auto& [key, list] : sent) {
      send_node.push_back(node);
      send_edge.push_back(flow.edge(s, node++, static_cast<int64_t>(list.size())));
    }
    for (const auto& [rkey, rlist] : posted) {
      const int rn = node++;
      recv_edge.push_back(flow.edge(rn, t, static_cast<int64_t>(rlist.size())));
      size_t k = 0;
      for (const auto& [key, list] : sent) {
        const bool src_ok = rkey.first == fp::kAny || rkey.first == key.first;
        const bool tag_ok = rkey.second == fp::kAny || rkey.second == key.second;
        if (src_ok && tag_ok) flow.edge(send_node[k], rn, static_cast<int64_t>(list.size()));
        ++k;
      }
    }
    flow.run(s, t);
    size_t k = 0;
    for (const auto& [key, list] : sent) {
      const auto f = static_cast<size_t>(flow.flow_on(send_edge[k++]));
      if (f < list.size()) {
        refuse(
            list[f]->pos, key.first,
            fmt::format("send to rank {} with tag {} has no matching receive: rank {} sends {} "
                        "to rank {} with tag {}, and rank {}'s receives can take only {} of them",
                        dst, key.second, key.first, plural(list.size(), "message"), dst, key.second,
                        dst, f));
      }
    }
    k = 0;
    for (const auto& [key, list] : posted) {
      const auto f = static_cast<size_t>(flow.flow_on(recv_edge[k++]));
      if (f < list.size()) {
        const auto name = [](int v, const char* what) {
          return v == fp::kAny ? fmt::format("any {}", what) : fmt::format("{} {}", what, v);
        };
        refuse(list[f]->pos, dst,
               fmt::format("receive ({}, {}) is never matched: rank {} posts {} like it and only "
                           "{} messages sent to it are left for them",
                           name(key.first, "source"), name(key.second, "tag"), dst,
                           plural(list.size(), "receive"), f));
      }
    }
  }

  std::string file_;
};

}  // namespace

ProgramCensus check_program(const fp::Program& p, const fp::Layout& layout,
                            const std::string& file) {
  const int size = layout.size();
  std::vector<Recorder> ranks(static_cast<size_t>(size));
  uint64_t budget = kCheckedStatements;
  Checker check(file);
  for (int r = 0; r < size; ++r) {
    try {
      fp::RankWalk(p, layout, r, ranks[static_cast<size_t>(r)], &budget).run();
    } catch (const fp::ProgramError& e) {
      check.refuse(e.pos, r, e.what());
    }
  }
  ProgramCensus census;
  census.statements = kCheckedStatements - budget;
  check.collectives(ranks);
  std::vector<std::vector<std::pair<int, Message>>> into(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) {
    for (const auto& m : ranks[static_cast<size_t>(r)].sends) {
      into[static_cast<size_t>(m.peer)].emplace_back(r, m);
      ++census.messages;
      census.bytes += m.bytes;
    }
  }
  for (int d = 0; d < size; ++d) {
    check.messages(d, into[static_cast<size_t>(d)], ranks[static_cast<size_t>(d)].recvs);
  }
  census.collectives = ranks.empty() ? 0 : ranks[0].calls.size();
  return census;
}

}  // namespace hs::runner::program
