// The links' delivery mechanism: a receiver takes what a link carries in arrival order, from a
// thread (its target may wait) or in place (its target never waits), and flow-control credits
// come back only once it has taken each item; a slow receiver throttles its transmitter.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "hw/ethernet/ethernet_link.h"
#include "testbench/support/scripted_initiator.h"
#include "tlm/check/checker.h"
#include "tlm/link/credit_pool.h"
#include "tlm/link/delivery_queue.h"
#include "tlm/memory/memory.h"
#include "tlm/params/param_registry.h"
#include "tlm/stats/statistics.h"

using namespace hs;
using hs::testing::ScriptedInitiator;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

struct Taken {
  sc_time at;
  int item;
};

// Pushes items at given arrival times from a thread, as a link does when it puts them on a
// wire.
struct Feeder : sc_core::sc_module {
  SC_HAS_PROCESS(Feeder);
  Feeder(sc_core::sc_module_name n, std::vector<std::pair<double, int>> items,
         DeliveryQueue<int>& q)
      : sc_module(n), items_(std::move(items)), q_(q) {
    SC_THREAD(run);
  }
  void run() {
    for (auto& [ns, v] : items_) {
      // An arrival of 0 ns means "now" (the instant it is pushed).
      q_.push(ns > 0 ? sc_time(ns, SC_NS) : sc_core::sc_time_stamp(), v);
      if (at_push) at_push(v);
    }
  }
  std::function<void(int)> at_push;  // runs on the feeder's thread after each push
  std::vector<std::pair<double, int>> items_;
  DeliveryQueue<int>& q_;
};

}  // namespace

TEST(DeliveryQueue, TakesItemsInArrivalOrderNoEarlierThanTheirArrival) {
  std::vector<Taken> taken;
  DeliveryQueue<int> q([&](int& v) { taken.push_back({sc_core::sc_time_stamp(), v}); });
  Feeder f("feeder", {{10, 0}, {20, 1}, {20, 2}, {50, 3}}, q);
  sc_core::sc_start();
  ASSERT_EQ(taken.size(), 4u);
  const double expect[] = {10, 20, 20, 50};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(taken[i].item, i);
    EXPECT_EQ(taken[i].at, sc_time(expect[i], SC_NS)) << "item " << i;
  }
}

TEST(DeliveryQueue, TakenInPlaceTakesItemsInArrivalOrderAtTheirArrivalWithoutAWorker) {
  std::vector<Taken> taken;
  DeliveryQueue<int> q([&](int& v) { taken.push_back({sc_core::sc_time_stamp(), v}); });
  q.take_in_place();
  ASSERT_TRUE(q.takes_in_place());
  // Item 4 arrives the instant it is pushed (a zero-latency wire), after the queue emptied.
  Feeder f("feeder", {{10, 0}, {20, 1}, {20, 2}, {50, 3}, {0, 4}}, q);
  f.at_push = [&](int v) {
    if (v == 3) sc_core::wait(60, SC_NS);  // the feeder pushes item 4 at 60 ns, arriving then
  };
  sc_core::sc_start();
  ASSERT_EQ(taken.size(), 5u);
  const double expect[] = {10, 20, 20, 50, 60};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(taken[i].item, i);
    EXPECT_EQ(taken[i].at, sc_time(expect[i], SC_NS)) << "item " << i;
  }
  EXPECT_EQ(DeliveryWorkers::instance().workers(), 0u);
}

// Taking in place is a promise that the target never waits: a target that does is reported
// by SystemC (a wait in a method), not run with different timing.
TEST(DeliveryQueue, ATargetThatWaitsCannotBeTakenInPlace) {
  DeliveryQueue<int> q([&](int&) { sc_core::wait(1, SC_NS); });
  q.take_in_place();
  Feeder f("feeder", {{10, 0}}, q);
  EXPECT_THROW(sc_core::sc_start(), sc_core::sc_report);
}

TEST(DeliveryQueue, AWaitingTargetHoldsTheItemsBehindIt) {
  std::vector<Taken> taken;
  DeliveryQueue<int> q([&](int& v) {
    if (v == 0) sc_core::wait(100, SC_NS);  // only a thread may do this
    taken.push_back({sc_core::sc_time_stamp(), v});
  });
  Feeder f("feeder", {{0, 0}, {10, 1}, {200, 2}}, q);
  sc_core::sc_start();
  ASSERT_EQ(taken.size(), 3u);
  EXPECT_EQ(taken[0].at, sc_time(100, SC_NS));
  EXPECT_EQ(taken[1].at, sc_time(100, SC_NS));  // arrived at 10, waited behind item 0
  EXPECT_EQ(taken[2].at, sc_time(200, SC_NS));
}

TEST(DeliveryQueue, ReceiversWhoseTargetsWaitDoNotDelayEachOther) {
  std::vector<Taken> a_taken, b_taken;
  DeliveryQueue<int> a([&](int& v) {
    sc_core::wait(1, SC_US);
    a_taken.push_back({sc_core::sc_time_stamp(), v});
  });
  DeliveryQueue<int> b([&](int& v) {
    sc_core::wait(1, SC_US);
    b_taken.push_back({sc_core::sc_time_stamp(), v});
  });
  Feeder fa("fa", {{0, 0}}, a);
  Feeder fb("fb", {{0, 0}}, b);
  sc_core::sc_start();
  ASSERT_EQ(a_taken.size(), 1u);
  ASSERT_EQ(b_taken.size(), 1u);
  EXPECT_EQ(a_taken[0].at, sc_time(1, SC_US));
  EXPECT_EQ(b_taken[0].at, sc_time(1, SC_US));
  EXPECT_GE(DeliveryWorkers::instance().workers(), 2u);
}

TEST(CreditPool, AvailabilityWaitsForTheReceiverToScheduleAReturn) {
  CreditPool pool(2, 0);
  const sc_time zero = sc_core::SC_ZERO_TIME;
  ASSERT_EQ(pool.available_at(0, zero), zero);
  pool.consume(0, zero);
  pool.consume(0, zero);
  // Both credits are out and the receiver has not taken either packet: unknown.
  EXPECT_FALSE(pool.available_at(0, zero).has_value());
  pool.release(sc_time(50, SC_NS));
  EXPECT_EQ(pool.available_at(0, zero), sc_time(50, SC_NS));
  // Returns never go back in time: the second release is moved to the first's.
  pool.consume(0, sc_time(50, SC_NS));
  pool.release(sc_time(30, SC_NS));
  EXPECT_EQ(pool.available_at(0, sc_time(50, SC_NS)), sc_time(50, SC_NS));
  pool.release(sc_time(60, SC_NS));
  EXPECT_THROW(pool.release(sc_time(70, SC_NS)), std::logic_error);  // nothing left to return
}

TEST(CreditPool, DataCreditsBoundWhatIsOutstanding) {
  CreditPool pool(0, 10);  // unlimited headers, ten data credits
  pool.consume(6, sc_core::SC_ZERO_TIME);
  EXPECT_FALSE(pool.available_at(6, sc_core::SC_ZERO_TIME).has_value());
  EXPECT_EQ(pool.available_at(4, sc_core::SC_ZERO_TIME), sc_core::SC_ZERO_TIME);
  EXPECT_THROW(pool.available_at(11, sc_core::SC_ZERO_TIME), std::logic_error);
  EXPECT_THROW(pool.consume(6, sc_core::SC_ZERO_TIME), std::logic_error);
}

// An Ethernet link whose receiver is a memory ten times slower than the wire: the NIC's
// receive buffer fills and pauses the sender, which then runs at the memory's rate.
TEST(EthernetLink, SlowReceiverPausesTheSenderToItsRate) {
  constexpr int kChunks = 64;
  constexpr uint64_t kChunk = 16 * 1024;
  std::vector<uint8_t> buf(kChunk, 7);
  std::vector<sc_time> done;
  ethernet::EthernetLink link("eth0", 0);
  ScriptedInitiator init("init", [&](ScriptedInitiator& i) {
    for (int c = 0; c < kChunks; ++c) {
      i.write(c * kChunk, buf.data(), buf.size());
      done.push_back(sc_core::sc_time_stamp());
    }
  });
  ScriptedInitiator idle("idle", [](ScriptedInitiator&) {});
  Memory far("far", {1 << 24, 50, 0.0125, 1ull << 30});  // 12.5 MB/s, a tenth of 1 Gb/s
  Memory near("near", {1 << 24, 50, 10, 1ull << 30});
  init.socket.bind(link.a_in);
  idle.socket.bind(link.b_in);
  link.b_out.bind(far.socket);
  link.a_out.bind(near.socket);
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  for (const auto& v : CheckRegistry::instance().violations()) ADD_FAILURE() << v.message;
  ASSERT_EQ(done.size(), static_cast<size_t>(kChunks));
  // Steady state: from a quarter of the way in (the receive buffer has filled) to the end.
  const double rate = static_cast<double>(kChunk) * (kChunks - 1 - kChunks / 4) /
                      (done.back() - done[kChunks / 4]).to_seconds();
  // Write payload per frame: the memory takes payload only, the wire also carries headers.
  EXPECT_NEAR(rate, 12.5e6, 12.5e6 * 0.01);
  const Json s = StatsRegistry::instance().find("eth0.down")->to_json(sc_core::sc_time_stamp());
  EXPECT_GT(s["paused_frames"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["rx_buffer_held"]["peak"].get<int64_t>(), 64);
}
