// Co-simulation of the RTL counter banks: the adapter
// that puts the Verilated block behind the DMA's counter-bank interface gives the same answers
// at the same times as the C++ model, request by request, and whole torus scenarios give
// identical results, statistics and simulated times with either implementation.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <vector>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include "hw/dma_counters/counter_bank_model.h"
#include "hw/dma_counters/counter_block_adapter.h"
#include "hw/dma_counters/verilated_counter_block.h"
#include "testbench/runner/simulation.h"
#include "testbench/support/scenario_run.h"
#include "tlm/kernel/now.h"

using namespace hs;
using namespace hs::counters;
using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;

namespace {

// The same bank three ways: the C++ model, the adapter over the C++ cycle model, and the
// adapter over the Verilated RTL.
struct Trio {
  std::vector<std::unique_ptr<CounterBank>> banks;
  std::vector<std::vector<std::pair<double, uint32_t>>> irqs;  // (ns, group) per bank

  Trio(int seed, const Clock& clock) : irqs(3) {
    const BankShape shape = rtl_bank_shape(true);
    const CounterTiming timing = rtl_timing();
    const std::string n = "s" + std::to_string(seed);
    banks.push_back(std::make_unique<CounterBankModel>(n + "_model", shape, clock, timing));
    banks.push_back(std::make_unique<CounterBlockAdapter>(
        n + "_cycle", std::make_unique<CounterBankCycleModel>(shape, timing), clock, timing));
    banks.push_back(std::make_unique<CounterBlockAdapter>(
        n + "_rtl", VerilatedCounterBlock::create((n + "_block").c_str(), true), clock, timing));
    for (size_t i = 0; i < banks.size(); ++i) {
      banks[i]->on_interrupt(
          [this, i](uint32_t g) { irqs[i].emplace_back(hs::now().to_seconds() * 1e9, g); });
    }
  }
};

// Random requests at random times, from one thread, as a DMA engine and cores would make them.
void drive(Trio& t, int seed, const Clock& clock) {
  std::mt19937_64 rng(static_cast<uint64_t>(seed));
  auto pick = [&](uint64_t n) { return rng() % n; };
  auto all_equal = [&](auto op, const char* what, int i) {
    const auto a = op(*t.banks[0]);
    for (size_t b = 1; b < t.banks.size(); ++b) {
      ASSERT_EQ(op(*t.banks[b]), a) << what << " #" << i << " seed " << seed << " bank " << b;
    }
  };
  for (int g = 0; g < 4; ++g) {
    all_equal([&](CounterBank& b) { return b.write(group_reg(g, kEnable), ~0ull, 8); }, "enable",
              -1);
    all_equal([&](CounterBank& b) { return b.write(group_reg(g, kIrqEnable), 1, 4); }, "irq", -1);
  }
  for (int i = 0; i < 1500; ++i) {
    // Gaps: none (same time), a fraction of a cycle, a few cycles, or long idle stretches.
    switch (pick(4)) {
      case 0:
        break;
      case 1:
        sc_core::wait(sc_core::sc_time(static_cast<double>(pick(1200)), sc_core::SC_PS));
        break;
      case 2:
        sc_core::wait(clock.cycles(1 + pick(4)));
        break;
      default:
        sc_core::wait(clock.cycles(5 + pick(200)));
        break;
    }
    const uint32_t c = static_cast<uint32_t>(pick(6) * 50 % 256);
    const uint64_t v = 16 * (1 + pick(8));
    switch (pick(6)) {
      case 0:
        all_equal([&](CounterBank& b) { return b.write(counter_reg(c, kValue), v, 4); }, "value",
                  i);
        break;
      case 1: {
        const uint32_t reg = pick(2) ? kValue : kBase;
        all_equal(
            [&](CounterBank& b) {
              uint64_t r = 0;
              const bool ok = b.read(counter_reg(c, reg), 4, r);
              return std::make_pair(ok, r);
            },
            "read", i);
        break;
      }
      case 2:
        all_equal(
            [&](CounterBank& b) { return b.write(group_reg(c / 64, kClearHitZero), ~0ull, 8); },
            "clear", i);
        break;
      default: {
        const uint32_t bytes = static_cast<uint32_t>(16 * pick(3));
        all_equal(
            [&](CounterBank& b) {
              const DecrementResult r = b.decrement(c, bytes, false, 0, 0);
              return std::make_tuple(r.hit_zero, r.underflow, r.out_of_bounds, b.value(c));
            },
            "decrement", i);
      }
    }
  }
  sc_core::wait(clock.cycles(50));  // let the last interrupts arrive
}

}  // namespace

TEST(CounterCosim, AdapterAnswersAndInterruptTimesMatchTheModel) {
  const Clock clock(850e6);
  std::vector<std::unique_ptr<Trio>> trios;
  for (int seed = 1; seed <= 12; ++seed) {
    trios.push_back(std::make_unique<Trio>(seed, clock));
    sc_core::sc_spawn([&, seed] { drive(*trios[seed - 1], seed, clock); },
                      ("driver" + std::to_string(seed)).c_str());
  }
  sc_core::sc_start();
  for (size_t s = 0; s < trios.size(); ++s) {
    const Trio& t = *trios[s];
    EXPECT_GT(t.irqs[0].size(), 30u) << "seed " << s + 1 << ": too few interrupts to prove much";
    for (size_t b = 1; b < t.banks.size(); ++b) {
      EXPECT_EQ(t.irqs[b], t.irqs[0]) << "interrupt times, seed " << s + 1 << " bank " << b;
      EXPECT_EQ(t.banks[b]->edges().slipped(), t.banks[0]->edges().slipped());
    }
    EXPECT_GT(t.banks[0]->edges().slipped(), 0u) << "no request ever waited for a busy edge";
  }
}

TEST(CounterCosim, TorusScenariosGiveIdenticalResultsWithEitherBank) {
  const std::vector<std::vector<std::string>> cases = {
      {"workload.protocol=split", "workload.bytes=65536", "workload.hops=3"},
      {"workload.protocol=auto", "workload.bytes=1000", "workload.interrupts=false"},
      {"workload.protocol=rendezvous", "workload.bytes=100000", "workload.hops=5"},
      {"workload.protocol=eager", "workload.bytes=5000", "workload.interrupts=true"},
      {"workload.protocol=split", "workload.bytes=300000", "workload.rts_cycles=20000"},
  };
  for (const auto& sets : cases) {
    auto with = [&](const char* counters) {
      auto s = sets;
      s.push_back(std::string("torus.node.dma.counters=") + counters);
      return run_scenario("torus_pingpong", s);
    };
    const auto tlm = with("tlm"), rtl = with("rtl");
    ASSERT_TRUE(passed(tlm)) << violations(tlm);
    ASSERT_TRUE(passed(rtl)) << violations(rtl);
    EXPECT_EQ(rtl["results"], tlm["results"]) << sets[0] << " " << sets[1];
    EXPECT_EQ(rtl["stats"], tlm["stats"]) << sets[0] << " " << sets[1];
    EXPECT_EQ(rtl["simulated_time_ns"], tlm["simulated_time_ns"]);
    EXPECT_EQ(rtl["checks"], tlm["checks"]);
  }
}

TEST(CounterCosim, RtlWithAShapeItWasNotBuiltForIsAnInputError) {
  const auto r = run_scenario(
      "torus_pingpong", {"torus.node.dma.counters=rtl", "torus.node.dma.counters_per_group=32"});
  ASSERT_TRUE(r.contains("error"));
  EXPECT_NE(r["error"].get<std::string>().find("torus.node.dma.counters_per_group=32 but the RTL "
                                               "counter block was verilated with 64"),
            std::string::npos)
      << r["error"];
}

TEST(CounterCosim, RtlWaveformsSitNextToTheSystemCVcd) {
  const std::string vcd = ::testing::TempDir() + "cosim_wave.vcd";
  runner::RunOptions o;
  o.scenario = "torus_pingpong";
  o.sets = {"torus.node.dma.counters=rtl", "torus.network.x=2", "torus.network.y=2",
            "torus.network.z=2",           "workload.hops=1",   "torus.node.dma.rtl_trace_nodes=2"};
  o.vcd_path = vcd;
  const auto r = run_scenario(o);
  ASSERT_TRUE(passed(r)) << violations(r);
  const std::string stem = vcd.substr(0, vcd.size() - 4);
  for (const char* bank : {"n0.dma.inj_counters", "n0.dma.rec_counters", "n1.dma.rec_counters"}) {
    std::ifstream f(stem + ".torus." + bank + ".vcd");
    ASSERT_TRUE(f) << bank;
    std::string line, last_time;
    bool clk = false, irq = false;
    int times = 0;
    while (std::getline(f, line)) {
      clk |= line.find("$var wire  1 # clk $end") != std::string::npos;
      irq |= line.find(" irq [3:0] $end") != std::string::npos;
      if (!line.empty() && line[0] == '#') {
        last_time = line.substr(1);
        ++times;
      }
    }
    EXPECT_TRUE(clk && irq) << bank << ": the block's signals are declared";
    EXPECT_GT(times, 100) << bank;
    // Timestamps are picoseconds of simulated time: the last edge lies within the run.
    EXPECT_LE(std::stod(last_time) / 1000.0, r["simulated_time_ns"].get<double>()) << bank;
    EXPECT_GT(std::stod(last_time) / 1000.0, 0.5 * r["simulated_time_ns"].get<double>());
  }
  // Nodes at or past rtl_trace_nodes dump nothing.
  EXPECT_FALSE(std::ifstream(stem + ".torus.n2.dma.rec_counters.vcd"));
}
