// The SPE's atomic unit: the immediate lock-line commands GETLLAR, PUTLLC and PUTLLUC, which
// bypass the MFC's queues.
//
// - GETLLAR loads the 128-byte line at an effective address into the local store and
//   reserves it.
// - PUTLLC stores a local-store line at the effective address only if this unit still holds
//   the reservation of that line; either way the reservation ends. Its status says whether it
//   stored.
// - PUTLLUC stores unconditionally (and ends a reservation of the same line).
// The unit's atomic cache (`cache_lines` lines) and the reservations are kept coherent by the
// accelerator's snoop (lock_line.h says when a reservation is lost and what the cache
// holds). A GETLLAR of a cached line and a store into a line the cache holds modified stay in
// the unit; a GETLLAR that misses loads the line across the EIB, and a store into a line held
// shared or not at all claims it with a 128-byte write across the EIB. Each command also
// takes `command_cycles` of the unit's own and its local-store access; a PUTLLC without its
// reservation touches nothing else. One command at a time: the SPU reads the atomic status
// (channel MFC_RdAtomicStat) after each before it issues the next, as the architecture
// requires; a second command issued before is refused. The check and the store of a PUTLLC
// happen at one instant, so no other write lands between them.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>

#include "hw/cell/lock_line.h"
#include "hw/cell/mfc_command.h"
#include "tlm/payload/extensions.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/clock.h"

namespace hs::cell {

class AtomicUnit : public sc_core::sc_module {
 public:
  using Socket = tlm::tlm_initiator_socket<>;

  AtomicUnit(sc_core::sc_module_name name, double spu_clock_hz, Element element,
             LockLineReservations& reservations, Socket& ea_port, Socket& ls_port,
             int initiator_id);

  // Starts an atomic command; "" or the rule it breaks (nothing starts then).
  std::string issue(MfcKind kind, uint32_t lsa, uint64_t ea);
  bool status_ready() const { return status_ready_; }
  uint32_t take_status();
  // A queued PUTQLLUC of this SPE stored the line at `ea`: a reservation of it ends.
  void stored(uint64_t ea);

  // The atomic status became readable; the reservation was lost (the SPU's event).
  std::function<void()> on_status;
  std::function<void()> on_reservation_lost;

 private:
  void run();
  bool move(Socket& port, tlm::tlm_command cmd, uint64_t addr, sc_core::sc_time& delay);
  // The line at `ea` to or from memory on the debug path: no bus time, no snoop.
  bool touch(tlm::tlm_command cmd, uint64_t ea);
  // Stores the local-store line at `lsa` to `ea`: in the cache if it holds the line modified,
  // else across the EIB (claiming it).
  void store(uint32_t lsa, uint64_t ea, sc_core::sc_time& delay);

  Clock clock_;
  uint64_t command_cycles_;
  LockLineReservations& reservations_;
  int holder_;
  Socket& ea_port_;
  Socket& ls_port_;
  TaggedPayload<InitiatorExt> txn_;
  std::array<uint8_t, LockLineReservations::kLine> line_{};
  struct Pending {
    MfcKind kind;
    uint32_t lsa;
    uint64_t ea;
  };
  bool busy_ = false;
  Pending pending_{};
  sc_core::sc_event start_;
  bool status_ready_ = false;
  uint32_t status_ = 0;

  StatGroup stats_;
  Counter& getllar_;
  Counter& putllc_;
  Counter& putllc_failed_;
  Counter& putlluc_;
  Counter& lost_;
  Counter& hits_;
  Counter& misses_;
};

}  // namespace hs::cell
