// The MFC's rules on their own (hw/cell/mfc_command.h): which opcodes each queue takes, the
// DMA size and alignment rules, and the ordering rules of a queue proven equal to a naive
// pairwise reading of the architecture on random queues; and the lock lines' snoop
// (hw/cell/lock_line.h).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "hw/cell/lock_line.h"
#include "hw/cell/mfc_command.h"

using namespace hs::cell;
namespace op = spe::op;

TEST(MfcOpcodes, TheSpuQueueTakesTheArchitecturesCommandsAndNoOthers) {
  const std::set<uint32_t> spu = {0x20, 0x21, 0x22, 0x24, 0x25, 0x26, 0x40, 0x41, 0x42, 0x44, 0x45,
                                  0x46, 0xA0, 0xA1, 0xA2, 0xC0, 0xC8, 0xCC, 0xD0, 0xB4, 0xB0, 0xB8};
  const std::set<uint32_t> proxy = {0x20, 0x21, 0x22, 0x40, 0x41, 0x42,
                                    0xA0, 0xA1, 0xA2, 0xC0, 0xC8, 0xCC};
  for (uint32_t o = 0; o < 0x10000; ++o) {
    EXPECT_EQ(decode_opcode(o, MfcIssuer::Spu).has_value(), spu.count(o) == 1) << std::hex << o;
    EXPECT_EQ(decode_opcode(o, MfcIssuer::Proxy).has_value(), proxy.count(o) == 1) << std::hex << o;
  }
}

TEST(MfcOpcodes, ModifiersDecodeToOrderingAndLists) {
  const auto getlb = *decode_opcode(0x45, MfcIssuer::Spu);
  EXPECT_EQ(getlb.kind, MfcKind::Get);
  EXPECT_EQ(getlb.order, MfcOrder::Barrier);
  EXPECT_TRUE(getlb.list);
  const auto putf = *decode_opcode(0x22, MfcIssuer::Spu);
  EXPECT_EQ(putf.kind, MfcKind::Put);
  EXPECT_EQ(putf.order, MfcOrder::Fence);
  EXPECT_FALSE(putf.list);
  for (uint32_t o : {op::kBarrier, op::kEieio, op::kSync}) {
    EXPECT_EQ(decode_opcode(o, MfcIssuer::Spu)->order, MfcOrder::All);
    EXPECT_FALSE(decode_opcode(o, MfcIssuer::Spu)->moves_data());
  }
  for (uint32_t o : {op::kGetllar, op::kPutllc, op::kPutlluc}) {
    EXPECT_FALSE(decode_opcode(o, MfcIssuer::Spu)->queued());
  }
  EXPECT_TRUE(decode_opcode(op::kPutqlluc, MfcIssuer::Spu)->queued());
  EXPECT_EQ(opcode_name(0x46), "GETLF");
  EXPECT_EQ(opcode_name(0xA1), "SNDSIGB");
  EXPECT_EQ(opcode_name(0xB4), "PUTLLC");
  EXPECT_EQ(opcode_name(0x99), "0x99");
}

namespace {
// The rules as the architecture states them, written the naive way.
bool naive_transfer_ok(uint32_t size, uint64_t lsa, uint64_t ea) {
  if (size == 0) return true;
  if (size < 16) {
    const bool power = size == 1 || size == 2 || size == 4 || size == 8;
    return power && lsa % size == 0 && ea % size == 0 && (lsa & 15) == (ea & 15);
  }
  return size % 16 == 0 && size <= 16384 && lsa % 16 == 0 && ea % 16 == 0;
}
}  // namespace

TEST(MfcTransferRules, SizesAndAlignmentAreCheckedAsTheArchitectureStatesThem) {
  std::mt19937 rng(7);
  const uint32_t sizes[] = {0, 1, 2, 3, 4, 5, 8, 12, 16, 24, 32, 48, 128, 144, 16384, 16400, 32768};
  for (uint32_t size : sizes) {
    for (int i = 0; i < 400; ++i) {
      const uint64_t lsa = rng() % 512, ea = rng() % 4096;
      EXPECT_EQ(transfer_rule(size, lsa, ea).empty(), naive_transfer_ok(size, lsa, ea))
          << size << " " << lsa << " " << ea << ": " << transfer_rule(size, lsa, ea);
    }
  }
  // Each rule is named in words.
  EXPECT_NE(transfer_rule(20000, 0, 0).find("multiple of 16 up to 16384"), std::string::npos);
  EXPECT_NE(transfer_rule(4, 2, 2).find("4-byte aligned"), std::string::npos);
  EXPECT_NE(transfer_rule(4, 4, 8).find("same offset within a quadword"), std::string::npos);
  EXPECT_NE(transfer_rule(32, 16, 8).find("16-byte aligned"), std::string::npos);
}

TEST(MfcTransferRules, ListsHoldOneTo2048ElementsAndAtomicsWholeLines) {
  EXPECT_TRUE(list_rule(8, 0).empty());
  EXPECT_TRUE(list_rule(16384, 8).empty());
  EXPECT_NE(list_rule(0, 0).find("1 to 2048 elements"), std::string::npos);
  EXPECT_NE(list_rule(16392, 0).find("1 to 2048 elements"), std::string::npos);
  EXPECT_NE(list_rule(12, 0).find("1 to 2048 elements"), std::string::npos);
  EXPECT_NE(list_rule(16, 4).find("8-byte aligned"), std::string::npos);
  EXPECT_TRUE(lock_line_rule(128, 0x1000).empty());
  EXPECT_NE(lock_line_rule(64, 0x1000).find("128-byte aligned"), std::string::npos);
  EXPECT_NE(lock_line_rule(128, 0x1010).find("128-byte aligned"), std::string::npos);
}

namespace {
// The ordering rules as pairs: B (later) waits for A (earlier, not done) when ...
bool waits_for(const OrderKey& a, const OrderKey& b) {
  if (a.done) return false;
  if (a.order == MfcOrder::All || b.order == MfcOrder::All) return true;
  if (a.tag != b.tag) return false;
  return b.order == MfcOrder::Fence || b.order == MfcOrder::Barrier || a.order == MfcOrder::Barrier;
}
uint32_t naive_startable(const std::vector<OrderKey>& q) {
  uint32_t ok = 0;
  for (size_t j = 0; j < q.size(); ++j) {
    bool may = true;
    for (size_t i = 0; i < j; ++i) may = may && !waits_for(q[i], q[j]);
    if (may) ok |= 1u << j;
  }
  return ok;
}
}  // namespace

TEST(MfcOrderingRules, AQueueStartsWhatTheArchitecturesPairwiseRulesAllow) {
  std::mt19937 rng(11);
  const MfcOrder orders[] = {MfcOrder::None, MfcOrder::None, MfcOrder::Fence, MfcOrder::Barrier,
                             MfcOrder::All};
  for (int round = 0; round < 20000; ++round) {
    std::vector<OrderKey> q(1 + rng() % 16);
    for (auto& e : q) e = {static_cast<uint32_t>(rng() % 3), orders[rng() % 5], rng() % 4 == 0};
    ASSERT_EQ(startable(q.data(), q.size()), naive_startable(q)) << "round " << round;
  }
}

TEST(MfcOrderingRules, FencesBarriersAndTheBarrierCommandInExamples) {
  using O = MfcOrder;
  // PUT t1, PUTF t1: the fenced one waits; an unfenced GET t1 after it does not.
  std::vector<OrderKey> a = {{1, O::None, false}, {1, O::Fence, false}, {1, O::None, false}};
  EXPECT_EQ(startable(a.data(), a.size()), 0b101u);
  // A barriered command holds back the later commands of its tag, not of others.
  std::vector<OrderKey> b = {
      {1, O::None, false}, {1, O::Barrier, false}, {1, O::None, false}, {2, O::None, false}};
  EXPECT_EQ(startable(b.data(), b.size()), 0b1001u);
  // BARRIER orders everything before against everything after, whatever the tags.
  std::vector<OrderKey> c = {{1, O::None, false}, {5, O::All, false}, {2, O::None, false}};
  EXPECT_EQ(startable(c.data(), c.size()), 0b001u);
  c[0].done = true;
  EXPECT_EQ(startable(c.data(), c.size()), 0b011u);
}

// ---- Lock lines: reservations and the atomic caches under the EIB's snoop ------------------

TEST(LockLines, AnotherElementsWriteLosesTheReservationAndTheCachedLine) {
  LockLineReservations t;
  int lost = 0;
  const int a = t.add_holder(Element::SPE0, 4, [&] { ++lost; });
  t.reserve(a, 0x1000);
  t.cache(a, 0x1000, false);
  t.snoop(Element::SPE0, 0x1000, 128, true);  // its own write: nothing
  EXPECT_TRUE(t.holds(a, 0x1010));
  t.snoop(Element::PPE, 0x1080, 16, true);  // the next line: nothing
  EXPECT_TRUE(t.holds(a, 0x1000));
  t.snoop(Element::PPE, 0x1000, 128, false);  // a read keeps the reservation
  EXPECT_TRUE(t.holds(a, 0x1000));
  t.snoop(Element::MIC, 0x107C, 8, true);  // one byte of the line is enough
  EXPECT_FALSE(t.holds(a, 0x1000));
  EXPECT_EQ(lost, 1);
  EXPECT_EQ(t.state(a, 0x1000), LockLineReservations::State::Absent);
}

TEST(LockLines, AReadMakesAModifiedLineSharedAndTheCacheDropsItsOldestLine) {
  LockLineReservations t;
  const int a = t.add_holder(Element::SPE3, 2, [] {});
  t.cache(a, 0x2000, true);
  EXPECT_EQ(t.state(a, 0x2040), LockLineReservations::State::Modified);
  t.snoop(Element::SPE4, 0x2000, 16, false);
  EXPECT_EQ(t.state(a, 0x2000), LockLineReservations::State::Shared);
  t.cache(a, 0x3000, false);
  t.cache(a, 0x2000, true);   // used again: now the newest
  t.cache(a, 0x4000, false);  // evicts 0x3000, the least recently used
  EXPECT_EQ(t.state(a, 0x3000), LockLineReservations::State::Absent);
  EXPECT_EQ(t.state(a, 0x2000), LockLineReservations::State::Modified);
  EXPECT_EQ(t.state(a, 0x4000), LockLineReservations::State::Shared);
}
