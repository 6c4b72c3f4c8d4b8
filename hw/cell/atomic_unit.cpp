#include "hw/cell/atomic_unit.h"

#include <fmt/format.h>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include "tlm/check/checker.h"
#include "tlm/kernel/worker_stack.h"
#include "tlm/params/param_registry.h"

namespace hs::cell {

using sc_core::sc_time;

AtomicUnit::AtomicUnit(sc_core::sc_module_name name, double spu_clock_hz, Element element,
                       LockLineReservations& reservations, Socket& ea_port, Socket& ls_port,
                       int initiator_id)
    : sc_module(name),
      clock_(spu_clock_hz),
      reservations_(reservations),
      ea_port_(ea_port),
      ls_port_(ls_port),
      stats_(this->name()),
      getllar_(stats_.counter("getllar", "commands", "GETLLAR: line loaded and reserved")),
      putllc_(stats_.counter("putllc", "commands", "PUTLLC that stored (reservation held)")),
      putllc_failed_(stats_.counter("putllc_failed", "commands",
                                    "PUTLLC that did not store (reservation lost or never held)")),
      putlluc_(stats_.counter("putlluc", "commands", "PUTLLUC: unconditional line stores")),
      lost_(stats_.counter("reservations_lost", "reservations",
                           "reservations lost to another element's write")),
      hits_(stats_.counter("cache_hits", "commands",
                           "GETLLARs of a cached line and stores into a modified one (no bus)")),
      misses_(stats_.counter("cache_misses", "commands",
                             "GETLLARs and stores that went across the EIB")) {
  ParamScope p(this->name());
  command_cycles_ = static_cast<uint64_t>(
      p.integer("command_cycles", 8, "cycles",
                "SPU cycles the atomic unit takes per command besides its bus traffic",
                Range::between(0, 10000)));
  const auto lines = static_cast<int>(p.integer("cache_lines", 4, "lines",
                                                "128-byte lines the atomic unit's cache holds",
                                                Range::between(1, 64)));
  txn_.ext.initiator_id = initiator_id;
  holder_ = reservations_.add_holder(element, lines, [this] {
    ++lost_;
    if (on_reservation_lost) on_reservation_lost();
  });
  sc_core::sc_spawn_options opts;
  opts.set_stack_size(kWorkerStack);
  sc_core::sc_spawn([this] { run(); }, "run", &opts);
}

std::string AtomicUnit::issue(MfcKind kind, uint32_t lsa, uint64_t ea) {
  if (busy_ || status_ready_) {
    return "an atomic command was issued before the previous one's atomic status was read "
           "(MFC_RdAtomicStat)";
  }
  if (std::string why = lock_line_rule(lsa, ea); !why.empty()) return why;
  busy_ = true;
  pending_ = {kind, lsa, ea};
  start_.notify(sc_core::SC_ZERO_TIME);
  return "";
}

uint32_t AtomicUnit::take_status() {
  status_ready_ = false;
  return status_;
}

void AtomicUnit::stored(uint64_t ea) {
  if (reservations_.holds(holder_, ea)) reservations_.release(holder_);
}

bool AtomicUnit::move(Socket& port, tlm::tlm_command cmd, uint64_t addr, sc_time& delay) {
  tlm::tlm_generic_payload& gp = txn_.gp;
  prepare(gp, cmd, addr, line_.data(), static_cast<unsigned>(line_.size()));
  port->b_transport(gp, delay);
  if (gp.is_response_ok()) return true;
  CheckRegistry::instance().fail("MFC: transfers are accepted by their target", name(),
                                 fmt::format("atomic command {} 128 B at {} address {:#x}: {}",
                                             cmd == tlm::TLM_READ_COMMAND ? "reading" : "writing",
                                             &port == &ea_port_ ? "effective" : "local-store", addr,
                                             gp.get_response_string()));
  return false;
}

bool AtomicUnit::touch(tlm::tlm_command cmd, uint64_t ea) {
  tlm::tlm_generic_payload& gp = txn_.gp;
  prepare(gp, cmd, ea, line_.data(), static_cast<unsigned>(line_.size()));
  if (ea_port_->transport_dbg(gp) == line_.size()) return true;
  CheckRegistry::instance().fail("MFC: transfers are accepted by their target", name(),
                                 fmt::format("atomic command on the line at {:#x}: not memory "
                                             "an atomic cache can hold",
                                             ea));
  return false;
}

void AtomicUnit::store(uint32_t lsa, uint64_t ea, sc_time& delay) {
  if (!move(ls_port_, tlm::TLM_READ_COMMAND, lsa, delay)) return;
  if (reservations_.state(holder_, ea) == LockLineReservations::State::Modified) {
    ++hits_;
    touch(tlm::TLM_WRITE_COMMAND, ea);
  } else {
    ++misses_;
    move(ea_port_, tlm::TLM_WRITE_COMMAND, ea, delay);
  }
  reservations_.cache(holder_, ea, true);
}

void AtomicUnit::run() {
  for (;;) {
    while (!busy_) sc_core::wait(start_);
    const Pending c = pending_;
    sc_time delay = clock_.cycles(command_cycles_);
    uint32_t status = 0;
    // Each case performs its accesses back to back at this instant (their delays summed):
    // a PUTLLC's check and store see the same reservation.
    switch (c.kind) {
      case MfcKind::Getllar: {
        const bool cached =
            reservations_.state(holder_, c.ea) != LockLineReservations::State::Absent;
        (cached ? hits_ : misses_) += 1;
        if (cached ? touch(tlm::TLM_READ_COMMAND, c.ea)
                   : move(ea_port_, tlm::TLM_READ_COMMAND, c.ea, delay)) {
          reservations_.reserve(holder_, c.ea);
          reservations_.cache(
              holder_, c.ea,
              reservations_.state(holder_, c.ea) == LockLineReservations::State::Modified);
          move(ls_port_, tlm::TLM_WRITE_COMMAND, c.lsa, delay);
        }
        ++getllar_;
        status = spe::kAtomicGetllarDone;
        break;
      }
      case MfcKind::Putllc:
        if (reservations_.holds(holder_, c.ea)) {
          reservations_.release(holder_);
          store(c.lsa, c.ea, delay);
          ++putllc_;
          status = 0;
        } else {
          reservations_.release(holder_);
          ++putllc_failed_;
          status = spe::kAtomicPutllcFailed;
        }
        break;
      default:  // PUTLLUC
        stored(c.ea);
        store(c.lsa, c.ea, delay);
        ++putlluc_;
        status = spe::kAtomicPutllucDone;
        break;
    }
    sc_core::wait(delay);
    busy_ = false;
    status_ = status;
    status_ready_ = true;
    if (on_status) on_status();
  }
}

}  // namespace hs::cell
