#include "hw/cell/mfc_command.h"

#include <fmt/format.h>

namespace hs::cell {

namespace op = spe::op;

namespace {
MfcOrder order_of(uint32_t opcode) {
  if (opcode & op::kBarrierBit) return MfcOrder::Barrier;
  if (opcode & op::kFenceBit) return MfcOrder::Fence;
  return MfcOrder::None;
}
}  // namespace

std::optional<MfcOpcode> decode_opcode(uint32_t opcode, MfcIssuer issuer) {
  const bool proxy = issuer == MfcIssuer::Proxy;
  switch (opcode) {
    case op::kBarrier:
      return MfcOpcode{MfcKind::Barrier, MfcOrder::All, false};
    case op::kEieio:
      return MfcOpcode{MfcKind::Eieio, MfcOrder::All, false};
    case op::kSync:
      return MfcOpcode{MfcKind::Sync, MfcOrder::All, false};
    case op::kPutqlluc:
    case op::kGetllar:
    case op::kPutllc:
    case op::kPutlluc: {
      if (proxy) return std::nullopt;
      const MfcKind k = opcode == op::kPutqlluc  ? MfcKind::Putqlluc
                        : opcode == op::kGetllar ? MfcKind::Getllar
                        : opcode == op::kPutllc  ? MfcKind::Putllc
                                                 : MfcKind::Putlluc;
      return MfcOpcode{k, MfcOrder::None, false};
    }
    default:
      break;
  }
  // GET, PUT and SNDSIG with at most one of the barrier and fence bits; lists of GET and PUT
  // from the SPU only.
  const uint32_t base = opcode & ~(op::kBarrierBit | op::kFenceBit | op::kListBit);
  if ((opcode & op::kBarrierBit) && (opcode & op::kFenceBit)) return std::nullopt;
  const bool list = (opcode & op::kListBit) != 0;
  if (base == op::kGet || base == op::kPut) {
    if (list && proxy) return std::nullopt;
    return MfcOpcode{base == op::kGet ? MfcKind::Get : MfcKind::Put, order_of(opcode), list};
  }
  if (base == op::kSndsig && !list) return MfcOpcode{MfcKind::Sndsig, order_of(opcode), false};
  return std::nullopt;
}

std::string opcode_name(uint32_t opcode) {
  const uint32_t base = opcode & ~(op::kBarrierBit | op::kFenceBit | op::kListBit);
  const char* stem = base == op::kGet      ? "GET"
                     : base == op::kPut    ? "PUT"
                     : base == op::kSndsig ? "SNDSIG"
                                           : nullptr;
  if (stem) {
    std::string s = stem;
    if (opcode & op::kListBit) s += "L";
    if (opcode & op::kBarrierBit) s += "B";
    if (opcode & op::kFenceBit) s += "F";
    return s;
  }
  switch (opcode) {
    case op::kBarrier:
      return "BARRIER";
    case op::kEieio:
      return "EIEIO";
    case op::kSync:
      return "SYNC";
    case op::kGetllar:
      return "GETLLAR";
    case op::kPutllc:
      return "PUTLLC";
    case op::kPutlluc:
      return "PUTLLUC";
    case op::kPutqlluc:
      return "PUTQLLUC";
    default:
      return fmt::format("{:#x}", opcode);
  }
}

std::string transfer_rule(uint32_t size, uint64_t lsa, uint64_t ea) {
  if (size == 0) return "";
  if (size == 1 || size == 2 || size == 4 || size == 8) {
    if (lsa % size != 0 || ea % size != 0) {
      return fmt::format(
          "a {}-byte transfer needs both addresses {}-byte aligned (LSA {:#x}, EA {:#x})", size,
          size, lsa, ea);
    }
    if (lsa % 16 != ea % 16) {
      return fmt::format(
          "a {}-byte transfer needs the LSA and EA at the same offset within a quadword "
          "(LSA {:#x}, EA {:#x})",
          size, lsa, ea);
    }
    return "";
  }
  if (size % 16 != 0 || size > spe::kMaxTransfer) {
    return fmt::format(
        "transfer size {} B: sizes are 1, 2, 4 or 8 bytes, or a multiple of 16 up to 16384", size);
  }
  if (lsa % 16 != 0 || ea % 16 != 0) {
    return fmt::format(
        "a {}-byte transfer needs both addresses 16-byte aligned (LSA {:#x}, EA {:#x})", size, lsa,
        ea);
  }
  return "";
}

std::string list_rule(uint32_t list_bytes, uint64_t list_lsa) {
  if (list_bytes == 0 || list_bytes % 8 != 0 || list_bytes / 8 > spe::kMaxListElements) {
    return fmt::format(
        "list size {} B: a list holds 1 to 2048 elements of 8 bytes (8 to 16384 B, a multiple "
        "of 8)",
        list_bytes);
  }
  if (list_lsa % 8 != 0) {
    return fmt::format("the list at LSA {:#x} must be 8-byte aligned", list_lsa);
  }
  return "";
}

std::string lock_line_rule(uint64_t lsa, uint64_t ea) {
  if (lsa % spe::kLockLine != 0 || ea % spe::kLockLine != 0) {
    return fmt::format(
        "an atomic command moves one 128-byte line: both addresses 128-byte aligned (LSA "
        "{:#x}, EA {:#x})",
        lsa, ea);
  }
  return "";
}

uint32_t startable(const OrderKey* entries, size_t n) {
  uint32_t ok = 0;
  uint32_t pending_tags = 0;  // tags with an earlier command not complete
  uint32_t barrier_tags = 0;  // tags with an earlier barriered command not complete
  bool any_pending = false;   // an earlier command of any tag not complete
  bool all_blocked = false;   // an earlier BARRIER, EIEIO or SYNC not complete
  for (size_t i = 0; i < n; ++i) {
    const OrderKey& e = entries[i];
    const uint32_t bit = 1u << e.tag;
    bool may = !all_blocked && !(barrier_tags & bit);
    if (e.order == MfcOrder::Fence || e.order == MfcOrder::Barrier)
      may = may && !(pending_tags & bit);
    if (e.order == MfcOrder::All) may = may && !any_pending;
    if (may) ok |= 1u << i;
    if (e.done) continue;
    pending_tags |= bit;
    any_pending = true;
    if (e.order == MfcOrder::Barrier) barrier_tags |= bit;
    if (e.order == MfcOrder::All) all_blocked = true;
  }
  return ok;
}

}  // namespace hs::cell
