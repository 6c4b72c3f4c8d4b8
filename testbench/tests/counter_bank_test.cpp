// DMA byte-counter semantics: reset values, hit-zero once, underflow,
// bounds errors, group status, enable/disable, clear, increment and software decrement, and
// the register map's rejection of bad accesses.
#include <gtest/gtest.h>

#include "hw/dma_counters/counter_bank.h"

using namespace hs::counters;

namespace {

CounterBankState reception_bank() {
  return CounterBankState(BankShape{4, 64, true});
}

uint64_t rd(const CounterBankState& b, uint32_t off, unsigned width) {
  uint64_t v = 0;
  EXPECT_TRUE(b.read(off, width, v)) << "offset " << off;
  return v;
}

}  // namespace

TEST(CounterBank, ResetValues) {
  auto b = reception_bank();
  for (uint32_t c : {0u, 63u, 64u, 255u}) {
    EXPECT_EQ(b.value(c), 0xFFFFFFFFu);
    EXPECT_FALSE(b.hit_zero(c));
    EXPECT_FALSE(b.enabled(c));
    EXPECT_FALSE(b.underflow(c));
  }
  for (uint32_t g = 0; g < 4; ++g) {
    EXPECT_EQ(rd(b, group_reg(g, kStatus), 4), 0u);
    EXPECT_FALSE(b.irq(g));
  }
}

TEST(CounterBank, DecrementToZeroSetsHitZeroOnce) {
  auto b = reception_bank();
  ASSERT_TRUE(b.write(counter_reg(5, kValue), 1000, 4));
  EXPECT_FALSE(b.decrement(5, 600).hit_zero);
  EXPECT_EQ(b.value(5), 400u);
  EXPECT_TRUE(b.decrement(5, 400).hit_zero);
  EXPECT_TRUE(b.hit_zero(5));
  // Already zero: a zero-byte decrement is no new transition.
  EXPECT_FALSE(b.decrement(5, 0).hit_zero);
  // Writing VALUE = 0 does not set hit-zero.
  ASSERT_TRUE(b.write(group_reg(0, kClearHitZero), 1u << 5, 8));
  ASSERT_TRUE(b.write(counter_reg(5, kValue), 0, 4));
  EXPECT_FALSE(b.hit_zero(5));
}

TEST(CounterBank, UnderflowSetsStickyErrorAndLeavesZero) {
  auto b = reception_bank();
  b.write(counter_reg(7, kValue), 100, 4);
  const auto r = b.decrement(7, 101);
  EXPECT_TRUE(r.underflow);
  EXPECT_FALSE(r.hit_zero);
  EXPECT_EQ(b.value(7), 0u);
  EXPECT_FALSE(b.hit_zero(7));
  EXPECT_EQ(rd(b, group_reg(0, kUnderflow), 8), 1u << 7);
  b.write(counter_reg(7, kValue), 50, 4);
  EXPECT_TRUE(b.underflow(7)) << "sticky until cleared";
  b.write(group_reg(0, kClearErrors), 1u << 7, 8);
  EXPECT_FALSE(b.underflow(7));
}

TEST(CounterBank, BoundsErrorDoesNotDecrement) {
  auto b = reception_bank();
  b.write(counter_reg(70, kBase), 0x1000 >> 4, 4);
  b.write(counter_reg(70, kMax), (0x1FFF) >> 4, 4);
  b.write(counter_reg(70, kValue), 4096, 4);
  EXPECT_FALSE(b.decrement(70, 256, true, 0x1F00, 256).out_of_bounds);  // last byte 0x1FFF
  EXPECT_EQ(b.value(70), 3840u);
  EXPECT_TRUE(b.decrement(70, 256, true, 0x1F01, 256).out_of_bounds);
  EXPECT_TRUE(b.decrement(70, 16, true, 0x0FF0, 16).out_of_bounds);
  EXPECT_EQ(b.value(70), 3840u);
  EXPECT_TRUE(b.out_of_bounds(70));
  EXPECT_EQ(rd(b, group_reg(1, kBounds), 8), uint64_t{1} << 6);
}

TEST(CounterBank, GroupStatusOrsEnabledHitZeroPerSubgroup) {
  auto b = reception_bank();
  for (uint32_t c : {3u, 17u, 18u}) b.write(counter_reg(c, kValue), 8, 4);
  b.write(group_reg(0, kEnable), (1u << 3) | (1u << 17), 8);
  b.decrement(3, 8);
  b.decrement(18, 8);  // hit zero but disabled
  EXPECT_EQ(rd(b, group_reg(0, kStatus), 4), 0b001u) << "subgroup 2 holds only a disabled counter";
  b.decrement(17, 8);
  EXPECT_EQ(rd(b, group_reg(0, kStatus), 4), 0b101u);
  EXPECT_EQ(rd(b, group_reg(0, kHitZero), 8), (1u << 3) | (1u << 17) | (1u << 18));
  EXPECT_EQ(rd(b, group_reg(0, kEnabled), 8), (1u << 3) | (1u << 17));
}

TEST(CounterBank, InterruptFollowsStatusUntilCleared) {
  auto b = reception_bank();
  b.write(counter_reg(130, kValue), 32, 4);
  b.write(group_reg(2, kEnable), 1u << 2, 8);
  b.decrement(130, 32);
  EXPECT_FALSE(b.irq(2)) << "interrupt not enabled";
  b.write(group_reg(2, kIrqEnable), 1, 4);
  EXPECT_TRUE(b.irq(2));
  b.write(group_reg(2, kDisable), 1u << 2, 8);
  EXPECT_FALSE(b.irq(2)) << "a disabled counter never interrupts";
  b.write(group_reg(2, kEnable), 1u << 2, 8);
  EXPECT_TRUE(b.irq(2));
  b.write(group_reg(2, kClearHitZero), 1u << 2, 8);
  EXPECT_FALSE(b.irq(2));
  EXPECT_FALSE(b.irq(1));
}

TEST(CounterBank, IncrementExtendsAndDecrementRegisterCounts) {
  auto b = reception_bank();
  b.write(counter_reg(9, kValue), 100, 4);
  b.write(counter_reg(9, kIncrement), 50, 4);
  EXPECT_EQ(b.value(9), 150u);
  b.write(counter_reg(9, kDecrement), 150, 4);
  EXPECT_EQ(b.value(9), 0u);
  EXPECT_TRUE(b.hit_zero(9));
}

TEST(CounterBank, RegisterMapRejectsBadAccesses) {
  CounterBankState inj(BankShape{4, 64, false});
  uint64_t v;
  EXPECT_FALSE(inj.read(counter_reg(0, kMax), 4, v)) << "injection counters have no MAX";
  EXPECT_FALSE(inj.write(counter_reg(0, kMax), 1, 4));
  EXPECT_FALSE(inj.read(counter_reg(0, kIncrement), 4, v)) << "write-only";
  EXPECT_FALSE(inj.read(counter_reg(0, kValue), 8, v)) << "wrong width";
  EXPECT_FALSE(inj.write(group_reg(0, kHitZero), 1, 8)) << "read-only";
  EXPECT_FALSE(inj.read(counter_reg(256, kValue), 4, v)) << "no counter 256";
  EXPECT_FALSE(inj.read(group_reg(4, kStatus), 4, v)) << "no group 4";
}
