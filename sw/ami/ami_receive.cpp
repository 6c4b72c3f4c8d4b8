// The receiver's half of the AMI: dispatching arrivals, RECEIVE matching, the STOP decision,
// temporary space, RDMA to finish a message, and completion.
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "sw/ami/ami.h"

namespace hs::fw::ami {

void Ami::receive(int src, uint32_t tag, uint64_t buf, uint32_t bytes, RecvCallback done) {
  hal_.compute(cfg_.post_cycles);
  posted_.push_back({src, tag, buf, bytes, std::move(done)});
}

void Ami::handle(const Arrival& a) {
  hal_.compute(cfg_.entry_cycles);
  const uint32_t type = type_of(a.sw0), msg = msg_of(a.sw0);
  const Key key{a.src, msg};
  switch (type) {
    case 0:
      if (a.bytes == 0) return;  // a packet the other stream claimed empty (shared memory)
      break;
    case kSendHead: {
      if (a.bytes < sizeof(SendHeader)) break;
      on_head(a.src, msg, hal_.load<SendHeader>(a.payload));
      auto it = in_.find(key);
      if (it != in_.end()) {
        on_data(it->second, 0, a.payload + sizeof(SendHeader),
                a.bytes - static_cast<uint32_t>(sizeof(SendHeader)));
      }
      return;
    }
    case kEagerData: {
      auto it = in_.find(key);
      if (it != in_.end()) {
        on_data(it->second, a.offset, a.payload, a.bytes);
      } else if (retired_.count(key)) {  // in flight when the message completed (A)
        stats_.eager_bytes_discarded += a.bytes;
        trace_->discarded(self_, a.src, msg, a.offset, a.offset + a.bytes);
      } else {
        hal_.fail(fmt::format("AMI: eager data from {} for message {} before its SEND header",
                              a.src, msg));
      }
      return;
    }
    case kStop:
      on_stop(a.src, msg, hal_.load<ControlRecord>(a.payload));
      return;
    case kCts:
      on_cts(a.src, msg, hal_.load<ControlRecord>(a.payload).bytes);
      return;
    case kAck:
      on_ack(a.src, msg);
      return;
    case kCredit: {
      auto it = credits_.try_emplace(a.src, cfg_.credit_entries).first;
      it->second += hal_.load<ControlRecord>(a.payload).bytes;
      return;
    }
    default:
      break;
  }
  hal_.fail(fmt::format("AMI: malformed packet from {} (type {}, {} B)", a.src, type, a.bytes));
}

void Ami::on_head(int src, uint32_t msg, const SendHeader& h) {
  const Key key{src, msg};
  if (in_.count(key) || retired_.count(key)) {
    hal_.fail(fmt::format("AMI: second SEND header for message {} from {}", msg, src));
  }
  if (h.protocol > static_cast<uint8_t>(Protocol::Rendezvous) || h.size == 0) {
    hal_.fail(
        fmt::format("AMI: bad SEND header from {} (protocol {}, {} B)", src, h.protocol, h.size));
  }
  Inbound& in = in_[key];
  in.src = src;
  in.msg = msg;
  in.h = h;
  in.bottom_lo = h.size;
  in.info.src = src;
  in.info.tag = h.tag;
  in.info.bytes = h.size;
  const auto p = static_cast<Protocol>(h.protocol);
  trace_->message_arrived(self_, src, msg, h.size, p);
  hal_.protocol_begin("ami receive", kTraceKeyAmiReceive | static_cast<uint64_t>(src) << 32 | msg,
                      {{"src", src},
                       {"msg", msg},
                       {"bytes", h.size},
                       {"tag", h.tag},
                       {"protocol", protocol_name(p)}});
  auto r = std::find_if(posted_.begin(), posted_.end(),
                        [&](const PostedRecv& x) { return x.src == src && x.tag == h.tag; });
  if (r != posted_.end()) {
    PostedRecv pr = std::move(*r);
    posted_.erase(r);
    bind(in, std::move(pr));
  } else {
    unexpected_.push_back(key);
    if (dispatch_) dispatch_(src, h.tag, h.size);
  }
  if (is_stop_variant(p)) evaluate_stop(in);
}

void Ami::match_receives() {
  // Restart after each match: a completion callback may post another RECEIVE.
  for (bool matched = true; matched;) {
    matched = false;
    for (auto r = posted_.begin(); r != posted_.end() && !matched; ++r) {
      auto u = std::find_if(unexpected_.begin(), unexpected_.end(), [&](const Key& k) {
        return k.first == r->src && in_.at(k).h.tag == r->tag;
      });
      if (u == unexpected_.end()) continue;
      Inbound& in = in_.at(*u);
      PostedRecv pr = std::move(*r);
      posted_.erase(r);
      bind(in, std::move(pr));
      matched = true;
    }
  }
}

void Ami::bind(Inbound& in, PostedRecv r) {
  if (in.h.size > r.bytes) {
    hal_.fail(fmt::format("AMI: message {} from {} is {} B; the RECEIVE for tag {} has {} B",
                          in.msg, in.src, in.h.size, r.tag, r.bytes));
  }
  in.recv = std::move(r);
  const Key key{in.src, in.msg};
  unexpected_.erase(std::remove(unexpected_.begin(), unexpected_.end(), key), unexpected_.end());
  const auto p = static_cast<Protocol>(in.h.protocol);
  if (p == Protocol::Rendezvous) {
    start_rdma(in);
  } else if (!in.stopped) {
    unstage(in);
    maybe_complete_eager(in);
  }  // a stopped message starts its RDMA from check_receives once conditions allow
}

void Ami::unstage(Inbound& in) {
  for (const TempBlock& t : in.temp) {
    copy(in.recv->buf + t.offset, temp_addr(t.block), t.bytes);
    trace_->committed(self_, in.src, in.msg, t.offset, t.offset + t.bytes);
    stats_.staged_bytes += t.bytes;
    in.info.staged_bytes += t.bytes;
    free_block(t.block);
  }
  in.temp.clear();
}

void Ami::on_data(Inbound& in, uint32_t offset, uint64_t addr, uint32_t n) {
  if (n == 0 || in.finished) return;
  const auto p = static_cast<Protocol>(in.h.protocol);
  if (uint64_t{offset} + n > in.h.size) {
    hal_.fail(fmt::format("AMI: eager bytes {}..{} beyond message {} from {} ({} B)", offset,
                          offset + n, in.msg, in.src, in.h.size));
  }
  in.top_seen = std::max(in.top_seen, offset + n);
  if (in.stopped && p == Protocol::StopA) {  // A: everything after the STOP is pulled again
    stats_.eager_bytes_discarded += n;
    trace_->discarded(self_, in.src, in.msg, offset, offset + n);
    return;
  }
  if (in.recv) {
    copy(in.recv->buf + offset, addr, n);
    trace_->committed(self_, in.src, in.msg, offset, offset + n);
    if (in.rdma) adapter_.rx_counter_sub(in.rx_counter, n);
  } else {
    const int b = take_block();
    if (b < 0) {
      if (p == Protocol::Eager) {
        hal_.fail(
            fmt::format("AMI eager baseline: temporary space overflow from {} despite "
                        "credits",
                        in.src));
      }
      stats_.eager_bytes_discarded += n;
      trace_->discarded(self_, in.src, in.msg, offset, offset + n);
      if (p != Protocol::StopA) in.discarded.add(offset, offset + n);
      if (!in.stopped) stop(in, StopCause::TempSpace);
      return;
    }
    copy(temp_addr(b), addr, n);
    in.temp.push_back({offset, n, b});
  }
  in.held.add(offset, offset + n);
  in.info.eager_bytes += n;
  stats_.eager_bytes_kept += n;
  evaluate_stop(in);
  maybe_complete_eager(in);
}

double Ami::link_utilisation() {
  const double bw = adapter_.link_bytes_per_second();
  return bw > 0 ? link_rate_.rate() * hal_.clock_hz() / bw : 0;
}

StopCause Ami::stop_condition(const Inbound& in) {
  const StopConditions& s = cfg_.stop;
  if (in.held.total() >= in.h.size) return StopCause::None;  // nothing left to stop
  if (!in.recv) {
    if (s.on_unexpected) return StopCause::Unexpected;
    const uint64_t free_bytes = uint64_t(free_blocks_.size()) * block_;
    if (s.on_temp_space && in.h.size - in.held.total() > free_bytes) return StopCause::TempSpace;
  }
  if (s.adapter_fill <= 1 && adapter_.receive_fill() > s.adapter_fill) {
    return StopCause::AdapterBuffer;
  }
  if (s.processor_utilisation <= 1 && busy_share_.rate() > s.processor_utilisation) {
    return StopCause::ProcessorUtilisation;
  }
  if (s.link_utilisation <= 1 && link_utilisation() > s.link_utilisation) {
    return StopCause::LinkUtilisation;
  }
  return StopCause::None;
}

void Ami::evaluate_stop(Inbound& in) {
  if (in.stopped || in.finished || !is_stop_variant(static_cast<Protocol>(in.h.protocol))) return;
  const StopCause c = stop_condition(in);
  if (c != StopCause::None) stop(in, c);
}

void Ami::stop(Inbound& in, StopCause cause) {
  in.stopped = true;
  in.cause = cause;
  in.info.stop = cause;
  ++stats_.stops[static_cast<int>(cause)];
  trace_->stop_sent(self_, in.src, in.msg, cause);
  // Until the message completes: its remaining bytes come by RDMA or after a CTS.
  hal_.protocol_begin("ami stopped",
                      kTraceKeyAmiStopSent | static_cast<uint64_t>(in.src) << 32 | in.msg,
                      {{"cause", stop_cause_name(cause)}});
  const auto p = static_cast<Protocol>(in.h.protocol);
  if (p == Protocol::StopC && rdma_allowed(in)) {
    start_rdma(in);  // its STOP names the receive buffer
    return;
  }
  ControlRecord r;
  r.cause = static_cast<uint8_t>(cause);
  push(control(in.src, kStop, in.msg, r));
  in.stop_sent = true;
  if (rdma_allowed(in)) start_rdma(in);  // B: bottom GETs right behind the STOP
}

bool Ami::rdma_allowed(const Inbound& in) {
  if (!in.recv) return false;
  if (in.cause == StopCause::LinkUtilisation && link_utilisation() > cfg_.stop.link_utilisation) {
    return false;
  }
  return true;
}

void Ami::queue_get(Inbound& in, uint32_t lo, uint32_t hi, GetKind kind, bool claim,
                    bool descending) {
  Transfer t;
  t.kind = TransferKind::Get;
  t.peer = in.src;
  t.remote = in.h.buf + lo;
  t.bytes = hi - lo;
  t.rx_counter = in.rx_counter;
  t.rx_offset = adapter_.rx_counter_offset(in.rx_counter, in.recv->buf + lo);
  t.tx_counter = claim ? in.h.counter : adapter_.control_counter();
  t.claim = claim;
  t.descending = descending;
  trace_->get_posted(self_, in.src, in.msg, lo, hi, kind);
  push(t);
}

void Ami::start_rdma(Inbound& in) {
  unstage(in);
  in.rdma = true;
  const auto p = static_cast<Protocol>(in.h.protocol);
  const uint32_t size = in.h.size;
  const uint32_t lack = size - static_cast<uint32_t>(in.held.total());
  if (lack == 0) {  // every byte is here: the STOP came after the last eager byte
    complete(in);
    return;
  }
  in.rx_counter = adapter_.open_rx_counter(in.recv->buf, size, lack);
  trace_->rdma_target(self_, in.src, in.msg, in.recv->buf, size);
  switch (p) {
    case Protocol::StopA:
    case Protocol::Rendezvous:
      for (const auto& [lo, hi] : in.held.gaps(0, size)) {
        queue_get(in, static_cast<uint32_t>(lo), static_cast<uint32_t>(hi),
                  p == Protocol::StopA ? GetKind::Remainder : GetKind::Rendezvous, false, false);
      }
      break;
    case Protocol::StopB: {
      for (const auto& [lo, hi] : in.discarded.ranges()) {
        queue_get(in, static_cast<uint32_t>(lo), static_cast<uint32_t>(hi), GetKind::Hole, false,
                  false);
      }
      if (in.cts) {  // the sender has stopped already: no bottom stream, just the rest
        post_final_get(in);
        break;
      }
      const uint32_t region = size - in.top_seen;
      const auto share = static_cast<uint32_t>(
          std::ceil(double(region) * std::clamp(cfg_.bottom_share, 0.0, 1.0)));
      const uint32_t floor = size - share;
      uint32_t hi = size;
      uint64_t g = cfg_.bottom_first;
      while (hi > floor) {
        const uint32_t lo = hi - static_cast<uint32_t>(std::min<uint64_t>(g, hi - floor));
        queue_get(in, lo, hi, GetKind::Bottom, true, true);
        hi = lo;
        g *= std::max<uint32_t>(cfg_.bottom_growth, 1);
      }
      in.bottom_lo = floor;
      break;
    }
    case Protocol::StopC:
      for (const auto& [lo, hi] : in.discarded.ranges()) {
        queue_get(in, static_cast<uint32_t>(lo), static_cast<uint32_t>(hi), GetKind::Hole, false,
                  false);
      }
      name_buffer(in);
      break;
    case Protocol::Eager:
      hal_.fail("AMI: RDMA for an eager-baseline message");
  }
}

void Ami::name_buffer(Inbound& in) {
  if (in.buffer_named) return;
  ControlRecord r;
  r.has_buffer = 1;
  r.buf = in.recv->buf;
  r.bytes = in.recv->bytes;
  r.counter = static_cast<uint16_t>(in.rx_counter);
  r.offset = adapter_.rx_counter_offset(in.rx_counter, in.recv->buf);
  r.cause = static_cast<uint8_t>(in.cause);
  push(control(in.src, kStop, in.msg, r));
  in.buffer_named = true;
  in.stop_sent = true;
}

void Ami::post_final_get(Inbound& in) {
  if (in.final_posted) return;
  in.final_posted = true;
  // [E, bottom): what neither stream moved. If the streams met (E >= bottom) there is none.
  if (in.eager_end < in.bottom_lo) {
    queue_get(in, in.eager_end, in.bottom_lo, GetKind::Final, true, false);
  }
}

void Ami::on_cts(int src, uint32_t msg, uint32_t eager_end) {
  const Key key{src, msg};
  auto it = in_.find(key);
  if (it == in_.end()) {
    if (retired_.count(key)) return;  // the streams met and the message completed first
    hal_.fail(fmt::format("AMI: CTS from {} for unknown message {}", src, msg));
  }
  Inbound& in = it->second;
  if (eager_end > in.h.size) {
    hal_.fail(fmt::format("AMI: CTS from {} says {} eager bytes of a {} B message", src, eager_end,
                          in.h.size));
  }
  in.cts = true;
  in.eager_end = eager_end;
  trace_->cts_received(self_, src, msg, eager_end);
  if (in.rdma && !in.finished) post_final_get(in);
}

void Ami::maybe_complete_eager(Inbound& in) {
  if (in.finished || in.stopped || in.rdma || !in.recv || !in.temp.empty()) return;
  if (in.h.protocol == static_cast<uint8_t>(Protocol::Rendezvous)) return;
  if (in.held.total() == in.h.size) complete(in);
}

void Ami::complete(Inbound& in) {
  in.finished = true;
  if (in.rx_counter >= 0) adapter_.close_rx_counter(in.rx_counter);
  in.info.rdma_bytes = in.h.size - in.info.eager_bytes;
  stats_.rdma_bytes += in.info.rdma_bytes;
  if (in.h.protocol == static_cast<uint8_t>(Protocol::Eager)) {
    ControlRecord r;  // the temporary space this message was entitled to is free again
    r.bytes = eager_credits_needed(in.h.size, block_, cfg_.eager);
    push(control(in.src, kCredit, in.msg, r));
  } else {
    push(control(in.src, kAck, in.msg, ControlRecord{}));
  }
  trace_->receive_done(self_, in.src, in.msg);
  const uint64_t peer_msg = static_cast<uint64_t>(in.src) << 32 | in.msg;
  if (in.stopped) hal_.protocol_end(kTraceKeyAmiStopSent | peer_msg, {});
  hal_.protocol_end(kTraceKeyAmiReceive | peer_msg, {});
  if (in.recv->done) in.recv->done(in.info);
}

void Ami::check_receives() {
  for (auto g = user_gets_.begin(); g != user_gets_.end();) {
    if (adapter_.rx_counter_value(g->counter) != 0) {
      ++g;
      continue;
    }
    adapter_.close_rx_counter(g->counter);
    Callback cb = std::move(g->done);
    g = user_gets_.erase(g);
    if (cb) cb();
  }
  for (auto& [key, in] : in_) {
    if (in.finished) continue;
    if (!in.rdma) {
      if (in.stopped && rdma_allowed(in)) start_rdma(in);
    } else if (in.rx_counter >= 0 && adapter_.rx_counter_value(in.rx_counter) == 0) {
      complete(in);
    }
  }
  for (auto it = in_.begin(); it != in_.end();) {
    if (it->second.finished) {
      retired_.insert(it->first);
      it = in_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace hs::fw::ami
