// Fibers (tlm/kernel/fiber.h) and the cores that run firmware in them: a fiber runs to each
// yield and back; its stacks cost no memory mapping each; an overflow is caught and named;
// a fiber left suspended is unwound; and a fiber core keeps exactly the timing of a thread
// core running the same firmware.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/cpu/core.h"
#include "hw/torus/node/torus_machine.h"
#include "testbench/support/node_fixture.h"
#include "tlm/params/param_registry.h"
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>
#include "tlm/bus/router.h"
#include "tlm/check/checker.h"
#include "tlm/kernel/fiber.h"
#include "tlm/kernel/now.h"
#include "tlm/memory/memory.h"

#include <tlm_utils/simple_target_socket.h>

using namespace hs;

namespace {

int memory_mappings() {
  std::ifstream maps("/proc/self/maps");
  int n = 0;
  for (std::string line; std::getline(maps, line);) ++n;
  return n;
}

// Uses about `bytes` of stack, a frame at a time, so the compiler cannot fold it away.
int use_stack(int bytes) {
  volatile char frame[512];
  std::memset(const_cast<char*>(frame), bytes & 0xff, sizeof frame);
  if (bytes <= 512) return frame[0];
  return use_stack(bytes - 512) + frame[511];
}

}  // namespace

TEST(Fiber, RunsToEachYieldAndBackInOrder) {
  std::vector<int> order;
  Fiber f("f", 64 * 1024, [&] {
    order.push_back(1);
    Fiber::current()->yield();
    order.push_back(3);
  });
  EXPECT_EQ(Fiber::current(), nullptr);
  f.resume();
  order.push_back(2);
  EXPECT_FALSE(f.finished());
  f.resume();
  order.push_back(4);
  EXPECT_TRUE(f.finished());
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(Fiber::current(), nullptr);
}

TEST(Fiber, ThousandsOfSuspendedFibersAddOnlyAFewMemoryMappings) {
  const int before = memory_mappings();
  std::vector<std::unique_ptr<Fiber>> fibers;
  for (int i = 0; i < 2000; ++i) {
    fibers.push_back(std::make_unique<Fiber>("f" + std::to_string(i), 32 * 1024,
                                             [] { Fiber::current()->yield(); }));
    fibers.back()->resume();
  }
  // A kernel thread costs two mappings (its stack and the stack's guard page): 4000 here.
  EXPECT_LT(memory_mappings() - before, 20);
  for (auto& f : fibers) f->resume();
  for (auto& f : fibers) EXPECT_TRUE(f->finished());
}

TEST(Fiber, AStackOverflowIsCaughtAndNamesTheFiber) {
  // The fiber below the overflowing one in the pool takes the overflow; it never runs.
  Fiber below("below", 20 * 1024, [] {});
  Fiber f("torus.x1y0z0.core0", 20 * 1024, [] {
    use_stack(22 * 1024);
    Fiber::current()->yield();
  });
  std::string error;
  try {
    f.resume();
  } catch (const Fiber::StackOverflow& e) {
    error = e.what();
  }
  EXPECT_EQ(error, "torus.x1y0z0.core0: the firmware overflowed its 20 KiB stack");
}

TEST(Fiber, ASuspendedFiberIsUnwoundAndItsObjectsDestroyed) {
  struct Holder {
    bool* destroyed;
    ~Holder() { *destroyed = true; }
  };
  bool destroyed = false;
  bool after_yield = false;
  Fiber f("f", 64 * 1024, [&] {
    Holder h{&destroyed};
    Fiber::current()->yield();
    after_yield = true;
  });
  f.resume();
  EXPECT_FALSE(destroyed);
  Fiber::unwind_all();
  EXPECT_TRUE(destroyed);
  EXPECT_FALSE(after_yield);
  EXPECT_TRUE(f.finished());
}

TEST(Fiber, ResumingFromInsideAFiberIsRefused) {
  Fiber inner("inner", 64 * 1024, [] {});
  std::string error;
  Fiber outer("outer", 64 * 1024, [&] {
    try {
      inner.resume();
    } catch (const std::logic_error& e) {
      error = e.what();
    }
  });
  outer.resume();
  EXPECT_NE(error.find("inner resumed from inside a fiber"), std::string::npos) << error;
}

namespace {

// Two cores, each with its own bus and memory, one running its firmware in a thread and one
// in a fiber; each records when each step of the same firmware ended.
struct TwoCores {
  static constexpr MemoryDefaults kDram{1 << 20, 100.0, 10.0, 1 << 20};
  Router thread_bus{"thread_bus", 6.0}, fiber_bus{"fiber_bus", 6.0};
  Memory thread_dram{"thread_dram", kDram}, fiber_dram{"fiber_dram", kDram};
  Core thread_core{"thread_core", 1e9, 0, Core::Execution::Thread};
  Core fiber_core{"fiber_core", 1e9, 1, Core::Execution::Fiber};
  std::vector<double> thread_times, fiber_times;

  TwoCores() {
    thread_bus.attach(thread_dram.socket, 0, thread_dram.size(), "dram");
    fiber_bus.attach(fiber_dram.socket, 0, fiber_dram.size(), "dram");
    thread_core.bus.bind(thread_bus.upstream);
    fiber_core.bus.bind(fiber_bus.upstream);
    thread_core.set_firmware([this](fw::Hal& hal) { firmware(hal, thread_times); });
    fiber_core.set_firmware([this](fw::Hal& hal) { firmware(hal, fiber_times); });
  }
  static void firmware(fw::Hal& hal, std::vector<double>& t) {
    const uint64_t base = 256;
    const auto mark = [&] { t.push_back(now().to_seconds() * 1e9); };
    hal.compute(1000);
    mark();
    uint32_t v = 7;
    hal.store(base, &v, 4);
    mark();
    hal.load(base, &v, 4);
    mark();
    hal.wait_irq(1u << 3);  // raised at 5 us
    mark();
    hal.compute(1);
    mark();
  }
};

}  // namespace

TEST(FiberCore, KeepsTheTimingOfAThreadCoreRunningTheSameFirmware) {
  TwoCores m;
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  sc_core::sc_event at5;
  opts.set_sensitivity(&at5);
  IrqOut pin("test.irq");  // one wire to both cores
  pin.bind(m.thread_core);
  pin.bind(m.fiber_core);
  sc_core::sc_spawn([&] { pin.raise(3); }, "irq", &opts);
  at5.notify(5, sc_core::SC_US);
  sc_core::sc_start();
  ASSERT_TRUE(m.thread_core.finished());
  ASSERT_TRUE(m.fiber_core.finished());
  ASSERT_EQ(m.thread_times.size(), 5u);
  EXPECT_EQ(m.fiber_times, m.thread_times);
  EXPECT_DOUBLE_EQ(m.fiber_times[0], 1000.0);
  EXPECT_GE(m.fiber_times[3], 5000.0);
}

TEST(FiberCore, AStackOverflowStopsTheRunNamingTheParameterToRaise) {
  hs::testing::set_param("torus.network.x", 2);
  hs::testing::set_param("torus.network.y", 1);
  hs::testing::set_param("torus.network.z", 1);
  hs::testing::set_param("torus.node.core0.stack_size", 16 * 1024);
  torus::TorusMachine m("torus");
  ParamRegistry::instance().finalize();
  m.node(1).core_list[0]->set_firmware([](fw::Hal& hal) {
    use_stack(24 * 1024);
    hal.compute(1);
  });
  std::string error;
  try {
    sc_core::sc_start();
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("torus.x1y0z0.core0: the firmware overflowed its 16 KiB stack"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("(raise torus.node.core0.stack_size)"), std::string::npos) << error;
}

// A fiber held by a static outlives everything constructed after it, the stack pool included:
// its destruction at exit must still find the pool (a test run ending cleanly is the check).
TEST(Fiber, AFiberDestroyedAtExitAfterThePoolWasFirstUsedStillReturnsItsStack) {
  static std::unique_ptr<Fiber> held;
  held = std::make_unique<Fiber>("held", 64 * 1024, [] {});
  Fiber first_use("first_use", 48 * 1024, [] {});
  held->resume();
  EXPECT_TRUE(held->finished());
}

namespace {

// A target that waits inside b_transport, as a link waiting for credits does.
struct WaitingTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<WaitingTarget> socket;
  explicit WaitingTarget(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &WaitingTarget::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    sc_core::wait(40, sc_core::SC_NS);
    delay += sc_core::sc_time(10, sc_core::SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// The same firmware on a thread core and on a fiber core whose bus may block.
struct BlockingBusCores {
  WaitingTarget thread_target{"thread_target"}, fiber_target{"fiber_target"};
  Core thread_core{"thread_core", 1e9, 0, Core::Execution::Thread};
  Core fiber_core{"fiber_core", 1e9, 1, Core::Execution::Fiber};
  std::vector<double> thread_times, fiber_times;

  explicit BlockingBusCores(bool may_block) {
    thread_core.bus.bind(thread_target.socket);
    fiber_core.bus.bind(fiber_target.socket);
    fiber_core.set_bus_may_block(may_block);
    thread_core.set_firmware([this](fw::Hal& hal) { firmware(hal, thread_times); });
    fiber_core.set_firmware([this](fw::Hal& hal) { firmware(hal, fiber_times); });
  }
  static void firmware(fw::Hal& hal, std::vector<double>& t) {
    uint32_t v = 7;
    for (int i = 0; i < 3; ++i) {
      hal.store(64, &v, 4);
      t.push_back(now().to_seconds() * 1e9);
      hal.compute(5);
      hal.load(64, &v, 4);
      t.push_back(now().to_seconds() * 1e9);
    }
  }
};

}  // namespace

TEST(FiberCore, WhoseBusMayBlockKeepsTheTimingOfAThreadCore) {
  BlockingBusCores m(true);
  sc_core::sc_start();
  ASSERT_TRUE(m.thread_core.finished());
  ASSERT_TRUE(m.fiber_core.finished());
  ASSERT_EQ(m.thread_times.size(), 6u);
  EXPECT_EQ(m.fiber_times, m.thread_times);
  EXPECT_GE(m.fiber_times[0], 50.0);  // the target's wait and its annotated delay
}

TEST(FiberCore, WhoseBusBlocksWithoutBeingToldFailsTheRun) {
  BlockingBusCores m(false);
  sc_core::sc_start();                           // the failure stops the run
  EXPECT_TRUE(m.fiber_times.empty());            // its first access stopped it
  EXPECT_FALSE(CheckRegistry::instance().ok());  // "firmware: no exception escapes"
}
