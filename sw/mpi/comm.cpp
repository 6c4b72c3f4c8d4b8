#include "sw/mpi/comm.h"

#include <fmt/format.h>
#include <algorithm>

namespace hs::fw::mpi {

namespace {
dcmf::MessengerConfig for_rank(dcmf::MessengerConfig m, const RankMap& map, int rank) {
  m.endpoints_per_node = map.ranks_per_node();
  m.local = map.place(rank).t;
  return m;
}
}  // namespace

Comm::Comm(Hal& hal, const MpiConfig& cfg, const hs::torus::TorusShape& shape, const RankMap& map,
           int rank, MpiTrace* trace)
    : hal_(hal),
      cfg_(cfg),
      map_(map),
      rank_(rank),
      trace_(trace ? trace : &no_trace_),
      world_(this),
      messenger_(std::make_unique<dcmf::Messenger>(hal, for_rank(cfg.messenger, map, rank), shape,
                                                   map.place(rank).node)),
      sink_(rank_memory(map.place(rank).t) + kRankWindow - 64) {}

Comm::Comm(Comm& parent, const std::vector<int>& group, int rank, int id)
    : hal_(parent.hal_),
      cfg_(parent.cfg_),
      map_(parent.map_),
      rank_(rank),
      trace_(parent.trace_),
      world_(parent.world_),
      id_(id),
      sink_(parent.sink_) {
  for (int r : group) group_.push_back(parent.world_rank(r));
}

int Comm::allocate_comm_id() {
  if (world_->next_comm_id_ >= kMaxComms) {
    hal_.fail(fmt::format("rank {}: a split would make communicator {}; the layer has {}",
                          world_->rank_, world_->next_comm_id_, kMaxComms));
  }
  return world_->next_comm_id_++;
}

int Comm::to_world(int r) const {
  if (r < 0 || r >= size()) {
    hal_.fail(fmt::format("communicator {}: rank {} is outside 0..{}", id_, r, size() - 1));
  }
  return group_[static_cast<size_t>(r)];
}

int Comm::world_tag(int tag, int ctx) const {
  if (ctx == kCollective) return tag;  // already the communicator's (collective_tag)
  if (tag < 0 || tag > kSubTagUpperBound) {
    hal_.fail(fmt::format("communicator {}: tag {}: a sub-communicator's tags are 0..{}", id_, tag,
                          kSubTagUpperBound));
  }
  return comm_tag(id_, true, static_cast<uint64_t>(tag));
}

Status Comm::from_world(Status s) const {
  if (s.source >= 0) {
    s.source = static_cast<int>(std::find(group_.begin(), group_.end(), s.source) - group_.begin());
  }
  if (s.tag >= 0) s.tag &= kSubTagUpperBound;
  return s;
}

Status Comm::counted(Status s) {
  if (s.source >= 0) {  // a receive's
    ++counts_.messages_received;
    counts_.bytes_received += s.bytes;
  }
  return s;
}

void Comm::init() {
  messenger_->init();
  messenger_->on_new_message(
      [this](int src, uint32_t word, uint32_t length) { on_new_message(src, word, length); });
}

dcmf::Protocol Comm::protocol_for(uint32_t bytes) const {
  if (bytes <= cfg_.eager_limit) return dcmf::Protocol::Eager;
  return bytes <= cfg_.split_limit ? dcmf::Protocol::Split : dcmf::Protocol::Rendezvous;
}

Request Comm::isend(uint64_t buf, uint32_t bytes, int dest, int tag, int ctx) {
  if (world_ != this) {
    const Request r = world_->isend(buf, bytes, to_world(dest), world_tag(tag, ctx), kCollective);
    ++counts_.messages_sent;
    counts_.bytes_sent += bytes;
    return r;
  }
  if (dest < 0 || dest >= size()) hal_.fail(fmt::format("send to rank {}: no such rank", dest));
  if (tag < 0 || tag > kTagUpperBound) {
    hal_.fail(fmt::format("send with tag {}: tags are 0..{}", tag, kTagUpperBound));
  }
  hal_.compute(cfg_.match_cycles);
  uint32_t& seq = next_seq_[dest];
  const uint32_t word = pack_envelope(bytes == 0, ctx, tag, seq);
  trace_->sent(rank_, dest, ctx, tag, seq, bytes);
  seq = (seq + 1) % kSeqModulus;
  // The layer below sends at least a byte: an empty message carries one the receiver drops.
  const uint32_t wire = bytes == 0 ? 1 : bytes;
  const int id = next_id_++;
  Pending& p = pending_[id];
  p.send = true;
  if (hal_.tracing()) {
    hal_.protocol_begin("mpi send", trace_key(id),
                        {{"dest", dest},
                         {"tag", tag},
                         {"bytes", bytes},
                         {"protocol", dcmf::protocol_name(protocol_for(wire))}});
  }
  p.handle = messenger_->send(map_.endpoint(dest), bytes == 0 ? sink_ : buf, wire,
                              protocol_for(wire), word);
  ++counts_.messages_sent;
  counts_.bytes_sent += bytes;
  return {id};
}

Request Comm::irecv(uint64_t buf, uint32_t bytes, int src, int tag, int ctx) {
  if (world_ != this) {
    if (src == kAnySource || tag == kAnyTag) {
      hal_.fail(
          fmt::format("communicator {}: a sub-communicator's receives name their source "
                      "and tag",
                      id_));
    }
    return world_->irecv(buf, bytes, to_world(src), world_tag(tag, ctx), kCollective);
  }
  if (src != kAnySource && (src < 0 || src >= size())) {
    hal_.fail(fmt::format("receive from rank {}: no such rank", src));
  }
  if (tag != kAnyTag && (tag < 0 || tag > kTagUpperBound)) {
    hal_.fail(fmt::format("receive with tag {}: tags are 0..{}", tag, kTagUpperBound));
  }
  hal_.compute(cfg_.match_cycles);
  const int id = next_id_++;
  Pending& p = pending_[id];
  p.buf = buf;
  p.capacity = bytes;
  if (hal_.tracing()) {
    hal_.protocol_begin("mpi recv", trace_key(id),
                        {{"source", src}, {"tag", tag}, {"capacity", bytes}});
  }
  if (auto e = matcher_.post(id, src, ctx, tag)) {
    ++counts_.unexpected;
    bind(id, *e);
  }
  return {id};
}

void Comm::on_new_message(int src_endpoint, uint32_t word, uint32_t length) {
  hal_.compute(cfg_.match_cycles);
  const Envelope e = unpack_envelope(map_.rank_of_endpoint(src_endpoint), word, length);
  for (const auto& m : matcher_.arrive(e)) {
    if (m.recv >= 0) bind(m.recv, m.msg);
  }
}

void Comm::bind(int id, const Envelope& e) {
  Pending& p = pending_.at(id);
  if (e.bytes > p.capacity) {
    hal_.fail(
        fmt::format("rank {}: message from rank {} tag {} is {} B; the receive has room "
                    "for {} B",
                    rank_, e.src, e.tag, e.bytes, p.capacity));
  }
  p.msg = e;
  p.matched = true;
  trace_->matched(rank_, e.src, e.ctx, e.tag, e.seq, e.bytes);
  const uint32_t word = pack_envelope(e.empty, e.ctx, e.tag, e.seq);
  p.handle = messenger_->post_recv(map_.endpoint(e.src), word, e.empty ? sink_ : p.buf,
                                   e.empty ? 1 : e.bytes);
}

Status Comm::finish(int id) {
  const Pending& p = pending_.at(id);
  Status s;
  if (!p.send) {
    s = {p.msg.src, p.msg.tag, p.msg.bytes};
    trace_->received(rank_, p.msg.src, p.msg.ctx, p.msg.tag, p.msg.seq, p.msg.bytes);
    ++counts_.messages_received;
    counts_.bytes_received += p.msg.bytes;
    hal_.protocol_end(trace_key(id),
                      {{"from", s.source}, {"matched_tag", s.tag}, {"bytes", s.bytes}});
  } else {
    hal_.protocol_end(trace_key(id), {});
  }
  pending_.erase(id);
  return s;
}

Status Comm::wait(Request& r) {
  if (world_ != this) return counted(from_world(world_->wait(r)));
  auto it = pending_.find(r.id);
  if (it == pending_.end()) hal_.fail(fmt::format("wait on request {}: no such request", r.id));
  Pending& p = it->second;
  Phase phase(hal_, "mpi wait");  // the rank's time blocked on communication
  if (p.send) {
    messenger_->wait_send(p.handle);
  } else {
    while (!p.matched) {
      messenger_->progress();
      if (!p.matched) messenger_->idle();
    }
    messenger_->wait_recv(p.handle);
  }
  const Status s = finish(r.id);
  r.id = -1;
  return s;
}

bool Comm::test(Request& r, Status* status) {
  if (world_ != this) {
    Status s;
    if (!world_->test(r, &s)) return false;
    s = counted(from_world(s));
    if (status) *status = s;
    return true;
  }
  auto it = pending_.find(r.id);
  if (it == pending_.end()) hal_.fail(fmt::format("test on request {}: no such request", r.id));
  Pending& p = it->second;
  bool done;
  if (p.send) {
    done = messenger_->test_send(p.handle);
  } else {
    if (!p.matched) messenger_->progress();
    done = p.matched && messenger_->test_recv(p.handle);
  }
  if (!done) return false;
  const Status s = finish(r.id);
  if (status) *status = s;
  r.id = -1;
  return true;
}

void Comm::waitall(std::vector<Request>& rs) {
  for (auto& r : rs) {
    if (r.id >= 0) wait(r);
  }
}

void Comm::send(uint64_t buf, uint32_t bytes, int dest, int tag, int ctx) {
  Request r = isend(buf, bytes, dest, tag, ctx);
  wait(r);
}

Status Comm::recv(uint64_t buf, uint32_t bytes, int src, int tag, int ctx) {
  Request r = irecv(buf, bytes, src, tag, ctx);
  return wait(r);
}

Status Comm::sendrecv(uint64_t sbuf, uint32_t sbytes, int dest, uint64_t rbuf, uint32_t rbytes,
                      int src, int tag, int ctx) {
  Request rr = irecv(rbuf, rbytes, src, tag, ctx);
  Request sr = isend(sbuf, sbytes, dest, tag, ctx);
  const Status s = wait(rr);
  wait(sr);
  return s;
}

}  // namespace hs::fw::mpi
