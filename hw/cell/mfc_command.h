// MFC commands: what an opcode asks for, the DMA size and alignment rules, and the ordering
// rules of one command queue. Pure functions, so the MFC (mfc.h) and the tests share them.
//
// Opcodes (spe_interface.h): GET and PUT with their fenced (f), barriered (b) and list (l)
// forms; SNDSIG (a 4-byte PUT into a signal-notification register) with f and b; the
// ordering commands BARRIER, EIEIO and SYNC; PUTQLLUC (a queued lock-line store); and the
// immediate atomic commands GETLLAR, PUTLLC and PUTLLUC, which bypass the queues (the atomic
// unit runs them: atomic_unit.h). The proxy queue (commands written into an SPE's problem
// state by the PPE or any other master) takes neither lists nor atomic commands.
//
// Ordering within one queue (the SPU's and the proxy's are independent), for commands A
// issued before B:
//   - B waits for A to complete when B is fenced or barriered and A has B's tag;
//   - B waits for A when A is barriered and has B's tag (a barrier orders the commands
//     after it too; a fence only itself);
//   - B waits for A when either is BARRIER, EIEIO or SYNC, whatever the tags.
// Anything else may run in any order, and overlap: the MFC starts eligible commands oldest
// first. In the model a transfer's data has landed when it completes, so EIEIO and SYNC
// order exactly as BARRIER does.
//
// Size and alignment (every transfer, and every element of a list):
//   - 1, 2, 4 or 8 bytes, with the local-store and effective addresses naturally aligned
//     and alike in their low four bits (the same offset within a quadword); or
//   - a multiple of 16 bytes up to 16 KiB, both addresses 16-byte aligned (128-byte
//     multiples on 128-byte boundaries are the fast case: the EIB moves 128-byte blocks).
//   A size of 0 moves nothing and completes in order.
// Lists: 1 to 2048 elements of 8 bytes, the list 8-byte aligned in the local store; each
// element moves to or from the local store just after the previous one (element i's
// local-store address is the running address, rounded down to 16 bytes, plus its effective
// address's low four bits; the running address advances by the element's size, at least 16).
// Atomic commands move one 128-byte line, both addresses 128-byte aligned.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "hw/cell/spe_interface.h"

namespace hs::cell {

enum class MfcIssuer { Spu, Proxy };
enum class MfcKind { Get, Put, Sndsig, Barrier, Eieio, Sync, Putqlluc, Getllar, Putllc, Putlluc };
// How a command orders against the commands before it (see above).
enum class MfcOrder { None, Fence, Barrier, All };

struct MfcOpcode {
  MfcKind kind;
  MfcOrder order;
  bool list;
  // Runs through a queue (not an immediate atomic command).
  bool queued() const {
    return kind != MfcKind::Getllar && kind != MfcKind::Putllc && kind != MfcKind::Putlluc;
  }
  // Moves data from the effective address into the local store.
  bool inbound() const { return kind == MfcKind::Get || kind == MfcKind::Getllar; }
  // Moves data at all (the ordering commands do not).
  bool moves_data() const { return order != MfcOrder::All; }
};

// The command an opcode (the low 16 bits of a command word) names, or nothing if `issuer`
// may not issue it.
std::optional<MfcOpcode> decode_opcode(uint32_t opcode, MfcIssuer issuer);
// "GETLF", "SNDSIGB", ...; an unknown opcode in hex.
std::string opcode_name(uint32_t opcode);

// The size and alignment rules above: "" when the transfer keeps them, else the rule it
// breaks, in words.
std::string transfer_rule(uint32_t size, uint64_t lsa, uint64_t ea);
// A list command's own rules (its list of `list_bytes` at `list_lsa`).
std::string list_rule(uint32_t list_bytes, uint64_t list_lsa);
// An atomic command's line.
std::string lock_line_rule(uint64_t lsa, uint64_t ea);

// One queued command as its queue's ordering sees it.
struct OrderKey {
  uint32_t tag;
  MfcOrder order;
  bool done;
};
// Which of `n` queued commands (oldest first) may start: bit i for entry i. n <= 32.
uint32_t startable(const OrderKey* entries, size_t n);

}  // namespace hs::cell
