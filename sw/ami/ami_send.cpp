// The sender's half of the AMI: SEND posting, the eager stream, STOP, CTS, PUT and ACK.
#include <fmt/format.h>
#include <algorithm>

#include "sw/ami/ami.h"

namespace hs::fw::ami {

void Ami::send(int dest, uint64_t buf, uint32_t bytes, uint32_t tag, Callback done) {
  hal_.compute(cfg_.post_cycles);
  if (bytes == 0) hal_.fail(fmt::format("AMI send to {} of 0 bytes", dest));
  Outbound o;
  o.dest = dest;
  o.msg = next_msg_++ & kMsgMask;
  o.tag = tag;
  o.size = bytes;
  o.buf = buf;
  o.protocol = cfg_.protocol;
  if (o.protocol == Protocol::Eager && bytes > cfg_.eager_limit) o.protocol = Protocol::Rendezvous;
  o.done = std::move(done);
  ++stats_.sends;
  trace_->send_posted(self_, dest, o.msg, bytes, o.protocol);
  hal_.protocol_begin("ami send", kTraceKeyAmiSend | o.msg,
                      {{"dest", dest},
                       {"msg", o.msg},
                       {"bytes", bytes},
                       {"tag", tag},
                       {"protocol", protocol_name(o.protocol)}});
  out_.emplace(o.msg, std::move(o));
}

uint32_t Ami::head_data(Protocol p, uint32_t size) const {
  return head_data_bytes(p, size, adapter_.max_payload());
}

Callback Ami::track(Outbound& o) {
  ++o.in_fifo;
  return [this, msg = o.msg] {
    auto it = out_.find(msg);
    if (it != out_.end()) --it->second.in_fifo;
  };
}

bool Ami::post_next(Outbound& o) {
  if (o.acked || o.done_called) return false;
  const uint32_t payload = adapter_.max_payload();
  if (!o.head_posted) {
    const uint32_t head_data = this->head_data(o.protocol, o.size);
    uint32_t need = 0;
    auto credits = credits_.end();
    if (o.protocol == Protocol::Eager) {
      need = eager_credits_needed(o.size, payload, cfg_.eager);
      credits = credits_.try_emplace(o.dest, cfg_.credit_entries).first;
      if (need > cfg_.credit_entries) {
        hal_.fail(
            fmt::format("AMI eager baseline: a {} B message needs {} credits; a peer has "
                        "{} (raise the temporary space or lower the eager limit)",
                        o.size, need, cfg_.credit_entries));
      }
      if (credits->second < need) {  // wait for the receiver to return credits
        ++stats_.credit_waits;
        return false;
      }
    }
    if (o.protocol != Protocol::Rendezvous) {
      o.counter = adapter_.open_tx_counter(o.size - head_data);
      if (o.counter < 0) return false;  // every counter still drains an earlier message
    }
    if (credits != credits_.end()) credits->second -= need;
    SendHeader h;
    h.buf = o.buf;
    h.size = o.size;
    h.tag = o.tag;
    h.counter = static_cast<uint16_t>(std::max(o.counter, 0));
    h.protocol = static_cast<uint8_t>(o.protocol);
    const uint64_t rec = scratch(sizeof h + head_data);
    hal_.store(rec, h);
    copy(rec + sizeof h, o.buf, head_data);
    Transfer t;
    t.kind = TransferKind::Packet;
    t.peer = o.dest;
    t.local = rec;
    t.bytes = sizeof h + head_data;
    t.sw0 = pack(kSendHead, o.msg);
    t.tx_counter = adapter_.control_counter();
    o.head_posted = true;
    o.posted = head_data;
    if (head_data) {
      stats_.eager_bytes_posted += head_data;
      trace_->eager_posted(self_, o.dest, o.msg, 0, head_data);
    }
    inject_now({t, track(o)});
    return true;
  }
  if (o.protocol == Protocol::Rendezvous || o.stopped || o.posted >= o.size) return false;
  const uint32_t s = std::min(cfg_.eager.size(o.k), o.size - o.posted);
  Transfer t;
  t.kind = TransferKind::Packet;
  t.peer = o.dest;
  t.local = o.buf + o.posted;
  t.bytes = s;
  t.offset = o.posted;
  t.sw0 = pack(kEagerData, o.msg);
  t.tx_counter = o.counter;
  // B's top stream claims from the counter the receiver's bottom GETs also claim from.
  t.claim = o.protocol == Protocol::StopB;
  trace_->eager_posted(self_, o.dest, o.msg, o.posted, o.posted + s);
  stats_.eager_bytes_posted += s;
  o.posted += s;
  ++o.k;
  inject_now({t, track(o)});
  return true;
}

void Ami::on_stop(int src, uint32_t msg, const ControlRecord& r) {
  auto it = out_.find(msg);
  if (it == out_.end() || it->second.dest != src) {
    hal_.fail(
        fmt::format("AMI: STOP from {} for message {} this endpoint is not sending", src, msg));
  }
  Outbound& o = it->second;
  if (!is_stop_variant(o.protocol)) {
    hal_.fail(
        fmt::format("AMI: STOP from {} for {} message {}", src, protocol_name(o.protocol), msg));
  }
  if (!o.stopped) {
    o.stopped = true;
    trace_->stop_processed(self_, o.dest, o.msg, o.posted);
    // Until the send completes; B answers with a CTS at once.
    hal_.protocol_begin(
        "ami stopped", kTraceKeyAmiStopReceived | static_cast<uint64_t>(o.dest) << 32 | o.msg,
        {{"eager_bytes", o.posted}, {"cts", o.protocol == Protocol::StopB ? 1 : 0}});
    if (o.protocol == Protocol::StopB) {
      ControlRecord cts;
      cts.bytes = o.posted;  // E: eager bytes injected before the STOP
      push(control(o.dest, kCts, o.msg, cts), track(o));
      ++stats_.ctss;
    }
  }
  if (r.has_buffer && !o.put_posted && o.protocol == Protocol::StopC) {
    o.put_posted = true;
    if (o.posted < o.size) {
      Transfer t;
      t.kind = TransferKind::Put;
      t.peer = o.dest;
      t.local = o.buf + o.posted;
      t.bytes = o.size - o.posted;
      t.rx_counter = r.counter;
      t.rx_offset = r.offset + o.posted;
      t.tx_counter = o.counter;
      if (uint64_t{o.size} > r.bytes) {
        hal_.fail(fmt::format("AMI: STOP names a {} B buffer for a {} B message", r.bytes, o.size));
      }
      trace_->put_posted(self_, o.dest, o.msg, o.posted, o.size);
      stats_.rdma_bytes += t.bytes;
      push(t, track(o));
    }
  }
}

void Ami::on_ack(int src, uint32_t msg) {
  auto it = out_.find(msg);
  if (it == out_.end() || it->second.dest != src) {
    hal_.fail(
        fmt::format("AMI: ACK from {} for message {} this endpoint is not sending", src, msg));
  }
  Outbound& o = it->second;
  o.acked = true;
  // Eager packets still queued are of no use to the receiver, which may stop polling its
  // reception buffer now; the SEND completes only once they are out of the FIFO.
  if (o.counter >= 0) adapter_.abandon_tx_counter(o.counter);
  ++stats_.acks;
  trace_->ack_received(self_, src, msg);
}

void Ami::check_sends() {
  for (auto it = out_.begin(); it != out_.end();) {
    Outbound& o = it->second;
    const bool local_done = o.head_posted && o.in_fifo == 0;
    const bool done =
        o.protocol == Protocol::Eager ? local_done && o.posted == o.size : local_done && o.acked;
    if (!done) {
      ++it;
      continue;
    }
    if (o.counter >= 0) adapter_.close_tx_counter(o.counter);
    o.done_called = true;
    trace_->send_done(self_, o.dest, o.msg);
    if (o.stopped) {
      hal_.protocol_end(kTraceKeyAmiStopReceived | static_cast<uint64_t>(o.dest) << 32 | o.msg, {});
    }
    hal_.protocol_end(kTraceKeyAmiSend | o.msg, {});
    Callback cb = std::move(o.done);
    it = out_.erase(it);
    if (cb) cb();
  }
}

}  // namespace hs::fw::ami
