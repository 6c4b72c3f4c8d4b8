#include "sw/mpi/comm.h"

#include <fmt/format.h>
#include <algorithm>
#include <vector>

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

Comm::Comm(Comm& parent, const std::vector<int>& group, int rank, int slot)
    : hal_(parent.hal_),
      cfg_(parent.cfg_),
      map_(parent.map_),
      rank_(rank),
      trace_(parent.trace_),
      world_(parent.world_),
      id_(slot),
      sink_(parent.sink_) {
  if (slot <= 0 || slot >= kCommSlots || (world_->used_slots_ & (1u << slot))) {
    hal_.fail(fmt::format("rank {}: communicator slot {} is not free", world_->rank_, slot));
  }
  world_->used_slots_ |= 1u << slot;
  for (int r : group) group_.push_back(parent.world_rank(r));
}

Comm::~Comm() {
  if (world_ != this) world_->used_slots_ &= ~(1u << id_);
}

int Comm::to_world(int r) const {
  if (r < 0 || r >= size()) {
    hal_.fail(fmt::format("communicator {}: rank {} is outside 0..{}", id_, r, size() - 1));
  }
  return group_[static_cast<size_t>(r)];
}

Status Comm::from_world(Status s) const {
  if (s.source >= 0) {
    s.source = static_cast<int>(std::find(group_.begin(), group_.end(), s.source) - group_.begin());
  }
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

Request Comm::isend(uint64_t buf, uint32_t bytes, int dest, int tag, int ctx, SendMode mode) {
  if (world_ != this) {
    if (ctx != kCollective && (tag < 0 || tag > kTagUpperBound)) {
      hal_.fail(fmt::format("send with tag {}: tags are 0..{}", tag, kTagUpperBound));
    }
    const Request r = world_->post_send(buf, bytes, to_world(dest), tag, wire_context(ctx), mode);
    ++counts_.messages_sent;
    counts_.bytes_sent += bytes;
    return r;
  }
  if (dest < 0 || dest >= size()) hal_.fail(fmt::format("send to rank {}: no such rank", dest));
  if (tag < 0 || tag > kTagUpperBound) {
    hal_.fail(fmt::format("send with tag {}: tags are 0..{}", tag, kTagUpperBound));
  }
  return post_send(buf, bytes, dest, tag, wire_context(ctx), mode);
}

Request Comm::post_send(uint64_t buf, uint32_t bytes, int dest, int tag, int wire, SendMode mode) {
  hal_.compute(cfg_.match_cycles);
  uint32_t& seq = next_seq_[dest];
  const uint32_t word = pack_envelope(bytes == 0, wire, tag, seq);
  trace_->sent(rank_, dest, wire, tag, seq, bytes);
  seq = (seq + 1) % kSeqModulus;
  // The layer below sends at least a byte: an empty message carries one the receiver drops.
  const uint32_t wire_bytes = bytes == 0 ? 1 : bytes;
  const dcmf::Protocol protocol =
      mode == SendMode::Synchronous ? dcmf::Protocol::Rendezvous : protocol_for(wire_bytes);
  const int id = next_id_++;
  Pending& p = pending_[id];
  p.send = true;
  if (hal_.tracing()) {
    hal_.protocol_begin("mpi send", trace_key(id),
                        {{"dest", dest},
                         {"tag", tag},
                         {"bytes", bytes},
                         {"protocol", dcmf::protocol_name(protocol)}});
  }
  p.handle =
      messenger_->send(map_.endpoint(dest), bytes == 0 ? sink_ : buf, wire_bytes, protocol, word);
  ++counts_.messages_sent;
  counts_.bytes_sent += bytes;
  return {id};
}

Request Comm::irecv(uint64_t buf, uint32_t bytes, int src, int tag, int ctx) {
  if (src != kAnySource && (src < 0 || src >= size())) {
    hal_.fail(fmt::format("receive from rank {}: no such rank", src));
  }
  if (tag != kAnyTag && (tag < 0 || tag > kTagUpperBound)) {
    hal_.fail(fmt::format("receive with tag {}: tags are 0..{}", tag, kTagUpperBound));
  }
  const int world_src = src == kAnySource || world_ == this ? src : to_world(src);
  return world_->post_recv(buf, bytes, world_src, tag, wire_context(ctx));
}

Request Comm::post_recv(uint64_t buf, uint32_t bytes, int src, int tag, int wire) {
  hal_.compute(cfg_.match_cycles);
  const int id = next_id_++;
  Pending& p = pending_[id];
  p.buf = buf;
  p.capacity = bytes;
  if (hal_.tracing()) {
    hal_.protocol_begin("mpi recv", trace_key(id),
                        {{"source", src}, {"tag", tag}, {"capacity", bytes}});
  }
  if (auto e = matcher_.post(id, src, wire, tag)) {
    ++counts_.unexpected;
    bind(id, *e);
  }
  return {id};
}

bool Comm::iprobe(int src, int tag, Status& status) {
  if (src != kAnySource && (src < 0 || src >= size())) {
    hal_.fail(fmt::format("probe for rank {}: no such rank", src));
  }
  const int world_src = src == kAnySource || world_ == this ? src : to_world(src);
  Comm& w = *world_;
  w.messenger_->progress();
  hal_.compute(cfg_.match_cycles);
  const auto e = w.matcher_.peek(world_src, wire_context(kPointToPoint), tag);
  if (!e) return false;
  Status s{e->src, e->tag, e->bytes, false, e->bytes};
  status = world_ == this ? s : from_world(s);
  return true;
}

void Comm::progress() {
  world_->messenger_->progress();
}

void Comm::idle() {
  world_->messenger_->idle();
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
  uint64_t land = e.empty ? sink_ : p.buf;
  if (e.bytes > p.capacity) {
    if (e.ctx == kCollectiveWire || !overflow_take_) {
      hal_.fail(
          fmt::format("rank {}: message from rank {} tag {} is {} B; the receive has room "
                      "for {} B",
                      rank_, e.src, e.tag, e.bytes, p.capacity));
    }
    p.overflow = overflow_take_(e.bytes);
    land = p.overflow;
  }
  p.msg = e;
  p.matched = true;
  trace_->matched(rank_, e.src, e.ctx, e.tag, e.seq, e.bytes);
  const uint32_t word = pack_envelope(e.empty, e.ctx, e.tag, e.seq);
  p.handle = messenger_->post_recv(map_.endpoint(e.src), word, land, e.empty ? 1 : e.bytes);
}

Status Comm::finish(int id) {
  Pending& p = pending_.at(id);
  Status s;
  if (!p.send) {
    s = {p.msg.src, p.msg.tag, p.msg.bytes, false, p.msg.bytes};
    trace_->received(rank_, p.msg.src, p.msg.ctx, p.msg.tag, p.msg.seq, p.msg.bytes);
    if (p.overflow) {
      // The message landed whole aside: the receive gets what fits, copied by the core.
      std::vector<uint8_t> v(p.capacity);
      hal_.load(p.overflow, v.data(), v.size());
      hal_.store(p.buf, v.data(), v.size());
      overflow_give_(p.overflow);
      s.bytes = p.capacity;
      s.truncated = true;
    }
    ++counts_.messages_received;
    counts_.bytes_received += s.bytes;
    hal_.protocol_end(trace_key(id),
                      {{"from", s.source}, {"matched_tag", s.tag}, {"bytes", s.message_bytes}});
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
