#include "sw/slmpm/slmpm.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "sw/hal/dma.h"
#include "sw/slmpm/receive_slots.h"

namespace hs::fw::slmpm {

namespace {

struct GetRequestBody {
  uint32_t tag, length;
  uint64_t src, dst;  // dst 0: the accelerator picks a receive slot
  uint32_t accelerator, process;
};
struct SmtHeaderBody {
  uint32_t tag, length;
  uint64_t dst;  // 0: the accelerator picks a receive slot
  uint32_t accelerator, process;
};
struct AckBody {
  uint32_t tag, status;
  uint64_t dst;
};
struct DataBody {
  uint32_t tag, offset;
  uint8_t bytes[kSmtChunk];
};

template <class Body>
Packet message(MessageType type, const Body& body, uint32_t length = sizeof(Body)) {
  static_assert(sizeof(Body) <= sizeof(Packet::value), "a message body fits one packet");
  Packet p;
  p.variable = type;
  p.length = length;
  std::memcpy(p.value, &body, sizeof(Body));
  return p;
}

template <class Body>
Body body_of(const Packet& p) {
  Body b;
  std::memcpy(&b, p.value, sizeof(Body));
  return b;
}

// Names a packet's message and tag (the first field of every body) in failures.
std::string describe(const Packet& p) {
  static constexpr const char* kNames[] = {"message", "GET request", "DMA done", "SMT header",
                                           "SMT ack", "SMT data",    "SMT done", "PUT request"};
  const char* name = p.variable < 8 ? kNames[p.variable] : kNames[0];
  const auto tag = body_of<AckBody>(p).tag;
  if (p.variable == kSmtData) {
    return fmt::format("{} at offset {} of tag {}", name, body_of<DataBody>(p).offset, tag);
  }
  return fmt::format("{} of tag {}", name, tag);
}

// A resending writer gave up: the transfer whose packet was lost fails, never silently.
void fail_lost(Hal& hal, const char* side, int link, const RingWriter& out, const Resend& resend) {
  const Packet& p = out.oldest_unacked();
  hal.fail(
      fmt::format("SLMPM: Ethernet link {} ({}): {} (packet {}) not acknowledged after {} "
                  "resends, {} us apart: the transfer failed",
                  link, side, describe(p), p.seq, resend.retries, resend.timeout_ns / 1e3));
}

}  // namespace

struct HostSlmpm::Link {
  Link(Hal& hal, const Channel& c)
      : ch(c),
        out(hal, c.to_acc, CounterMode::Mirrored, c.resend),
        in(hal, c.from_acc, CounterMode::Mirrored, Publish::Eager, 1, c.resend) {}
  Channel ch;
  RingWriter out;
  RingReader in;
  std::deque<Packet> pending;
  uint64_t in_flight_bytes = 0;  // monitored: this channel's transmit-queue depth
};

HostSlmpm::HostSlmpm(Hal& hal, const HostSlmpmConfig& cfg, os::OsModel& os,
                     RegistrationCache* cache)
    : hal_(hal), cfg_(cfg), os_(os), cache_(cache) {
  links_.emplace_back(hal, cfg.pcie);
  if (cfg.ethernet) links_.emplace_back(hal, *cfg.ethernet);
}

HostSlmpm::~HostSlmpm() = default;

Mode HostSlmpm::choose(Operation op, uint32_t n, const AcceleratorId& id) {
  Monitored m;
  for (const auto& l : links_) {
    (l.ch.fabric == Fabric::Pcie ? m.pcie_queue_bytes : m.ethernet_queue_bytes)
        .push_back(l.in_flight_bytes);
  }
  m.shm_utilisation = links_.front().out.utilisation();
  last_mode_ = select_mode(op, n, id, m, cfg_.thresholds);
  return last_mode_;
}

std::optional<uint32_t> HostSlmpm::start_dma(Link& l, MessageType request, uint64_t host_lo,
                                             uint64_t src, uint64_t dst, uint32_t n,
                                             std::string& error) {
  os::Handle handle;
  if (cache_) {
    auto r = cache_->register_range(hal_, host_lo, host_lo + n, error);
    if (!r) return std::nullopt;
    handle = r->handle;
  } else {
    auto h = os_.register_range(hal_, host_lo, host_lo + n);
    if (!h) {
      error = fmt::format("the OS refused to register [{:#x}, {:#x})", host_lo, host_lo + n);
      return std::nullopt;
    }
    handle = *h;
  }
  const uint32_t tag = next_tag_++;
  transfers_[tag] = Transfer{&l, true, src, dst, n, host_lo, handle, false};
  // The handle's pages map the range one to one: the DMA address is the buffer's.
  l.pending.push_back(
      message(request, GetRequestBody{tag, n, src, dst, cfg_.accelerator, cfg_.process}));
  l.in_flight_bytes += n;
  ++counters_.dma;
  l.out.flush(l.pending);
  return tag;
}

void HostSlmpm::start_smt(Link& l, uint32_t tag, uint64_t src, uint32_t n) {
  transfers_[tag].acked = false;
  l.pending.push_back(message(
      kSmtHeader, SmtHeaderBody{tag, n, transfers_[tag].dst, cfg_.accelerator, cfg_.process}));
  l.in_flight_bytes += n;
  ++counters_.smt;
  l.out.flush(l.pending);
}

std::optional<uint32_t> HostSlmpm::start(Operation op, const AcceleratorId& id, uint64_t src,
                                         uint64_t dst, uint32_t n, std::string& error) {
  Mode mode;
  try {
    mode = choose(op, n, id);
  } catch (const std::invalid_argument& e) {
    error = e.what();
    return std::nullopt;
  }
  // The tag this transfer takes if it starts; a refusal ends its step at once.
  const uint64_t key = kTraceKeySlmpm | next_tag_;
  if (hal_.tracing()) {
    static constexpr const char* kNames[] = {"slmpm put", "slmpm send", "slmpm get"};
    hal_.protocol_begin(kNames[static_cast<int>(op)], key,
                        {{"tag", next_tag_},
                         {"bytes", n},
                         {"fabric", to_string(mode.fabric)},
                         {"protocol", to_string(mode.protocol)},
                         {"reason", mode.reason.c_str()}});
  }
  const std::optional<uint32_t> tag = start_transfer(op, mode, src, dst, n, error);
  if (!tag) hal_.protocol_end(key, {{"refused", error.c_str()}});
  return tag;
}

std::optional<uint32_t> HostSlmpm::start_transfer(Operation op, const Mode& mode, uint64_t src,
                                                  uint64_t dst, uint32_t n, std::string& error) {
  if (op == Operation::Get) {
    // Only the accelerator has a DMA engine, and Ethernet carries no reads: a get is always a
    // request for a DMA PUT into the registered host buffer, over PCIe.
    ++counters_.pcie;
    return start_dma(links_.front(), kPutRequest, dst, src, dst, n, error);
  }
  Link& l = links_[mode.fabric == Fabric::Pcie || links_.size() == 1 ? 0 : 1];
  ++(mode.fabric == Fabric::Pcie ? counters_.pcie : counters_.ethernet);
  if (mode.protocol == Protocol::Dma) return start_dma(l, kGetRequest, src, src, dst, n, error);
  const uint32_t tag = next_tag_++;
  transfers_[tag] = Transfer{&l, false, src, dst, n, 0, 0, false};
  start_smt(l, tag, src, n);
  return tag;
}

std::optional<uint32_t> HostSlmpm::put(const AcceleratorId& id, uint64_t src, uint64_t dst,
                                       uint32_t n, std::string& error) {
  return start(Operation::Put, id, src, dst, n, error);
}

std::optional<uint32_t> HostSlmpm::get(const AcceleratorId& id, uint64_t src, uint64_t dst,
                                       uint32_t n, std::string& error) {
  return start(Operation::Get, id, src, dst, n, error);
}

std::optional<uint32_t> HostSlmpm::send(const AcceleratorId& id, uint64_t src, uint32_t n,
                                        std::string& error) {
  return start(Operation::Send, id, src, /*dst: the receiver picks=*/0, n, error);
}

void HostSlmpm::progress() {
  for (auto& l : links_) {
    if (!l.pending.empty()) l.out.flush(l.pending);
    l.in.poll([&](const Packet& p) {
      const auto ack = body_of<AckBody>(p);
      auto it = transfers_.find(ack.tag);
      if (it == transfers_.end())
        hal_.fail(fmt::format("SLMPM: message {} for unknown tag {}", p.variable, ack.tag));
      Transfer& t = it->second;
      switch (p.variable) {
        case kSmtAck: {
          // The handshake is done: stream the data.
          std::vector<uint8_t> data(t.n);
          hal_.load(t.src, data.data(), data.size());
          for (uint32_t off = 0; off < t.n; off += kSmtChunk) {
            DataBody d{ack.tag, off, {}};
            const uint32_t c = std::min(kSmtChunk, t.n - off);
            std::memcpy(d.bytes, data.data() + off, c);
            l.pending.push_back(message(kSmtData, d, 8 + c));
          }
          t.acked = true;
          break;
        }
        case kDmaDone:
        case kSmtDone: {
          if (t.dma) {
            std::string error;
            if (cache_) {
              if (!cache_->deregister(hal_, t.host_lo, t.host_lo + t.n, t.handle, error))
                hal_.fail(error);
            } else {
              os_.deregister(hal_, t.handle);
            }
          }
          t.link->in_flight_bytes -= t.n;
          transfers_.erase(it);
          hal_.protocol_end(kTraceKeySlmpm | ack.tag, {});
          break;
        }
        default:
          hal_.fail(
              fmt::format("SLMPM: unexpected message type {} from the accelerator", p.variable));
      }
    });
    if (!l.pending.empty()) l.out.flush(l.pending);
    if (!l.out.service()) fail_lost(hal_, "host to accelerator", l.ch.link, l.out, l.ch.resend);
  }
}

uint64_t HostSlmpm::resends() const {
  uint64_t n = 0;
  for (const auto& l : links_) n += l.out.resends();
  return n;
}

void HostSlmpm::close() {
  for (auto& l : links_) {
    if (!l.ch.resend.on) continue;
    const bool ok = close_resend(
        hal_, l.out, l.in,
        [&] {
          l.in.poll([&](const Packet& p) {
            hal_.fail(
                fmt::format("SLMPM: {} from the accelerator after the last transfer", describe(p)));
          });
        },
        l.ch.resend, 50);
    if (!ok) fail_lost(hal_, "host to accelerator", l.ch.link, l.out, l.ch.resend);
  }
}

bool HostSlmpm::test(uint32_t tag) {
  progress();
  return transfers_.count(tag) == 0;
}

void HostSlmpm::wait(uint32_t tag) {
  while (!test(tag)) hal_.compute(50);
}

struct AcceleratorSlmpm::State {
  struct Chan {
    Chan(Hal& h, const RingLayout& from, const RingLayout& to, const Resend& r = {})
        : in(h, from, CounterMode::Mirrored, Publish::Eager, 1, r),
          out(h, to, CounterMode::Mirrored, r),
          resend(r) {}
    RingReader in;
    RingWriter out;
    Resend resend;
    std::deque<Packet> pending;
  };
  struct Incoming {
    uint64_t dst;
    uint32_t length, received;
    bool slot;  // dst is a receive slot, freed on delivery
  };
  // A request on the engine, completed in submission order.
  struct Request {
    uint32_t tag;  // the host's transfer (answered when done), or 0: the accelerator's own
    uint64_t dst;
    uint32_t length;
    bool slot;
    uint64_t ticket;  // the accelerator's own: local_done's
  };
  // Request slots: one is rewritten only once the request last written there has completed
  // (the engine reads descriptors when it starts a request; its queue may be deeper).
  static constexpr uint64_t kRequestSlots = 64;

  State(Hal& h, const AcceleratorSlmpmConfig& c, Delivered d, uint64_t poll)
      : hal(h),
        cfg(c),
        delivered(std::move(d)),
        poll_cycles(poll),
        slots(c.receive_area, c.receive_slots, c.receive_slot_bytes) {
    chans.emplace_back(hal, cfg.pcie_from_host, cfg.pcie_to_host);
    if (cfg.ethernet) {
      chans.emplace_back(hal, cfg.ethernet->first, cfg.ethernet->second, cfg.ethernet_resend);
    }
  }

  void resend_due(Chan& c) {
    if (!c.out.service()) fail_lost(hal, "accelerator to host", cfg.ethernet_link, c.out, c.resend);
  }
  uint64_t request_slot() {
    while (submitted_count - dma::completed(hal, cfg.engine_regs) >= kRequestSlots) {
      hal.compute(poll_cycles);
    }
    return cfg.request_area + (submitted_count++ % kRequestSlots) * sizeof(hs::dma::Descriptor);
  }
  void submit(uint64_t src, uint64_t dst, uint64_t n) {
    const uint64_t at = request_slot();
    while (hal.reg_read(cfg.engine_regs + hs::dma::kSpace) == 0) hal.compute(poll_cycles);
    dma::write_request(hal, at, {dma::copy(src, dst, n)});
    hal.reg_write(cfg.engine_regs + hs::dma::kSubmit, at, 8);
  }
  static bool needs_slot(const Packet& p) {
    if (p.variable == kSmtHeader) return body_of<SmtHeaderBody>(p).dst == 0;
    if (p.variable == kGetRequest) return body_of<GetRequestBody>(p).dst == 0;
    return false;
  }
  void release(uint64_t dst) {
    if (!slots.release(dst))
      hal.fail(fmt::format("SLMPM: receive slot {:#x} released but not claimed", dst));
  }
  void check_target(const char* what, uint32_t accelerator) {
    if (accelerator != cfg.accelerator) {
      hal.fail(fmt::format("SLMPM: {} for accelerator {} arrived at accelerator {}", what,
                           accelerator, cfg.accelerator));
    }
  }
  // Serves one message from the host; `slot` is its receive slot if needs_slot(p).
  void serve(Chan& c, const Packet& p, std::optional<uint64_t> slot) {
    switch (p.variable) {
      case kGetRequest: {
        const auto rq = body_of<GetRequestBody>(p);
        check_target("GET request", rq.accelerator);
        const uint64_t dst = slot ? *slot : rq.dst;
        submit(cfg.host_window + rq.src, dst, rq.length);
        hal.protocol_begin("slmpm dma get", kTraceKeySlmpm | rq.tag,
                           {{"tag", rq.tag}, {"bytes", rq.length}, {"slot", slot.has_value()}});
        submitted.push_back({rq.tag, dst, rq.length, slot.has_value(), 0});
        break;
      }
      case kPutRequest: {
        // Push accelerator memory into the registered host buffer: a DMA PUT.
        const auto rq = body_of<GetRequestBody>(p);
        check_target("PUT request", rq.accelerator);
        submit(rq.src, cfg.host_window + rq.dst, rq.length);
        hal.protocol_begin("slmpm dma put", kTraceKeySlmpm | rq.tag,
                           {{"tag", rq.tag}, {"bytes", rq.length}});
        submitted.push_back({rq.tag, 0, rq.length, false, 0});  // lands in host memory
        break;
      }
      case kSmtHeader: {
        const auto h = body_of<SmtHeaderBody>(p);
        check_target("SMT header", h.accelerator);
        const uint64_t dst = slot ? *slot : h.dst;
        smt[h.tag] = {dst, h.length, 0, slot.has_value()};
        hal.protocol_begin("slmpm smt receive", kTraceKeySlmpm | h.tag,
                           {{"tag", h.tag}, {"bytes", h.length}, {"slot", slot.has_value()}});
        c.pending.push_back(message(kSmtAck, AckBody{h.tag, 0, dst}));
        break;
      }
      case kSmtData: {
        const auto d = body_of<DataBody>(p);
        auto it = smt.find(d.tag);
        if (it == smt.end()) hal.fail(fmt::format("SLMPM: data for unknown transfer {}", d.tag));
        const uint32_t n = p.length - 8;
        hal.store(it->second.dst + d.offset, d.bytes, n);
        it->second.received += n;
        if (it->second.received == it->second.length) {
          if (delivered) delivered(d.tag, it->second.dst, it->second.length);
          c.pending.push_back(message(kSmtDone, AckBody{d.tag, 0, it->second.dst}));
          hal.protocol_end(kTraceKeySlmpm | d.tag, {});
          if (it->second.slot) release(it->second.dst);
          smt.erase(it);
          ++done;
        }
        break;
      }
      default:
        hal.fail(fmt::format("SLMPM: unexpected message type {} from the host", p.variable));
    }
  }
  // Hands freed slots to waiting messages, oldest first.
  void admit_waiting() {
    while (!waiting.empty()) {
      const auto slot = slots.claim();
      if (!slot) return;
      const auto [c, p] = waiting.front();
      waiting.pop_front();
      serve(*c, p, slot);
    }
  }
  bool poll() {
    bool progress = false;
    for (auto& c : chans) {
      c.in.poll([&](const Packet& p) {
        progress = true;
        if (!needs_slot(p)) return serve(c, p, std::nullopt);
        // Behind earlier waiters, or no slot free: wait (keeps arrival order).
        const auto slot = waiting.empty() ? slots.claim() : std::nullopt;
        if (slot) return serve(c, p, slot);
        waiting.emplace_back(&c, p);
      });
    }
    // DMA completions, in order; the host's are answered on the PCIe channel.
    const uint64_t engine_done = dma::completed(hal, cfg.engine_regs);
    while (!submitted.empty() && submitted_count - submitted.size() < engine_done) {
      const Request g = submitted.front();
      submitted.pop_front();
      progress = true;
      if (g.tag == 0) {
        local_completed = g.ticket;
        continue;
      }
      if (delivered && g.dst) delivered(g.tag, g.dst, g.length);
      chans.front().pending.push_back(message(kDmaDone, AckBody{g.tag, 0, g.dst}));
      hal.protocol_end(kTraceKeySlmpm | g.tag, {});
      if (g.slot) release(g.dst);
      ++done;
    }
    admit_waiting();
    for (auto& c : chans) {
      if (!c.pending.empty()) c.out.flush(c.pending);
      resend_due(c);
    }
    return progress;
  }
  void finish() {
    for (auto& c : chans) {
      while (!c.pending.empty()) {
        c.out.flush(c.pending);
        resend_due(c);
        if (!c.pending.empty()) hal.compute(poll_cycles);
      }
      if (!c.resend.on) continue;
      const bool ok = close_resend(
          hal, c.out, c.in,
          [&] {
            c.in.poll([&](const Packet& p) {
              hal.fail(fmt::format("SLMPM: {} from the host after the last transfer", describe(p)));
            });
          },
          c.resend, poll_cycles);
      if (!ok) fail_lost(hal, "accelerator to host", cfg.ethernet_link, c.out, c.resend);
    }
  }

  Hal& hal;
  AcceleratorSlmpmConfig cfg;
  Delivered delivered;
  uint64_t poll_cycles;
  std::deque<Chan> chans;  // stable addresses
  std::map<uint32_t, Incoming> smt;
  std::deque<Request> submitted;
  uint64_t submitted_count = 0, done = 0;
  uint64_t next_ticket = 1, local_completed = 0;
  ReceiveSlots slots;
  // Headers and GET requests that need a receive slot while every slot is busy wait here, in
  // arrival order, until a delivery frees one.
  std::deque<std::pair<Chan*, Packet>> waiting;
};

AcceleratorSlmpm::AcceleratorSlmpm(Hal& hal, const AcceleratorSlmpmConfig& cfg, Delivered delivered,
                                   uint64_t poll_cycles)
    : s_(std::make_unique<State>(hal, cfg, std::move(delivered), poll_cycles)) {}

AcceleratorSlmpm::~AcceleratorSlmpm() = default;

bool AcceleratorSlmpm::poll() {
  return s_->poll();
}

uint64_t AcceleratorSlmpm::completed() const {
  return s_->done;
}

uint64_t AcceleratorSlmpm::local_dma(uint64_t src, uint64_t dst, uint64_t n) {
  const uint64_t ticket = s_->next_ticket++;
  s_->submit(src, dst, n);
  s_->submitted.push_back({0, dst, static_cast<uint32_t>(n), false, ticket});
  return ticket;
}

bool AcceleratorSlmpm::local_done(uint64_t ticket) const {
  return s_->local_completed >= ticket;
}

void AcceleratorSlmpm::finish() {
  s_->finish();
}

void accelerator_serve(Hal& hal, const AcceleratorSlmpmConfig& cfg, uint64_t transfers,
                       const Delivered& delivered, uint64_t poll_cycles) {
  AcceleratorSlmpm slmpm(hal, cfg, delivered, poll_cycles);
  while (slmpm.completed() < transfers) {
    if (!slmpm.poll()) hal.compute(poll_cycles);
  }
  slmpm.finish();
}

}  // namespace hs::fw::slmpm
