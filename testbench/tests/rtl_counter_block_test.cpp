// The RTL counter block's own testbench: directed cases, edge by edge,
// against rtl/dma_counter_bank.sv verilated into SystemC. Every register, reset values,
// hit-zero, underflow, bounds errors, clear-hit-zero, disabled counters, group status, the
// read and interrupt latencies, and same-cycle collisions of a register write and a decrement.
#include <gtest/gtest.h>

#include <memory>

#include "hw/dma_counters/verilated_counter_block.h"

using namespace hs::counters;

namespace {

class RtlBench {
 public:
  explicit RtlBench(bool reception)
      : block_(VerilatedCounterBlock::create("bank", reception)), timing_(rtl_timing()) {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes elaboration: the pins are bound
    block_->reset();
  }
  CounterBlock& block() { return *block_; }
  const CounterOutputs& edge(const CounterPins& p) { return block_->edge(p, time_ += 1000); }
  const CounterOutputs& idle() { return edge(CounterPins{}); }

  // True if the block accepted the write (no reg_err).
  bool write(uint32_t off, uint64_t v, bool wide = false) {
    return !edge(CounterPins::write(off, v, wide)).reg_err;
  }
  const CounterOutputs& dec(uint32_t c, uint32_t bytes, bool check = false, uint64_t addr = 0,
                            uint32_t len = 0) {
    return edge(CounterPins::decrement(c, bytes, check, addr, len));
  }
  // A register read: the data READ_LATENCY edges after the request, or reg_err.
  bool try_read(uint32_t off, bool wide, uint64_t& v) {
    const CounterOutputs* out = &edge(CounterPins::read(off, wide));
    const bool err = out->reg_err;
    for (uint32_t i = 1; i < timing_.read_latency; ++i) {
      EXPECT_FALSE(out->rd_valid) << "read data early, after " << i << " edge(s)";
      out = &idle();
    }
    if (err) {
      EXPECT_FALSE(out->rd_valid);
      return false;
    }
    EXPECT_TRUE(out->rd_valid);
    v = out->rd_data;
    return true;
  }
  uint64_t read(uint32_t off, bool wide = false) {
    uint64_t v = 0;
    EXPECT_TRUE(try_read(off, wide, v)) << "offset " << std::hex << off;
    return v;
  }
  const CounterTiming& timing() const { return timing_; }

 private:
  std::unique_ptr<VerilatedCounterBlock> block_;
  CounterTiming timing_;
  uint64_t time_ = 0;
};

}  // namespace

TEST(RtlCounterBlock, ResetValues) {
  RtlBench b(true);
  for (uint32_t c : {0u, 7u, 63u, 64u, 200u, 255u}) {
    EXPECT_EQ(b.read(counter_reg(c, kValue)), 0xFFFFFFFFu) << c;
    EXPECT_EQ(b.read(counter_reg(c, kBase)), 0u);
    EXPECT_EQ(b.read(counter_reg(c, kMax)), 0u);
    const CounterView v = b.block().lookup(c);
    EXPECT_EQ(v.value, 0xFFFFFFFFu);
    EXPECT_FALSE(v.hit_zero || v.enabled || v.underflow || v.out_of_bounds);
  }
  for (uint32_t g = 0; g < 4; ++g) {
    for (uint32_t r : {kEnabled, kHitZero, kUnderflow, kBounds}) {
      EXPECT_EQ(b.read(group_reg(g, r), true), 0u) << g << " " << r;
    }
    EXPECT_EQ(b.read(group_reg(g, kStatus)), 0u);
    EXPECT_EQ(b.read(group_reg(g, kIrqEnable)), 0u);
  }
  const CounterOutputs& o = b.idle();
  EXPECT_EQ(o.status, 0u);
  EXPECT_EQ(o.irq_level, 0u);
  EXPECT_EQ(o.irq, 0u);
}

TEST(RtlCounterBlock, EveryRegisterReadsBackOrActs) {
  RtlBench b(true);
  ASSERT_TRUE(b.write(counter_reg(9, kValue), 1000));
  EXPECT_EQ(b.read(counter_reg(9, kValue)), 1000u);
  ASSERT_TRUE(b.write(counter_reg(9, kIncrement), 24));
  EXPECT_EQ(b.read(counter_reg(9, kValue)), 1024u);
  ASSERT_TRUE(b.write(counter_reg(9, kDecrement), 1000));
  EXPECT_EQ(b.read(counter_reg(9, kValue)), 24u);
  ASSERT_TRUE(b.write(counter_reg(9, kBase), 0x1234));
  EXPECT_EQ(b.read(counter_reg(9, kBase)), 0x1234u);
  ASSERT_TRUE(b.write(counter_reg(9, kMax), 0x5678));
  EXPECT_EQ(b.read(counter_reg(9, kMax)), 0x5678u);
  // Group registers: counter 9 is bit 9 of group 0; counter 70 is bit 6 of group 1.
  ASSERT_TRUE(b.write(group_reg(0, kEnable), (1ull << 9) | (1ull << 63), true));
  ASSERT_TRUE(b.write(group_reg(1, kEnable), 1ull << 6, true));
  EXPECT_EQ(b.read(group_reg(0, kEnabled), true), (1ull << 9) | (1ull << 63));
  ASSERT_TRUE(b.write(group_reg(0, kDisable), 1ull << 63, true));
  EXPECT_EQ(b.read(group_reg(0, kEnabled), true), 1ull << 9);
  EXPECT_EQ(b.read(group_reg(1, kEnabled), true), 1ull << 6);
  EXPECT_TRUE(b.block().lookup(70).enabled);
  ASSERT_TRUE(b.write(group_reg(2, kIrqEnable), 3));
  EXPECT_EQ(b.read(group_reg(2, kIrqEnable)), 1u);  // only bit 0 exists
  // DECREMENT to zero sets hit-zero (unlike a VALUE write).
  ASSERT_TRUE(b.write(counter_reg(9, kDecrement), 24));
  EXPECT_EQ(b.read(group_reg(0, kHitZero), true), 1ull << 9);
  EXPECT_EQ(b.read(group_reg(0, kStatus)), 1u << 1);  // counter 9 is in subgroup 1
}

TEST(RtlCounterBlock, BadAccessesRaiseRegErrAndChangeNothing) {
  RtlBench inj(false);
  uint64_t v;
  // Wrong width, write-only read, read-only write, past the last counter or group, unaligned.
  EXPECT_FALSE(inj.try_read(counter_reg(3, kValue), true, v));
  EXPECT_FALSE(inj.try_read(counter_reg(3, kIncrement), false, v));
  EXPECT_FALSE(inj.try_read(counter_reg(3, kDecrement), false, v));
  EXPECT_FALSE(inj.try_read(group_reg(0, kEnabled), false, v));
  EXPECT_FALSE(inj.try_read(group_reg(0, kStatus), true, v));
  EXPECT_FALSE(inj.try_read(group_reg(0, kEnable), true, v));
  EXPECT_FALSE(inj.try_read(counter_reg(256, kValue), false, v));
  EXPECT_FALSE(inj.try_read(group_reg(4, kEnabled), true, v));
  EXPECT_FALSE(inj.try_read(counter_reg(3, kValue) + 2, false, v));
  // An injection bank has no MAX and no BOUNDS.
  EXPECT_FALSE(inj.try_read(counter_reg(3, kMax), false, v));
  EXPECT_FALSE(inj.try_read(group_reg(0, kBounds), true, v));
  EXPECT_FALSE(inj.write(counter_reg(3, kMax), 5));
  EXPECT_FALSE(inj.write(counter_reg(3, kValue), 5, true));
  EXPECT_FALSE(inj.write(group_reg(0, kEnable), 1, false));  // narrow write to a mask
  EXPECT_FALSE(inj.write(group_reg(0, kEnabled), 1, true));
  EXPECT_FALSE(inj.write(group_reg(0, kStatus), 1, false));
  EXPECT_FALSE(inj.write(counter_reg(300, kValue), 5));
  EXPECT_EQ(inj.read(counter_reg(3, kValue)), 0xFFFFFFFFu);
  EXPECT_EQ(inj.read(group_reg(0, kEnabled), true), 0u);
  // And the injection bank ignores bounds checks: it has no window.
  ASSERT_TRUE(inj.write(counter_reg(3, kValue), 64));
  EXPECT_FALSE(inj.dec(3, 64, true, 0xFFFF0000, 64).dec_out_of_bounds);
  EXPECT_EQ(inj.block().lookup(3).value, 0u);
}

TEST(RtlCounterBlock, DecrementToZeroSetsHitZeroOnceAndReportsIt) {
  RtlBench b(true);
  ASSERT_TRUE(b.write(counter_reg(5, kValue), 1000));
  EXPECT_FALSE(b.dec(5, 600).dec_hit_zero);
  EXPECT_EQ(b.block().lookup(5).value, 400u);
  const CounterOutputs& o = b.dec(5, 400);
  EXPECT_TRUE(o.dec_hit_zero);
  EXPECT_FALSE(o.dec_underflow);
  EXPECT_FALSE(b.idle().dec_hit_zero);  // the result describes one edge
  EXPECT_TRUE(b.block().lookup(5).hit_zero);
  EXPECT_FALSE(b.dec(5, 0).dec_hit_zero);  // already zero: no new transition
  // Writing VALUE = 0 never sets hit-zero.
  ASSERT_TRUE(b.write(group_reg(0, kClearHitZero), 1ull << 5, true));
  ASSERT_TRUE(b.write(counter_reg(5, kValue), 0));
  EXPECT_FALSE(b.block().lookup(5).hit_zero);
}

TEST(RtlCounterBlock, UnderflowIsStickyLeavesZeroAndNeverHitsZero) {
  RtlBench b(true);
  ASSERT_TRUE(b.write(counter_reg(7, kValue), 100));
  const CounterOutputs& o = b.dec(7, 101);
  EXPECT_TRUE(o.dec_underflow);
  EXPECT_FALSE(o.dec_hit_zero);
  CounterView v = b.block().lookup(7);
  EXPECT_EQ(v.value, 0u);
  EXPECT_TRUE(v.underflow);
  EXPECT_FALSE(v.hit_zero);
  ASSERT_TRUE(b.write(counter_reg(7, kValue), 50));
  b.dec(7, 10);
  EXPECT_TRUE(b.block().lookup(7).underflow);  // sticky
  EXPECT_EQ(b.read(group_reg(0, kUnderflow), true), 1ull << 7);
  ASSERT_TRUE(b.write(group_reg(0, kClearErrors), 1ull << 7, true));
  EXPECT_FALSE(b.block().lookup(7).underflow);
}

TEST(RtlCounterBlock, BoundsErrorDoesNotDecrementOrWrite) {
  RtlBench b(true);
  ASSERT_TRUE(b.write(counter_reg(70, kValue), 4096));
  ASSERT_TRUE(b.write(counter_reg(70, kBase), 0x100));  // window 0x1000..0x1FFF
  ASSERT_TRUE(b.write(counter_reg(70, kMax), 0x1FF));
  EXPECT_FALSE(b.dec(70, 256, true, 0x1F00, 256).dec_out_of_bounds);  // last byte 0x1FFF
  EXPECT_EQ(b.block().lookup(70).value, 4096u - 256);
  EXPECT_TRUE(b.dec(70, 256, true, 0x1F01, 256).dec_out_of_bounds);  // one past the end
  EXPECT_TRUE(b.dec(70, 16, true, 0x0FF0, 16).dec_out_of_bounds);    // below the base
  EXPECT_TRUE(b.dec(70, 16, true, 0x1000, 0).dec_out_of_bounds);     // empty packet
  const CounterView v = b.block().lookup(70);
  EXPECT_EQ(v.value, 4096u - 256);
  EXPECT_TRUE(v.out_of_bounds);
  EXPECT_EQ(b.read(group_reg(1, kBounds), true), 1ull << 6);
  ASSERT_TRUE(b.write(group_reg(1, kClearErrors), 1ull << 6, true));
  EXPECT_FALSE(b.block().lookup(70).out_of_bounds);
}

TEST(RtlCounterBlock, ClearHitZeroAndDisabledCountersNeverInterrupt) {
  RtlBench b(true);
  ASSERT_TRUE(b.write(group_reg(0, kIrqEnable), 1));
  ASSERT_TRUE(b.write(counter_reg(2, kValue), 8));
  const CounterOutputs& o = b.dec(2, 8);  // counter 2 is disabled
  EXPECT_TRUE(o.dec_hit_zero);
  EXPECT_EQ(o.status, 0u);
  EXPECT_EQ(o.irq_level, 0u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b.idle().irq, 0u);
  EXPECT_TRUE(b.block().lookup(2).hit_zero);  // it counted and hit zero all the same
  // Enabling it now brings its hit-zero into STATUS and the interrupt.
  EXPECT_EQ(b.edge(CounterPins::write(group_reg(0, kEnable), 1ull << 2, true)).irq_level, 1u);
  ASSERT_TRUE(b.write(group_reg(0, kClearHitZero), 1ull << 2, true));
  EXPECT_FALSE(b.block().lookup(2).hit_zero);
  EXPECT_EQ(b.idle().irq_level, 0u);
}

TEST(RtlCounterBlock, GroupStatusOrsEnabledHitZeroPerSubgroup) {
  RtlBench b(true);
  // Counters 64+8 (group 1, subgroup 1) and 64+63 (group 1, subgroup 7) hit zero.
  ASSERT_TRUE(b.write(group_reg(1, kEnable), ~0ull, true));
  for (uint32_t c : {72u, 127u}) {
    ASSERT_TRUE(b.write(counter_reg(c, kValue), 1));
    b.dec(c, 1);
  }
  EXPECT_EQ(b.read(group_reg(1, kStatus)), (1u << 1) | (1u << 7));
  EXPECT_EQ(b.idle().status, ((1u << 1) | (1u << 7)) << 8);  // group 1's bits on the status pins
  EXPECT_EQ(b.read(group_reg(0, kStatus)), 0u);
}

TEST(RtlCounterBlock, InterruptRisesHitZeroLatencyEdgesAfterTheDecrement) {
  RtlBench b(true);
  const uint32_t h = b.timing().hit_zero_latency;
  ASSERT_TRUE(b.write(group_reg(3, kEnable), 1, true));
  ASSERT_TRUE(b.write(group_reg(3, kIrqEnable), 1));
  ASSERT_TRUE(b.write(counter_reg(192, kValue), 256));
  const CounterOutputs& o = b.dec(192, 256);
  EXPECT_EQ(o.irq_level, 1u << 3);
  uint32_t irq = o.irq;
  for (uint32_t i = 1; i <= h; ++i) {
    EXPECT_EQ(irq, 0u) << "interrupt after " << i - 1 << " edge(s), expected " << h;
    irq = b.idle().irq;
  }
  EXPECT_EQ(irq, 1u << 3);
  // The line follows the level: clearing the hit-zero drops it h edges later.
  ASSERT_TRUE(b.write(group_reg(3, kClearHitZero), 1, true));
  for (uint32_t i = 1; i < h; ++i) EXPECT_EQ(b.idle().irq, 1u << 3);
  EXPECT_EQ(b.idle().irq, 0u);
}

TEST(RtlCounterBlock, ReadReturnsTheStateBeforeItsEdge) {
  RtlBench b(true);
  ASSERT_TRUE(b.write(counter_reg(1, kValue), 500));
  // A read and a decrement of the same counter in one edge: the read sees 500.
  CounterPins p = CounterPins::decrement(1, 100);
  p.reg_valid = true;
  p.reg_addr = counter_reg(1, kValue);
  const CounterOutputs* out = &b.edge(p);
  for (uint32_t i = 1; i < b.timing().read_latency; ++i) out = &b.idle();
  ASSERT_TRUE(out->rd_valid);
  EXPECT_EQ(out->rd_data, 500u);
  EXPECT_EQ(b.block().lookup(1).value, 400u);
}

TEST(RtlCounterBlock, SameCycleWriteLandsBeforeTheDecrement) {
  RtlBench b(true);
  auto both = [&](uint32_t off, uint64_t v, bool wide, const CounterPins& dec) {
    CounterPins p = dec;
    const CounterPins w = CounterPins::write(off, v, wide);
    p.reg_valid = w.reg_valid;
    p.reg_write = w.reg_write;
    p.reg_wide = w.reg_wide;
    p.reg_addr = w.reg_addr;
    p.reg_wdata = w.reg_wdata;
    return b.edge(p);
  };
  // VALUE write, then the decrement applies to the written value.
  EXPECT_TRUE(
      both(counter_reg(4, kValue), 300, false, CounterPins::decrement(4, 300)).dec_hit_zero);
  EXPECT_EQ(b.block().lookup(4).value, 0u);
  // INCREMENT then decrement.
  both(counter_reg(4, kIncrement), 50, false, CounterPins::decrement(4, 20));
  EXPECT_EQ(b.block().lookup(4).value, 30u);
  // CLEAR_HIT_ZERO clears first, so a decrement reaching zero in the same edge leaves it set.
  EXPECT_TRUE(b.block().lookup(4).hit_zero);
  both(group_reg(0, kClearHitZero), 1ull << 4, true, CounterPins::decrement(4, 30));
  EXPECT_TRUE(b.block().lookup(4).hit_zero);
  // DECREMENT register then the port: both subtract; the second underflows.
  ASSERT_TRUE(b.write(counter_reg(4, kValue), 10));
  const CounterOutputs o =
      both(counter_reg(4, kDecrement), 10, false, CounterPins::decrement(4, 1));
  EXPECT_TRUE(o.dec_underflow);
  EXPECT_TRUE(b.block().lookup(4).underflow);
  // CLEAR_ERRORS clears first, so an underflow in the same edge stays recorded.
  both(group_reg(0, kClearErrors), 1ull << 4, true, CounterPins::decrement(4, 1));
  EXPECT_TRUE(b.block().lookup(4).underflow);
  // A BASE write is what the same edge's bounds check uses.
  ASSERT_TRUE(b.write(counter_reg(4, kValue), 64));
  ASSERT_TRUE(b.write(counter_reg(4, kMax), 0x20));
  EXPECT_FALSE(
      both(counter_reg(4, kBase), 0x10, false, CounterPins::decrement(4, 64, true, 0x100, 64))
          .dec_out_of_bounds);
  EXPECT_EQ(b.block().lookup(4).value, 0u);
  // A write to another counter and a decrement are independent.
  ASSERT_TRUE(b.write(counter_reg(6, kValue), 8));
  both(counter_reg(5, kValue), 77, false, CounterPins::decrement(6, 8));
  EXPECT_EQ(b.block().lookup(5).value, 77u);
  EXPECT_EQ(b.block().lookup(6).value, 0u);
}

TEST(RtlCounterBlock, ResetRestoresResetValues) {
  RtlBench b(true);
  ASSERT_TRUE(b.write(counter_reg(11, kValue), 3));
  ASSERT_TRUE(b.write(group_reg(0, kEnable), ~0ull, true));
  b.dec(11, 3);
  b.block().reset();
  const CounterView v = b.block().lookup(11);
  EXPECT_EQ(v.value, 0xFFFFFFFFu);
  EXPECT_FALSE(v.enabled || v.hit_zero);
  EXPECT_EQ(b.idle().status, 0u);
}
