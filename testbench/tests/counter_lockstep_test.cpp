// Lockstep equivalence of the RTL counter block and its C++ model: the same random stream of
// register accesses and decrements drives both, and every output is compared after every edge, with
// the lookup port showing the counters the edge touched plus a random one, and a full scan of every
// counter at the end of each seed. The stream favours few counters and small values so that
// hit-zero, underflow, bounds errors and same-edge collisions of a write and a decrement on one
// counter all happen often.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <sstream>

#include "hw/dma_counters/verilated_counter_block.h"

using namespace hs::counters;

namespace {

class Stream {
 public:
  Stream(uint64_t seed, const BankShape& shape) : rng_(seed), shape_(shape) {}

  CounterPins next() {
    CounterPins p;
    // A small working set, so that operations collide.
    const uint32_t hot = pick(4);
    if (chance(0.55)) {
      p.reg_valid = true;
      p.reg_write = chance(0.7);
      if (chance(0.75)) {
        static const uint32_t regs[] = {kValue, kValue,     kValue,     kIncrement,
                                        kBase,  kDecrement, kIncrement, kMax};
        p.reg_addr = counter_reg(chance(0.8) ? hot : pick(shape_.counters() + 8),
                                 regs[pick(8)]) +
                     (chance(0.02) ? 2 : 0);  // an occasional unaligned access
        p.reg_wide = chance(0.03);
        p.reg_wdata = small_value();
      } else {
        static const uint32_t regs[] = {kEnabled, kEnable,    kDisable,   kHitZero, kClearHitZero,
                                        kStatus,  kIrqEnable, kUnderflow, kBounds,  kClearErrors};
        p.reg_addr = group_reg(pick(shape_.groups + 1), regs[pick(10)]);
        p.reg_wide = !chance(0.2) == (p.reg_addr % kGroupStride != kStatus &&
                                      p.reg_addr % kGroupStride != kIrqEnable);
        p.reg_wdata = chance(0.5) ? rng_() : (uint64_t{1} << pick(64)) | rng_() % 4;
      }
    }
    if (chance(0.45)) {
      p.dec_valid = true;
      p.dec_id = chance(0.8) ? hot : pick(shape_.counters());
      p.dec_bytes = chance(0.2)   ? 0
                    : chance(0.8) ? 8 * (1 + pick(2))
                                  : static_cast<uint32_t>(1 + rng_() % 64);
      p.dec_check = chance(0.25);
      p.dec_addr = chance(0.5) ? rng_() % 0x2000 : rng_() % (uint64_t{1} << 40);
      p.dec_len = static_cast<uint32_t>(chance(0.05) ? 0 : 1 + rng_() % 256);
    }
    return p;
  }
  uint32_t pick(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }

 private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  uint64_t small_value() {
    switch (chance(0.5) ? 0 : pick(4)) {
      case 0:
        return 8 * (rng_() % 9);  // multiples of the decrements below: they reach zero exactly
      case 1:
        return rng_() % 512;
      case 2:
        return rng_() & 0xFFFFFFFFu;
      default:
        return 0x100 + rng_() % 0x100;  // BASE/MAX-sized: windows near the test addresses
    }
  }

  std::mt19937_64 rng_;
  BankShape shape_;
};

std::string describe(const CounterOutputs& o) {
  std::ostringstream s;
  s << std::hex << "reg_err=" << o.reg_err << " rd_valid=" << o.rd_valid << " rd_data=0x"
    << o.rd_data << " dec hz/uf/oob=" << o.dec_hit_zero << o.dec_underflow << o.dec_out_of_bounds
    << " status=0x" << o.status << " irq_level=0x" << o.irq_level << " irq=0x" << o.irq;
  return s.str();
}

std::string describe(const CounterPins& p) {
  std::ostringstream s;
  s << std::hex << "reg v/w/wide=" << p.reg_valid << p.reg_write << p.reg_wide << " addr=0x"
    << p.reg_addr << " wdata=0x" << p.reg_wdata << " | dec v=" << p.dec_valid << std::dec
    << " id=" << p.dec_id << " bytes=" << p.dec_bytes << " check=" << p.dec_check << std::hex
    << " addr=0x" << p.dec_addr << std::dec << " len=" << p.dec_len;
  return s.str();
}

void run_lockstep(bool reception, int seeds, int edges) {
  auto rtl = VerilatedCounterBlock::create("rtl", reception);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const BankShape shape = rtl_bank_shape(reception);
  CounterBankCycleModel model(shape, rtl_timing());
  uint64_t compared = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    rtl->reset();
    model.reset();
    Stream stream(static_cast<uint64_t>(seed), shape);
    for (int e = 0; e < edges; ++e) {
      const CounterPins p = stream.next();
      const CounterOutputs want = model.edge(p);
      const CounterOutputs& got = rtl->edge(p, 0);
      ASSERT_EQ(got, want) << "seed " << seed << " edge " << e << "\n  pins  " << describe(p)
                           << "\n  rtl   " << describe(got) << "\n  model " << describe(want);
      const uint32_t written = p.reg_addr < kGroupBase ? p.reg_addr / kCounterStride : 0;
      for (uint32_t c : {p.dec_id, written, stream.pick(shape.counters())}) {
        ASSERT_EQ(rtl->lookup(c), model.lookup(c))
            << "seed " << seed << " edge " << e << " counter " << c << " after " << describe(p);
      }
      ++compared;
    }
    for (uint32_t c = 0; c < shape.counters(); ++c) {
      ASSERT_EQ(rtl->lookup(c), model.lookup(c)) << "seed " << seed << " counter " << c;
    }
  }
  EXPECT_EQ(compared, static_cast<uint64_t>(seeds) * edges);
}

}  // namespace

TEST(CounterLockstep, ReceptionBankMatchesTheModelOnEveryEdge) {
  run_lockstep(true, 60, 3000);
}

TEST(CounterLockstep, InjectionBankMatchesTheModelOnEveryEdge) {
  run_lockstep(false, 60, 3000);
}

// The stream must reach the corners it exists for, or equality would prove little.
TEST(CounterLockstep, StreamReachesEveryCorner) {
  const BankShape shape = rtl_bank_shape(true);
  CounterBankCycleModel model(shape, rtl_timing());
  Stream stream(1, shape);
  int hit = 0, under = 0, oob = 0, irq = 0, collisions = 0, reads = 0, errors = 0;
  for (int e = 0; e < 3000; ++e) {
    const CounterPins p = stream.next();
    const CounterOutputs& o = model.edge(p);
    hit += o.dec_hit_zero;
    under += o.dec_underflow;
    oob += o.dec_out_of_bounds;
    irq += o.irq != 0;
    reads += o.rd_valid;
    errors += o.reg_err;
    collisions += p.reg_valid && p.reg_write && p.dec_valid && p.reg_addr < kGroupBase &&
                  p.reg_addr / kCounterStride == p.dec_id;
  }
  EXPECT_GT(hit, 20);
  EXPECT_GT(under, 20);
  EXPECT_GT(oob, 20);
  EXPECT_GT(irq, 20);
  EXPECT_GT(collisions, 50);
  EXPECT_GT(reads, 100);
  EXPECT_GT(errors, 20);
}
