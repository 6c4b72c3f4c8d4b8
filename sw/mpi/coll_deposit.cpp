// Broadcasts by line deposits (the torus deposit bit, sw/dcmf/messenger.h): one direct put
// along a torus line lands at every node it passes, so a line of N nodes takes the data once
// per direction instead of log2(N) rounds. A torus ring is covered by two deposits leaving the
// source in opposite directions (N/2 hops one way, the rest the other), side by side on two
// injection FIFOs; a mesh line by one towards each end.
//
// deposit_line: the ranks fill one whole torus line. deposit_rectangle: they fill a whole
// plane or box (every node of the dimensions they span); the root deposits along the first of
// those dimensions, every node of that line along the second, every node of that plane along
// the third. Pipelined in segments of mpi.pipeline_bytes: a node passes a segment on along its
// own lines as soon as its counter shows the segment has landed (one lane's packets arrive in
// order, so what has landed is a prefix), each line direction on its own injection FIFO. Both need
// one rank per node, all of one local index (so one reception counter number serves the whole
// line), and buffers at the same address modulo 16.
//
// Before a deposit, each receiver arms its deposit counter for its buffer and tells its
// depositor so with a 4-byte message carrying its buffer's address modulo 16 (checked against
// the depositor's): nothing lands before a counter is armed for it.
#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <vector>

#include "sw/mpi/coll_algorithms.h"

namespace hs::fw::mpi {

namespace {

using hs::torus::Coord;
using hs::torus::TorusShape;

// The communicator's ranks: `group` lists their world ranks (empty: the world's, all of them).
struct Members {
  const RankMap& map;
  const std::vector<int>& group;
  int size() const { return group.empty() ? map.size() : static_cast<int>(group.size()); }
  const RankPlace& place(int r) const {
    return map.place(group.empty() ? r : group[static_cast<size_t>(r)]);
  }
};

// The dimensions the ranks span (x first) if they fill, one per node and all of one local
// index, every node of those dimensions, and at most `max_dims` of them; else why not.
// `nodes` maps each node to its rank.
bool filled_dims(const TorusShape& s, const Members& m, int max_dims, std::vector<int>& dims,
                 std::map<int, int>& nodes, std::string& why) {
  dims.clear();
  nodes.clear();
  const Coord first = s.coord(m.place(0).node);
  bool differs[3] = {false, false, false};
  for (int r = 0; r < m.size(); ++r) {
    const RankPlace& p = m.place(r);
    if (p.t != m.place(0).t) {
      why = fmt::format(
          "rank {} runs on core {} of its node, rank 0 on core {}: deposits need "
          "one rank per node, all on the same core (SMP mode)",
          r, p.t, m.place(0).t);
      return false;
    }
    if (!nodes.emplace(p.node, r).second) {
      why = fmt::format("ranks {} and {} share node {}: deposits need one rank per node (SMP mode)",
                        nodes[p.node], r, s.name(p.node));
      return false;
    }
    const Coord c = s.coord(p.node);
    for (int d = 0; d < 3; ++d) differs[d] = differs[d] || c.v[d] != first.v[d];
  }
  size_t full = 1;
  for (int d = 0; d < 3; ++d) {
    if (!differs[d]) continue;
    dims.push_back(d);
    full *= static_cast<size_t>(s.size(d));
  }
  if (nodes.size() != full) {
    why = fmt::format(
        "the {} ranks do not fill every node of the torus dimensions they span "
        "({} nodes)",
        m.size(), full);
    return false;
  }
  if (static_cast<int>(dims.size()) > max_dims) {
    why = fmt::format("the ranks span {} torus dimensions; a line has one", dims.size());
    return false;
  }
  return true;
}

// Sends the depositor of this rank's line (communicator rank `depositor`) the note that its
// counter is armed.
void announce_armed(CollContext& c, int depositor) {
  c.comm.messenger().arm_deposit(c.call.recv, c.call.bytes);
  const uint64_t note = c.scratch(16);
  c.comm.hal().store(note, static_cast<uint32_t>(c.call.recv & 15));
  c.send(note, 4, depositor);
}

// The far end of this rank's line along dimension `d` in direction `sign`, and the hops to it:
// a ring splits in two (a tie half way round goes +), a mesh line runs to its ends.
int line_end(const TorusShape& s, int node, int d, int sign, int& hops) {
  const int n = s.size(d);
  Coord end = s.coord(node);
  hops = s.wrap() ? (sign > 0 ? n / 2 : n - 1 - n / 2) : (sign > 0 ? n - 1 - end.v[d] : end.v[d]);
  end.v[d] = ((end.v[d] + sign * hops) % n + n) % n;
  return s.node(end);
}

// Waits for every receiver of this rank's line along `d` to announce its armed counter, and
// checks their buffers' alignment against this rank's.
void collect_armed(CollContext& c, const TorusShape& s, const std::map<int, int>& rank_at, int node,
                   int d) {
  const Coord me = s.coord(node);
  const uint64_t note = c.scratch(16);
  for (int k = 1; k < s.size(d); ++k) {
    Coord other = me;
    other.v[d] = (me.v[d] + k) % s.size(d);
    const int r = rank_at.at(s.node(other));
    c.recv(note, 4, r);
    const auto rem = c.comm.hal().load<uint32_t>(note);
    if (rem != (c.call.recv & 15)) {
      c.comm.hal().fail(fmt::format(
          "bcast deposit: rank {}'s buffer is {} B past a 16-byte boundary, rank {}'s {} B: "
          "deposits need every buffer at the same address modulo 16",
          r, rem, c.rank, c.call.recv & 15));
    }
  }
}

void bcast_deposit(CollContext& c, int max_dims) {
  if (c.call.bytes == 0) return;
  dcmf::Messenger& msg = c.comm.messenger();
  const TorusShape& s = msg.shape();
  const Members m{c.comm.map(), c.comm.group()};
  std::vector<int> dims;
  std::map<int, int> rank_at;  // node -> communicator rank
  std::string why;
  if (!filled_dims(s, m, max_dims, dims, rank_at, why)) c.comm.hal().fail("bcast deposit: " + why);
  const int node = m.place(c.rank).node, t = m.place(c.rank).t;
  const int rpn = c.comm.map().ranks_per_node();
  const Coord root = s.coord(m.place(c.call.root).node);
  const Coord me = s.coord(node);
  // The phase in which this rank receives: the last spanned dimension it differs from the
  // root in (-1: the root). Its depositor is the node of its line in that dimension that
  // shares the root's coordinate; it deposits along every later dimension.
  int phase = -1;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (me.v[dims[k]] != root.v[dims[k]]) phase = static_cast<int>(k);
  }
  if (phase >= 0) {
    Coord from = me;
    from.v[dims[static_cast<size_t>(phase)]] = root.v[dims[static_cast<size_t>(phase)]];
    announce_armed(c, rank_at.at(s.node(from)));
  }
  struct Lane {
    int dest, lane;
  };
  std::vector<Lane> lanes;
  for (size_t k = static_cast<size_t>(phase + 1); k < dims.size(); ++k) {
    collect_armed(c, s, rank_at, node, dims[k]);
    for (int sign : {1, -1}) {
      int hops = 0;
      const int end = line_end(s, node, dims[k], sign, hops);
      if (hops > 0) lanes.push_back({end * rpn + t, 2 * dims[k] + (sign < 0)});
    }
  }
  // Pipelined: each segment goes on along this rank's lines as soon as it has landed here.
  const uint32_t seg = std::max<uint32_t>(1, c.comm.config().pipeline_bytes);
  const uint32_t align = static_cast<uint32_t>(c.call.recv & 15);
  std::vector<int> sends;
  for (uint32_t off = 0; off < c.call.bytes && !lanes.empty(); off += seg) {
    const uint32_t n = std::min(seg, c.call.bytes - off);
    if (phase >= 0) msg.wait_deposited(off + n);
    for (const Lane& l : lanes) {
      sends.push_back(msg.send_deposit(l.dest, c.call.recv + off, n, align + off, l.lane));
    }
  }
  if (phase >= 0) msg.wait_deposit();
  for (int h : sends) msg.wait_send(h);
}

}  // namespace

bool deposit_line_fits(const TorusShape& shape, const RankMap& map, const std::vector<int>& group,
                       std::string& why) {
  std::vector<int> dims;
  std::map<int, int> nodes;
  return filled_dims(shape, Members{map, group}, 1, dims, nodes, why);
}

bool deposit_rectangle_fits(const TorusShape& shape, const RankMap& map,
                            const std::vector<int>& group, std::string& why) {
  std::vector<int> dims;
  std::map<int, int> nodes;
  return filled_dims(shape, Members{map, group}, 3, dims, nodes, why);
}

void bcast_deposit_line(CollContext& c) {
  bcast_deposit(c, 1);
}

void bcast_deposit_rectangle(CollContext& c) {
  bcast_deposit(c, 3);
}

}  // namespace hs::fw::mpi
