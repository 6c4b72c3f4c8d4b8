// Co-simulation of the RTL counter banks: the adapter
// that puts the Verilated block behind the DMA's counter-bank interface gives the same answers
// at the same times as the C++ model, request by request, including how long each register
// access waited for a busy edge, and whole torus scenarios give identical results, statistics and
// simulated times with either implementation. Contention on the bank's port is felt: a register
// access sampled at a busy edge waits for the next free one, exactly, in the bank and through the
// torus DMA's register interface.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <vector>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include "hw/dma_counters/counter_bank_model.h"
#include "hw/dma_counters/counter_block_adapter.h"
#include "hw/dma_counters/verilated_counter_block.h"
#include "hw/torus/dma/torus_dma_interface.h"
#include "hw/torus/node/node_address_map.h"
#include "hw/torus/node/torus_machine.h"
#include "testbench/runner/simulation.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"
#include "testbench/support/temp_path.h"
#include "tlm/kernel/now.h"

using namespace hs;
using namespace hs::counters;
using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::set_param;
using hs::testing::violations;

namespace hs::counters {
void PrintTo(const RegisterAccess& a, std::ostream* os) {
  *os << "{ok=" << a.ok << " waited=" << a.waited << "}";
}
}  // namespace hs::counters

namespace {

// The same bank three ways: the C++ model, the adapter over the C++ cycle model, and the
// adapter over the Verilated RTL.
struct Trio {
  // Records each bank's interrupts, as the wire to a core would see them.
  struct Listener : IrqIn {
    Listener(Trio& t, size_t i) : trio(t), bank(i) {}
    void raise_irq(unsigned g) override {
      trio.irqs[bank].emplace_back(hs::now().to_seconds() * 1e9, g);
    }
    void withdraw_irq(uint32_t) override {}
    Trio& trio;
    size_t bank;
  };
  std::vector<std::unique_ptr<CounterBank>> banks;
  std::vector<std::unique_ptr<Listener>> listeners;
  std::vector<std::vector<std::pair<double, uint32_t>>> irqs;  // (ns, group) per bank
  std::vector<sc_core::sc_time> waited;  // returned by register accesses, in all, per bank

  Trio(int seed, const Clock& clock) : irqs(3), waited(3) {
    const BankShape shape = rtl_bank_shape(true);
    const CounterTiming timing = rtl_timing();
    const std::string n = "s" + std::to_string(seed);
    banks.push_back(std::make_unique<CounterBankModel>(n + "_model", shape, clock, timing));
    banks.push_back(std::make_unique<CounterBlockAdapter>(
        n + "_cycle", std::make_unique<CounterBankCycleModel>(shape, timing), clock, timing));
    banks.push_back(std::make_unique<CounterBlockAdapter>(
        n + "_rtl", VerilatedCounterBlock::create((n + "_block").c_str(), true), clock, timing));
    for (size_t i = 0; i < banks.size(); ++i) {
      listeners.push_back(std::make_unique<Listener>(*this, i));
      banks[i]->irq.bind(*listeners.back());
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
  // A register access, by bank: its outcome, with the wait it returned added up.
  auto access = [&](CounterBank& b, RegisterAccess a) {
    for (size_t k = 0; k < t.banks.size(); ++k) {
      if (t.banks[k].get() == &b) t.waited[k] += a.waited;
    }
    return a;
  };
  for (int g = 0; g < 4; ++g) {
    all_equal([&](CounterBank& b) { return access(b, b.write(group_reg(g, kEnable), ~0ull, 8)); },
              "enable", -1);
    all_equal([&](CounterBank& b) { return access(b, b.write(group_reg(g, kIrqEnable), 1, 4)); },
              "irq", -1);
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
        all_equal([&](CounterBank& b) { return access(b, b.write(counter_reg(c, kValue), v, 4)); },
                  "value", i);
        break;
      case 1: {
        const uint32_t reg = pick(2) ? kValue : kBase;
        all_equal(
            [&](CounterBank& b) {
              uint64_t r = 0;
              const RegisterAccess a = access(b, b.read(counter_reg(c, reg), 4, r));
              return std::make_pair(a, r);
            },
            "read", i);
        break;
      }
      case 2:
        all_equal(
            [&](CounterBank& b) {
              return access(b, b.write(group_reg(c / 64, kClearHitZero), ~0ull, 8));
            },
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
      EXPECT_EQ(t.banks[b]->edges().accesses_delayed(), t.banks[0]->edges().accesses_delayed());
      EXPECT_EQ(t.waited[b], t.waited[0]) << "register access waits, seed " << s + 1;
    }
    EXPECT_GT(t.banks[0]->edges().slipped(), 0u) << "no request ever waited for a busy edge";
    // Accesses collided often, and each felt its wait: the returned waits add up to the
    // edges the port counted them waiting.
    EXPECT_GT(t.banks[0]->edges().accesses_delayed(), 50u) << "seed " << s + 1;
    const double edge_ps = 1e12 / clock.hz();
    EXPECT_NEAR(t.waited[0].to_seconds() * 1e12,
                static_cast<double>(t.banks[0]->edges().access_wait_edges()) * edge_ps,
                static_cast<double>(t.banks[0]->edges().accesses_delayed()))  // 1 ps rounding each
        << "seed " << s + 1;
  }
}

// Edge k of the 850 MHz DMA clock is at k x 1176.47 ps. Requests at T = edge 10 + 100 ps are
// sampled at edge 11; so is anything before edge 11 (12941 ps), and T + 1100 ps is past it.
TEST(CounterCosim, RegisterAccessCollidingWithADecrementWaitsForTheBusyEdge) {
  const Clock clock(850e6);
  Trio t(1, clock);
  std::vector<std::vector<RegisterAccess>> got(3);
  sc_core::sc_spawn(
      [&] {
        for (auto& b : t.banks) b->write(counter_reg(3, kValue), 1000, 4);
        sc_core::wait(clock.cycles(10) + sc_core::sc_time(100, sc_core::SC_PS) - hs::now());
        for (size_t k = 0; k < 3; ++k) {
          CounterBank& b = *t.banks[k];
          uint64_t v = 0;
          b.decrement(3, 100, false, 0, 0);                        // takes edge 11
          got[k].push_back(b.read(counter_reg(3, kValue), 4, v));  // 12 and 13 (read latency 2)
          EXPECT_EQ(v, 900u) << "bank " << k;
          got[k].push_back(b.write(counter_reg(4, kValue), 7, 4));  // 14
          b.decrement(3, 100, false, 0, 0);                         // 15
          got[k].push_back(b.write(counter_reg(4, kValue), 8, 4));  // 16
        }
        // 1000 ps later the request is still sampled at edge 11, which is long gone: edge 17.
        sc_core::wait(sc_core::sc_time(1000, sc_core::SC_PS));
        for (size_t k = 0; k < 3; ++k) {
          uint64_t v = 0;
          got[k].push_back(t.banks[k]->read(counter_reg(4, kValue), 4, v));
          EXPECT_EQ(v, 8u);
        }
      },
      "collide");
  sc_core::sc_start();
  auto wait_from_11 = [&](uint64_t edge) { return clock.cycles(edge) - clock.cycles(11); };
  const std::vector<RegisterAccess> want = {{true, wait_from_11(12)},
                                            {true, wait_from_11(14)},
                                            {true, wait_from_11(16)},
                                            {true, wait_from_11(17)}};
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(got[k], want) << "bank " << k;
    const CounterEdges& e = t.banks[k]->edges();
    EXPECT_EQ(e.accesses_delayed(), 4u);
    EXPECT_EQ(e.access_wait_edges(), 1u + 3 + 5 + 6);
  }
}

TEST(CounterCosim, RegisterAccessWithoutACollisionDoesNotWait) {
  const Clock clock(850e6);
  Trio t(2, clock);
  std::vector<std::vector<RegisterAccess>> got(3);
  sc_core::sc_spawn(
      [&] {
        sc_core::wait(clock.cycles(10) + sc_core::sc_time(100, sc_core::SC_PS));
        for (auto& b : t.banks) b->decrement(3, 0, false, 0, 0);  // edge 11
        // Past edge 11: sampled at edge 12, which is free.
        sc_core::wait(sc_core::sc_time(1100, sc_core::SC_PS));
        for (size_t k = 0; k < 3; ++k) {
          uint64_t v = 0;
          got[k].push_back(t.banks[k]->read(counter_reg(3, kValue), 4, v));  // 12 and 13
        }
        // A decrement after an access never delays the access that came first.
        for (auto& b : t.banks) b->decrement(3, 0, false, 0, 0);  // slips to 14
        sc_core::wait(clock.cycles(3));                           // sampled at edge 15
        for (size_t k = 0; k < 3; ++k) {
          got[k].push_back(t.banks[k]->write(counter_reg(3, kValue), 5, 4));
        }
      },
      "apart");
  sc_core::sc_start();
  const std::vector<RegisterAccess> want(2, RegisterAccess{true, sc_core::SC_ZERO_TIME});
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(got[k], want) << "bank " << k;
    EXPECT_EQ(t.banks[k]->edges().accesses_delayed(), 0u);
    EXPECT_EQ(t.banks[k]->edges().slipped(), 1u) << "the decrement behind the read slipped";
  }
}

namespace {

// A one-node torus whose cores 0 and 1 each read an injection counter, core 1 after `delay1`
// core cycles; returns each read's duration as the core saw it, then (third) that of a read of
// the DMA's error register, which passes no counter bank: the cost of an uncontended access.
std::vector<sc_core::sc_time> two_core_reads(const char* counters, uint64_t delay1) {
  for (const char* axis : {"torus.network.x", "torus.network.y", "torus.network.z"}) {
    set_param(axis, 1);
  }
  set_param("torus.node.dma.counters", counters);
  torus::TorusMachine machine("torus");
  ParamRegistry::instance().finalize();
  std::vector<sc_core::sc_time> took(3);
  auto timed_read = [&took](fw::Hal& hal, size_t slot, uint64_t offset, uint64_t want) {
    const sc_core::sc_time start = hs::now();
    EXPECT_EQ(hal.reg_read(torus::amap::kDmaRegs + offset, 4), want);
    took[slot] = hs::now() - start;
  };
  const uint64_t counter = torus::dma::kInjCounterBank + counter_reg(5, kValue);
  std::vector<Core*> cores = machine.cores();
  for (Core* c : cores) c->set_firmware([](fw::Hal&) {});
  cores[0]->set_firmware([&](fw::Hal& hal) {
    timed_read(hal, 0, counter, 0xFFFFFFFF);
    hal.compute(100);
    timed_read(hal, 2, torus::dma::kErrorReg, torus::dma::kNoError);
  });
  cores[1]->set_firmware([&](fw::Hal& hal) {
    hal.compute(delay1);
    timed_read(hal, 1, counter, 0xFFFFFFFF);
  });
  sc_core::sc_start();
  return took;
}

}  // namespace

// Two cores read a counter at once: one takes the port's edge, the other waits behind the
// read's two edges and its access is exactly that much longer, with either bank.
class CounterPortThroughDma : public ::testing::TestWithParam<const char*> {};

TEST_P(CounterPortThroughDma, CoresReadingACounterAtOnceTheSecondWaitsForTheReadsEdges) {
  const auto took = two_core_reads(GetParam(), 0);
  const Clock dma(850e6);
  // Both sampled at edge 1; one read holds edges 1 and 2 and costs what any DMA register
  // does, the other takes edge 3.
  EXPECT_EQ(std::min(took[0], took[1]), took[2]);
  EXPECT_EQ(std::max(took[0], took[1]) - took[2], dma.cycles(3) - dma.cycles(1));
}

TEST_P(CounterPortThroughDma, ReadsApartDoNotWait) {
  // Core 1 reads two core cycles (two DMA edges) later: sampled at edge 3, the first after the
  // first read's edges 1 and 2.
  const auto took = two_core_reads(GetParam(), 2);
  EXPECT_EQ(took[0], took[2]);
  EXPECT_EQ(took[1], took[2]);
}

INSTANTIATE_TEST_SUITE_P(Banks, CounterPortThroughDma, ::testing::Values("tlm", "rtl"));

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

TEST(CounterCosim, RtlWaveformsJoinTheModelsWithSimulatedTimes) {
  const std::string vcd = hs::testing::temp_path("cosim_wave.vcd");
  runner::RunOptions o;
  o.scenario = "torus_pingpong";
  o.sets = {"torus.node.dma.counters=rtl", "torus.network.x=2", "torus.network.y=2",
            "torus.network.z=2",           "workload.hops=1",   "torus.trace_nodes=0-1,0,0"};
  o.vcd_path = vcd;
  const auto r = run_scenario(o);
  ASSERT_TRUE(passed(r)) << violations(r);
  std::ifstream f(vcd);
  ASSERT_TRUE(f);
  std::string line, last_time;
  std::vector<std::string> scopes;
  std::set<std::string> banks;
  int times = 0;
  while (std::getline(f, line)) {
    std::istringstream words(line);
    std::string w, type, name;
    words >> w;
    if (w == "$scope") {
      words >> type >> name;
      scopes.push_back(name);
    } else if (w == "$upscope") {
      scopes.pop_back();
    } else if (w == "$var" && line.find(" clk $end") != std::string::npos &&
               scopes.back() == "dma_counter_bank_cosim") {
      std::string path;
      for (const auto& s : scopes) path += (path.empty() ? "" : ".") + s;
      banks.insert(path);
    } else if (!w.empty() && w[0] == '#' && line.find(' ') == std::string::npos) {
      last_time = w.substr(1);
      ++times;
    }
  }
  // The banks of the nodes chosen, and only those, each under its node.
  EXPECT_EQ(banks, (std::set<std::string>{"torus.x0y0z0.dma.inj_counters.dma_counter_bank_cosim",
                                          "torus.x0y0z0.dma.rec_counters.dma_counter_bank_cosim",
                                          "torus.x1y0z0.dma.inj_counters.dma_counter_bank_cosim",
                                          "torus.x1y0z0.dma.rec_counters.dma_counter_bank_cosim"}));
  EXPECT_GT(times, 100);
  // Timestamps are picoseconds of simulated time: the last edge lies within the run.
  EXPECT_LE(std::stod(last_time) / 1000.0, r["simulated_time_ns"].get<double>());
  EXPECT_GT(std::stod(last_time) / 1000.0, 0.5 * r["simulated_time_ns"].get<double>());
}
