#include "hw/cell/mfc.h"

#include <fmt/format.h>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include <algorithm>
#include <map>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/kernel/worker_stack.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::cell {

using sc_core::sc_time;

namespace {
constexpr uint32_t kEibBlock = 128;  // pieces never cross a 128-byte EA boundary
constexpr const char* kRuleCheck = "MFC: commands keep the DMA rules";

const char* issuer_name(MfcIssuer i) {
  return i == MfcIssuer::Spu ? "SPU" : "proxy";
}

// A command's name as a span on the trace, which keeps the pointer: one interned copy each.
const char* span_name(uint32_t opcode) {
  static std::map<uint32_t, std::string> names;
  auto it = names.find(opcode);
  if (it == names.end()) it = names.emplace(opcode, opcode_name(opcode)).first;
  return it->second.c_str();
}
}  // namespace

Mfc::Mfc(sc_core::sc_module_name name, const std::string& spe_name, double spu_clock_hz,
         Element element, LockLineReservations& reservations, int initiator_id,
         uint64_t local_store_bytes)
    : sc_module(name),
      ea_port("ea_port"),
      ls_port("ls_port"),
      spe_name_(spe_name),
      ls_bytes_(local_store_bytes),
      stats_(this->name()),
      gets_(stats_.counter("gets", "commands", "GET commands (EA -> local store), lists included")),
      puts_(stats_.counter("puts", "commands",
                           "PUT commands (local store -> EA), lists and PUTQLLUC included")),
      lists_(stats_.counter("list_commands", "commands", "GETL and PUTL commands")),
      list_elements_(stats_.counter("list_elements", "elements", "list elements read")),
      stalls_(stats_.counter("list_stalls", "stalls", "lists stopped by stall-and-notify")),
      sndsigs_(stats_.counter("sndsigs", "commands", "SNDSIG commands")),
      ordering_(stats_.counter("ordering_commands", "commands", "BARRIER, EIEIO and SYNC")),
      proxy_commands_(stats_.counter("proxy_commands", "commands",
                                     "commands queued through the problem state (proxy queue)")),
      proxy_full_(stats_.counter("proxy_queue_full", "commands",
                                 "proxy commands refused because the proxy queue was full")),
      bytes_in_(stats_.counter("bytes_get", "B", "bytes moved into the local store")),
      bytes_out_(stats_.counter("bytes_put", "B", "bytes moved out of the local store")),
      transfers_done_(stats_.counter("transfers", "transfers", "EIB transfers (<= 128 B)")),
      command_latency_(stats_.histogram("command_latency", "ns", "enqueue to completion")),
      track_(TransactionTrace::instance().track(this->name())) {
  ParamScope p(this->name());
  const auto outstanding =
      p.integer("outstanding", 8, "transfers", "EIB transfers the MFC keeps in flight",
                Range::between(1, 64));
  spu_queue_.issuer = MfcIssuer::Spu;
  spu_queue_.capacity = spe::kSpuQueueEntries;
  spu_queue_.depth = &stats_.occupancy("queue_depth", "commands", "commands in the SPU's queue");
  spu_queue_.depth_track =
      TransactionTrace::instance().counter(std::string(this->name()) + ".queue", "commands");
  proxy_queue_.issuer = MfcIssuer::Proxy;
  proxy_queue_.capacity = spe::kProxyQueueEntries;
  proxy_queue_.depth =
      &stats_.occupancy("proxy_queue_depth", "commands", "commands in the proxy queue");
  proxy_queue_.depth_track =
      TransactionTrace::instance().counter(std::string(this->name()) + ".proxy_queue", "commands");
  for (int i = 0; i < outstanding; ++i) {
    // Workers never return, and a thread's stack is discarded without unwinding at the end
    // of simulation: the module owns each worker's payload so it is destroyed properly.
    auto& txn = *worker_payloads_.emplace_back(std::make_unique<TaggedPayload<InitiatorExt>>());
    txn.ext.initiator_id = initiator_id;  // pieces act for the SPU whose MFC moves them
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(kWorkerStack);
    sc_core::sc_spawn([this, &txn] { worker(txn.gp); }, sc_core::sc_gen_unique_name("worker"),
                      &opts);
  }
  atomic_ = std::make_unique<AtomicUnit>("atomic", spu_clock_hz, element, reservations, ea_port,
                                         ls_port, initiator_id);
  SignalTrace::instance().add(spu_queue_.depth->level, std::string(this->name()) + ".queue_depth");
  SignalTrace::instance().add(proxy_queue_.depth->level,
                              std::string(this->name()) + ".proxy_queue_depth");
}

// ---- Commands in -------------------------------------------------------------------------

std::string Mfc::check(const Request& r, MfcIssuer issuer, MfcOpcode& op) const {
  const uint32_t opcode = r.command_word & 0xFFFF;
  const auto decoded = decode_opcode(opcode, issuer);
  if (!decoded) {
    return issuer == MfcIssuer::Proxy && decode_opcode(opcode, MfcIssuer::Spu)
               ? "the proxy queue takes no list or atomic commands"
               : "not an MFC command";
  }
  op = *decoded;
  if (op.queued() && r.tag >= spe::kTags) {
    return fmt::format("tag {} (tags are 0 to 31)", r.tag);
  }
  if (!op.moves_data()) return "";
  if (op.list) {
    if (std::string why = list_rule(r.size, r.ea & 0xFFFF'FFFF); !why.empty()) return why;
    if ((r.ea & 0xFFFF'FFFF) + r.size > ls_bytes_) {
      return fmt::format("the list at LSA {:#x} + {} B runs past the {} KiB local store",
                         r.ea & 0xFFFF'FFFF, r.size, ls_bytes_ / 1024);
    }
    return "";
  }
  const uint32_t size = op.kind == MfcKind::Putqlluc ? spe::kLockLine : r.size;
  if (op.kind == MfcKind::Sndsig && size != 4) {
    return fmt::format("SNDSIG moves 4 bytes, not {}", size);
  }
  std::string why =
      op.kind == MfcKind::Putqlluc ? lock_line_rule(r.lsa, r.ea) : transfer_rule(size, r.lsa, r.ea);
  if (why.empty() && uint64_t{r.lsa} + size > ls_bytes_) {
    why = fmt::format("LSA {:#x} + {} B runs past the {} KiB local store", r.lsa, size,
                      ls_bytes_ / 1024);
  }
  return why;
}

void Mfc::fail_request(const Request& r, MfcIssuer issuer, const std::string& rule) const {
  CheckRegistry::instance().fail(
      kRuleCheck, name(),
      fmt::format("{}: {} command {} (tag {}, LSA {:#x}, EA {:#x}, size {}) refused: {}", spe_name_,
                  issuer_name(issuer), opcode_name(r.command_word & 0xFFFF), r.tag, r.lsa, r.ea,
                  r.size, rule));
}

void Mfc::fail(const Command& c, const std::string& rule) const {
  CheckRegistry::instance().fail(
      kRuleCheck, name(),
      fmt::format("{}: {} command {} (tag {}, LSA {:#x}, EA {:#x}, size {}): {}", spe_name_,
                  issuer_name(c.issuer), opcode_name(c.opcode), c.tag, c.lsa, c.ea, c.size, rule));
}

void Mfc::spu_command(const Request& r) {
  MfcOpcode op{};
  if (std::string why = check(r, MfcIssuer::Spu, op); !why.empty()) {
    fail_request(r, MfcIssuer::Spu, why);
    return;
  }
  if (!op.queued()) {
    const std::string why =
        atomic_->issue(op.kind, r.lsa, translate_ ? translate_(r.ea, spe::kLockLine) : r.ea);
    if (!why.empty()) fail_request(r, MfcIssuer::Spu, why);
    return;
  }
  if (spu_queue_.commands.size() >= spu_queue_.capacity) {
    fail_request(r, MfcIssuer::Spu,
                 "the SPU's command queue is full (16 commands): the channel write stalls "
                 "until an entry frees, so firmware waits for the MFC_Cmd channel's count");
    return;
  }
  enqueue(spu_queue_, r, op);
}

uint32_t Mfc::proxy_command(const Request& r) {
  MfcOpcode op{};
  if (std::string why = check(r, MfcIssuer::Proxy, op); !why.empty()) {
    fail_request(r, MfcIssuer::Proxy, why);
    return spe::ps::kCmdInvalid;
  }
  if (proxy_queue_.commands.size() >= proxy_queue_.capacity) {
    ++proxy_full_;
    return spe::ps::kCmdQueueFull;
  }
  ++proxy_commands_;
  enqueue(proxy_queue_, r, op);
  return spe::ps::kCmdEnqueued;
}

void Mfc::enqueue(Queue& q, const Request& r, const MfcOpcode& op) {
  const sc_time now = hs::now();
  Command& c = q.commands.emplace_back();
  c.id = next_id_++;
  c.issuer = q.issuer;
  c.opcode = r.command_word & 0xFFFF;
  c.op = op;
  c.lsa = r.lsa;
  c.size = op.kind == MfcKind::Putqlluc ? spe::kLockLine : r.size;
  c.ea = translate_ && !op.list && op.moves_data() ? translate_(r.ea, c.size) : r.ea;
  c.tag = r.tag;
  c.issued = now;
  c.running_lsa = r.lsa;
  ++q.outstanding[c.tag];
  for (MfcObserver* o : observers_) o->queued(*this, q.issuer, c.id, c.tag, c.op.order);
  q.depth->set(static_cast<int64_t>(q.commands.size()), now);
  TransactionTrace::instance().count(q.depth_track, now, static_cast<double>(q.commands.size()));
  if (op.kind == MfcKind::Get) ++gets_;
  if (op.kind == MfcKind::Put || op.kind == MfcKind::Putqlluc) ++puts_;
  if (op.kind == MfcKind::Sndsig) ++sndsigs_;
  if (op.list) ++lists_;
  if (!op.moves_data()) ++ordering_;
  update_startable(q);
  work_.notify(sc_core::SC_ZERO_TIME);
  settle_all();
}

uint32_t Mfc::free_entries(MfcIssuer issuer) const {
  const Queue& q = queue_of(issuer);
  return q.capacity - static_cast<uint32_t>(q.commands.size());
}

bool Mfc::queue_empty(MfcIssuer issuer) const {
  return queue_of(issuer).commands.empty();
}

uint32_t Mfc::complete_tags(MfcIssuer issuer) const {
  const Queue& q = queue_of(issuer);
  uint32_t done = 0;
  for (uint32_t t = 0; t < spe::kTags; ++t) done |= (q.outstanding[t] == 0 ? 1u : 0u) << t;
  return done;
}

void Mfc::update_startable(Queue& q) {
  OrderKey keys[32];
  size_t n = 0;
  for (const Command& c : q.commands) keys[n++] = {c.tag, c.op.order, false};
  q.startable = startable(keys, n);
}

// ---- Tag-group status and list stalls ----------------------------------------------------

void Mfc::request_tag_update(uint32_t mode) {
  tag_status_ready_ = false;
  tag_update_ = 1 + std::min<uint32_t>(mode, spe::kTagUpdateAll);
  if (mode == spe::kTagUpdateAny && tag_mask_ == 0) {
    CheckRegistry::instance().fail(kRuleCheck, name(),
                                   fmt::format("{}: a tag-status update 'any' with an empty tag "
                                               "mask never completes (the SPU would stall "
                                               "forever): write MFC_WrTagMask first",
                                               spe_name_));
  }
  evaluate_tag_update();
}

uint32_t Mfc::take_tag_status() {
  tag_status_ready_ = false;
  return tag_status_;
}

void Mfc::evaluate_tag_update() {
  if (tag_update_ == 0) return;
  const uint32_t done = complete_tags(MfcIssuer::Spu) & tag_mask_;
  const uint32_t mode = tag_update_ - 1;
  const bool met = mode == spe::kTagUpdateImmediate || (mode == spe::kTagUpdateAny && done != 0) ||
                   (mode == spe::kTagUpdateAll && done == tag_mask_);
  if (!met) return;
  tag_update_ = 0;
  tag_status_ = done;
  for (MfcObserver* o : observers_) o->tag_status(*this, MfcIssuer::Spu, done);
  tag_status_ready_ = true;
  if (listener_) {
    listener_->channel_ready(spe::ch::kRdTagStat);
    if (mode != spe::kTagUpdateImmediate) listener_->raise_events(spe::event::kTagStatusUpdate);
  }
}

void Mfc::set_proxy_query_type(uint32_t type) {
  proxy_query_type_ = std::min<uint32_t>(type, 2);
  evaluate_proxy_query();
}

uint32_t Mfc::read_proxy_tag_status() {
  const uint32_t done = complete_tags(MfcIssuer::Proxy) & proxy_query_mask_;
  for (MfcObserver* o : observers_) o->tag_status(*this, MfcIssuer::Proxy, done);
  return done;
}

void Mfc::evaluate_proxy_query() {
  if (proxy_query_type_ == 0) return;
  const uint32_t done = complete_tags(MfcIssuer::Proxy) & proxy_query_mask_;
  const bool met = proxy_query_type_ == 1 ? done != 0 : done == proxy_query_mask_;
  if (!met) return;
  proxy_query_type_ = 0;  // a query is answered once
  if (listener_) listener_->proxy_query_done();
}

uint32_t Mfc::take_list_stall_status() {
  const uint32_t s = stall_status_;
  stall_status_ = 0;
  return s;
}

void Mfc::ack_list_stall(uint32_t tag) {
  for (Command& c : spu_queue_.commands) {
    if (c.tag == tag && c.stall_told) {
      c.stall_armed = c.stall_told = false;
      work_.notify(sc_core::SC_ZERO_TIME);
    }
  }
}

// ---- The DMA controller ------------------------------------------------------------------

bool Mfc::has_work(const Command& c) const {
  if (c.faulted || c.stall_armed || !c.op.moves_data()) return false;
  if (!c.op.list) return c.done_bytes < c.size;
  return c.elem_size > c.done_bytes || c.elem_index < c.elements();
}

Mfc::Command* Mfc::choose() {
  for (int k = 0; k < 2; ++k) {
    Queue& q = (k == 0) == proxy_first_ ? proxy_queue_ : spu_queue_;
    uint32_t i = 0;
    for (Command& c : q.commands) {
      if ((q.startable >> i++ & 1) && has_work(c)) {
        // Both queues with work: the other goes first next time.
        proxy_first_ = q.issuer == MfcIssuer::Spu;
        return &c;
      }
    }
  }
  return nullptr;
}

bool Mfc::fetch_element(Command& c, sc_time& delay, tlm::tlm_generic_payload& gp) {
  const uint32_t index = c.elem_index++;
  const uint64_t at = (c.ea & 0xFFFF'FFFF) + uint64_t{index} * sizeof(spe::ListElement);
  spe::ListElement e{};
  if (!move(ls_port, tlm::TLM_READ_COMMAND, at, reinterpret_cast<uint8_t*>(&e), sizeof e, c, gp,
            delay)) {
    c.faulted = true;
    return false;
  }
  ++list_elements_;
  const uint32_t size = e.size();
  uint64_t ea = (c.ea & 0xFFFF'FFFF'0000'0000) | e.eal;
  if (translate_) ea = translate_(ea, size);
  const uint32_t lsa = (c.running_lsa & ~0xFu) | (e.eal & 0xF);
  std::string why = transfer_rule(size, lsa, ea);
  if (why.empty() && uint64_t{lsa} + size > ls_bytes_) {
    why = fmt::format("its data at LSA {:#x} + {} B runs past the {} KiB local store", lsa, size,
                      ls_bytes_ / 1024);
  }
  if (!why.empty()) {
    fail(c, fmt::format("list element {} of {} (size {}, EA {:#x}): {}", index, c.elements(), size,
                        ea, why));
    c.faulted = true;
    return false;
  }
  c.elem_lsa = lsa;
  c.elem_ea = ea;
  c.elem_size = size;
  c.done_bytes = 0;
  c.elem_ready = hs::now() + delay;
  c.running_lsa = (c.running_lsa & ~0xFu) + std::max<uint32_t>(size, 16);
  // Stall-and-notify on any element but the last: the list stops once this one has landed.
  if (e.stall_and_notify() && c.elem_index < c.elements()) {
    c.stall_armed = size == 0;  // a non-empty element arms it when its last piece goes out
    c.elem_stall = true;
  } else {
    c.elem_stall = false;
  }
  return true;
}

bool Mfc::next_piece(Command& c, Piece& p, sc_time& delay, tlm::tlm_generic_payload& gp) {
  if (c.op.list) {
    while (c.done_bytes >= c.elem_size) {
      if (c.stall_armed || c.elem_index >= c.elements()) return false;
      if (!fetch_element(c, delay, gp)) return false;
    }
    const uint64_t ea = c.elem_ea + c.done_bytes;
    const auto len = static_cast<uint32_t>(
        std::min<uint64_t>(c.elem_size - c.done_bytes, kEibBlock - ea % kEibBlock));
    p = {&c, c.elem_lsa + c.done_bytes, len, ea, c.elem_ready};
    c.done_bytes += len;
    if (c.done_bytes == c.elem_size && c.elem_stall) c.stall_armed = true;
    return true;
  }
  const uint64_t ea = c.ea + c.done_bytes;
  const auto len =
      static_cast<uint32_t>(std::min<uint64_t>(c.size - c.done_bytes, kEibBlock - ea % kEibBlock));
  p = {&c, c.lsa + c.done_bytes, len, ea, sc_core::SC_ZERO_TIME};
  c.done_bytes += len;
  return true;
}

bool Mfc::move(tlm_utils::simple_initiator_socket<Mfc>& port, tlm::tlm_command cmd, uint64_t addr,
               uint8_t* data, uint32_t len, const Command& c, tlm::tlm_generic_payload& gp,
               sc_time& delay) {
  prepare(gp, cmd, addr, data, len);
  port->b_transport(gp, delay);
  if (gp.is_response_ok()) return true;
  CheckRegistry::instance().fail(
      "MFC: transfers are accepted by their target", name(),
      fmt::format("{}: {} command (tag {}) {} {} B at {} address {:#x}: {}", spe_name_,
                  opcode_name(c.opcode), c.tag,
                  cmd == tlm::TLM_READ_COMMAND ? "reading" : "writing", len,
                  &port == &ea_port ? "effective" : "local-store", addr, gp.get_response_string()));
  return false;
}

void Mfc::worker(tlm::tlm_generic_payload& gp) {
  uint8_t buf[kEibBlock];
  for (;;) {
    Command* cp = choose();
    if (!cp) {
      sc_core::wait(work_);
      continue;
    }
    Command& c = *cp;
    if (!c.started) start(c);
    ++c.in_flight;  // held while this worker works on it, element fetches included
    // Both halves of a piece run on the worker's local time; it synchronises once.
    sc_time delay = sc_core::SC_ZERO_TIME;
    Piece p;
    if (next_piece(c, p, delay, gp)) {
      const sc_time now = hs::now();
      if (p.not_before > now + delay) delay = p.not_before - now;
      const bool in = c.op.inbound();
      bool ok = in ? move(ea_port, tlm::TLM_READ_COMMAND, p.ea, buf, p.len, c, gp, delay)
                   : move(ls_port, tlm::TLM_READ_COMMAND, p.lsa, buf, p.len, c, gp, delay);
      if (ok) {
        ok = in ? move(ls_port, tlm::TLM_WRITE_COMMAND, p.lsa, buf, p.len, c, gp, delay)
                : move(ea_port, tlm::TLM_WRITE_COMMAND, p.ea, buf, p.len, c, gp, delay);
      }
      if (!ok) c.faulted = true;
      if (ok && c.op.kind == MfcKind::Putqlluc) atomic_->stored(p.ea);
      (in ? bytes_in_ : bytes_out_) += p.len;
      if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
      ++transfers_done_;
      for (const auto& w : transfer_watches_) w(p.len, hs::now());
    } else if (delay > sc_core::SC_ZERO_TIME) {
      sc_core::wait(delay);  // element fetches that found nothing to move
    }
    --c.in_flight;
    settle(c);
  }
}

void Mfc::settle(Command& c) {
  if (c.faulted || c.in_flight > 0) return;
  if (c.stall_armed && !c.stall_told) {
    // The stall-and-notify element has landed: the SPU is told, the list waits for its ack.
    c.stall_told = true;
    ++stalls_;
    const bool was = stall_status_ != 0;
    stall_status_ |= 1u << c.tag;
    if (listener_) {
      if (!was) listener_->channel_ready(spe::ch::kRdListStallStat);
      listener_->raise_events(spe::event::kListStall);
    }
    return;
  }
  // A command a worker took had its turn, and keeps it: it completes once nothing is left.
  if (c.stall_armed || has_work(c)) return;
  complete(c);
}

void Mfc::settle_all() {
  // Commands that move nothing (BARRIER, EIEIO, SYNC, size 0) complete as soon as their turn
  // comes; completing one may let the next start.
  bool again = true;
  while (again) {
    again = false;
    for (Queue* q : {&spu_queue_, &proxy_queue_}) {
      uint32_t i = 0;
      for (Command& c : q->commands) {
        const bool may = q->startable >> i++ & 1;
        const bool nothing = !c.op.moves_data() || (!c.op.list && c.size == 0);
        if (may && nothing && c.in_flight == 0) {
          start(c);
          complete(c);
          again = true;
          break;
        }
      }
      if (again) break;
    }
  }
}

void Mfc::start(Command& c) {
  c.started = true;
  for (MfcObserver* o : observers_) o->started(*this, c.issuer, c.id);
}

void Mfc::complete(Command& c) {
  for (MfcObserver* o : observers_) o->completed(*this, c.issuer, c.id);
  const sc_time now = hs::now();
  command_latency_.sample((now - c.issued).to_seconds() * 1e9);
  for (const auto& w : command_watches_) w(c.issued, now);
  if (track_ >= 0) {
    const nlohmann::json args = {{"command", c.id}, {"queue", issuer_name(c.issuer)},
                                 {"tag", c.tag},    {"lsa", c.lsa},
                                 {"ea", c.ea},      {"bytes", c.size}};
    TransactionTrace::instance().async_span(track_, span_name(c.opcode), c.issued, now, &args);
  }
  Queue& q = queue_of(c.issuer);
  const uint32_t tag = c.tag;
  const bool was_full = q.commands.size() == q.capacity;
  q.commands.remove_if([&c](const Command& x) { return &x == &c; });
  q.depth->set(static_cast<int64_t>(q.commands.size()), now);
  TransactionTrace::instance().count(q.depth_track, now, static_cast<double>(q.commands.size()));
  --q.outstanding[tag];
  update_startable(q);
  if (q.issuer == MfcIssuer::Spu) {
    if (was_full && listener_) {
      listener_->channel_ready(spe::ch::kMfcCmd);
      listener_->raise_events(spe::event::kCommandQueueAvailable);
    }
    evaluate_tag_update();
  } else {
    evaluate_proxy_query();
  }
  work_.notify(sc_core::SC_ZERO_TIME);
  settle_all();
}

}  // namespace hs::cell
