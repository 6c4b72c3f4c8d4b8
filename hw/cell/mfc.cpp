#include "hw/cell/mfc.h"

#include <fmt/format.h>

#include "hw/hybrid/address_map.h"
#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/kernel/worker_stack.h"
#include "tlm/params/param_registry.h"
#include "tlm/payload/extensions.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::cell {

namespace mfc = hybrid::amap::mfc;
using sc_core::sc_time;

constexpr uint32_t kEibBlock = 128;  // transfers never cross a 128-byte EA boundary
Mfc::Mfc(sc_core::sc_module_name name, int initiator_id, uint64_t local_store_bytes)
    : sc_module(name),
      ea_port("ea_port"),
      ls_port("ls_port"),
      irq(std::string(this->name()) + ".irq"),
      ls_bytes_(local_store_bytes),
      regs_("regs", sc_time(2, sc_core::SC_NS)),
      stats_(this->name()),
      gets_(stats_.counter("gets", "commands", "GET commands (EA -> local store)")),
      puts_(stats_.counter("puts", "commands", "PUT commands (local store -> EA)")),
      bytes_in_(stats_.counter("bytes_get", "B", "bytes moved into the local store")),
      bytes_out_(stats_.counter("bytes_put", "B", "bytes moved out of the local store")),
      transfers_done_(stats_.counter("transfers", "transfers", "EIB transfers (<= 128 B)")),
      queue_depth_(stats_.occupancy("queue_depth", "commands", "commands in the queue")),
      command_latency_(stats_.histogram("command_latency", "ns", "enqueue to completion")),
      track_(TransactionTrace::instance().track(this->name())),
      depth_track_(
          TransactionTrace::instance().counter(std::string(this->name()) + ".queue", "commands")) {
  ParamScope p(this->name());
  const auto outstanding =
      p.integer("outstanding", 8, "transfers", "EIB transfers the MFC keeps in flight",
                Range::between(1, 64));
  for (int i = 0; i < outstanding; ++i) {
    // Workers never return, and a thread's stack is discarded without unwinding at the end
    // of simulation: the module owns each worker's payload so it is destroyed properly.
    auto& txn = *worker_payloads_.emplace_back(std::make_unique<TaggedPayload<InitiatorExt>>());
    txn.ext.initiator_id = initiator_id;
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(kWorkerStack);
    sc_core::sc_spawn([this, &txn] { worker(txn.gp); }, sc_core::sc_gen_unique_name("worker"),
                      &opts);
  }
  regs_.define(
      mfc::kLsa, 4, "LSA", [this] { return staged_lsa_; },
      [this](uint64_t v) { staged_lsa_ = static_cast<uint32_t>(v); });
  regs_.define(
      mfc::kEa, 8, "EA", [this] { return staged_ea_; }, [this](uint64_t v) { staged_ea_ = v; });
  regs_.define(
      mfc::kSize, 4, "SIZE", [this] { return staged_size_; },
      [this](uint64_t v) { staged_size_ = static_cast<uint32_t>(v); });
  regs_.define(
      mfc::kTag, 4, "TAG", [this] { return staged_tag_; },
      [this](uint64_t v) { staged_tag_ = static_cast<uint32_t>(v); });
  regs_.define(mfc::kCmd, 4, "CMD", nullptr,
               [this](uint64_t v) { enqueue(static_cast<uint32_t>(v)); });
  regs_.define(
      mfc::kQueueSpace, 4, "QSPACE", [this] { return mfc::kQueueEntries - queue_.size(); },
      nullptr);
  regs_.define(
      mfc::kTagMask, 4, "TAG_MASK", [this] { return tag_mask_; },
      [this](uint64_t v) { tag_mask_ = static_cast<uint32_t>(v); });
  regs_.define(
      mfc::kTagStatus, 4, "TAG_STATUS", [this] { return tag_status(); }, nullptr);
  regs_.define(
      mfc::kError, 4, "ERROR", [this] { return error_; }, nullptr);
  SignalTrace::instance().add(queue_depth_.level, std::string(this->name()) + ".queue_depth");
}

uint32_t Mfc::tag_status() const {
  uint32_t idle = 0;
  for (unsigned t = 0; t < 32; ++t) idle |= (tag_outstanding_[t] == 0 ? 1u : 0u) << t;
  return idle & tag_mask_;
}

std::string Mfc::validate(uint32_t opcode) const {
  if (opcode != mfc::kCmdGet && opcode != mfc::kCmdPut) {
    return fmt::format("unknown MFC command {:#x} (GET is {:#x}, PUT is {:#x})", opcode,
                       mfc::kCmdGet, mfc::kCmdPut);
  }
  if (queue_.size() >= mfc::kQueueEntries) {
    return "command queue overflow: 16 commands already queued (wait for queue space)";
  }
  const uint32_t s = staged_size_;
  if (s == 0 || s > mfc::kMaxTransfer) {
    return fmt::format("transfer size {} B (must be 1..{} B)", s, mfc::kMaxTransfer);
  }
  const bool small = s == 1 || s == 2 || s == 4 || s == 8;
  if (!small && s % 16 != 0) {
    return fmt::format("transfer size {} B (must be 1, 2, 4, 8 or a multiple of 16)", s);
  }
  const uint32_t align = small ? s : 16;
  if (staged_lsa_ % align != 0 || staged_ea_ % align != 0) {
    return fmt::format("misaligned transfer: LSA {:#x}, EA {:#x}, size {} B need {}-byte alignment",
                       staged_lsa_, staged_ea_, s, align);
  }
  if (uint64_t{staged_lsa_} + s > ls_bytes_) {
    return fmt::format("LSA {:#x} + {} B runs past the {} KiB local store", staged_lsa_, s,
                       ls_bytes_ / 1024);
  }
  if (staged_tag_ >= 32) return fmt::format("tag {} (tags are 0..31)", staged_tag_);
  return "";
}

void Mfc::enqueue(uint32_t opcode) {
  const std::string why = validate(opcode);
  if (!why.empty()) {
    error_ = 1;
    CheckRegistry::instance().fail("MFC: DMA commands are valid", name(),
                                   "rejected DMA command: " + why);
    return;
  }
  const sc_time now = hs::now();
  Command& c = queue_.emplace_back(
      Command{next_id_++, opcode, staged_lsa_, staged_size_, staged_tag_, staged_ea_, 0, now});
  ++tag_outstanding_[c.tag];
  queue_depth_.set(static_cast<int64_t>(queue_.size()), now);
  TransactionTrace::instance().count(depth_track_, now, static_cast<double>(queue_.size()));
  ++(opcode == mfc::kCmdGet ? gets_ : puts_);
  uint32_t off = 0;
  while (off < c.size) {
    const uint64_t ea = c.ea + off;
    const uint32_t len =
        static_cast<uint32_t>(std::min<uint64_t>(c.size - off, kEibBlock - (ea % kEibBlock)));
    transfers_.push_back({&c, off, len});
    ++c.transfers_left;
    off += len;
  }
  transfer_ready_.notify(sc_core::SC_ZERO_TIME);
}

void Mfc::move(tlm_utils::simple_initiator_socket<Mfc>& port, tlm::tlm_command cmd, uint64_t addr,
               uint8_t* data, uint32_t len, const Command& c, tlm::tlm_generic_payload& gp,
               sc_time& delay) {
  prepare(gp, cmd, addr, data, len);
  port->b_transport(gp, delay);
  if (!gp.is_response_ok()) {
    error_ = 2;
    CheckRegistry::instance().fail(
        "MFC: transfers are accepted by their target", name(),
        fmt::format("{} command (tag {}) {} {} B at {} address {:#x}: {}",
                    c.opcode == mfc::kCmdGet ? "GET" : "PUT", c.tag,
                    cmd == tlm::TLM_READ_COMMAND ? "reading" : "writing", len,
                    &port == &ea_port ? "effective" : "local-store", addr,
                    gp.get_response_string()));
  }
}

void Mfc::worker(tlm::tlm_generic_payload& gp) {
  uint8_t buf[kEibBlock];
  for (;;) {
    while (transfers_.empty()) sc_core::wait(transfer_ready_);
    Transfer t = transfers_.front();
    transfers_.pop_front();
    Command& c = *t.cmd;
    // Both halves of a transfer run on the worker's local time; it synchronises once.
    sc_time delay = sc_core::SC_ZERO_TIME;
    if (c.opcode == mfc::kCmdGet) {
      move(ea_port, tlm::TLM_READ_COMMAND, c.ea + t.offset, buf, t.len, c, gp, delay);
      move(ls_port, tlm::TLM_WRITE_COMMAND, c.lsa + t.offset, buf, t.len, c, gp, delay);
      bytes_in_ += t.len;
    } else {
      move(ls_port, tlm::TLM_READ_COMMAND, c.lsa + t.offset, buf, t.len, c, gp, delay);
      move(ea_port, tlm::TLM_WRITE_COMMAND, c.ea + t.offset, buf, t.len, c, gp, delay);
      bytes_out_ += t.len;
    }
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    ++transfers_done_;
    for (const auto& w : transfer_watches_) w(t.len, hs::now());
    if (--c.transfers_left == 0) complete(c);
  }
}

void Mfc::complete(Command& c) {
  const sc_time now = hs::now();
  command_latency_.sample((now - c.issued).to_seconds() * 1e9);
  for (const auto& w : command_watches_) w(c.issued, now);
  if (track_ >= 0) {
    const nlohmann::json args = {
        {"command", c.id}, {"tag", c.tag}, {"lsa", c.lsa}, {"ea", c.ea}, {"bytes", c.size}};
    TransactionTrace::instance().async_span(track_, c.opcode == mfc::kCmdGet ? "GET" : "PUT",
                                            c.issued, now, &args);
  }
  const uint32_t tag = c.tag;
  queue_.remove_if([&c](const Command& x) { return &x == &c; });
  queue_depth_.set(static_cast<int64_t>(queue_.size()), now);
  TransactionTrace::instance().count(depth_track_, now, static_cast<double>(queue_.size()));
  irq.raise(mfc::kIrqQueueSpace);
  if (--tag_outstanding_[tag] == 0) irq.raise(mfc::kIrqTagGroup);
}

}  // namespace hs::cell
