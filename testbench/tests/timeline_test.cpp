// The timeline (tlm/timing/timeline.h) and exact sums (tlm/stats/exact_sum.h): same-time
// wake-ups run in the order of (time, origin, the origin's own count), whatever order they were
// posted in and whatever else is pending; a dropped wake-up never lengthens a run; lanes' actions
// and alarms interleave in that one order; and a sum of doubles is the same in every order and
// grouping.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tlm/stats/exact_sum.h"
#include "tlm/timing/event_heap.h"
#include "tlm/timing/timeline.h"

using namespace hs;

namespace {

// A process woken by an alarm, recording who ran when.
struct Sleeper : sc_core::sc_module {
  SC_HAS_PROCESS(Sleeper);
  Sleeper(sc_core::sc_module_name n, Origin& owner, std::vector<std::string>& log)
      : sc_module(n), alarm(owner), log_(log) {
    SC_METHOD(woke);
    sensitive << alarm.event();
    dont_initialize();
  }
  void woke() { log_.push_back(std::string(name()) + "@" + sc_core::sc_time_stamp().to_string()); }
  Alarm alarm;
  std::vector<std::string>& log_;
};

// Origins as a component's name gives them: hashes, told apart by their top bits.
Origin origin(uint64_t n) {
  return Origin(n << 40);
}

}  // namespace

// Two components ring for one time in either order: they wake in the order of their origins,
// and a component's own two ringings in the order it rang them.
TEST(Timeline, SameTimeWakeUpsRunInTheOrderOfTheirOrigins) {
  std::vector<std::string> log;
  Origin low = origin(1), high = origin(2);
  Sleeper a("a", high, log), b("b", low, log), c("c", low, log);
  a.alarm.ring_in(sc_core::sc_time(10, sc_core::SC_NS));  // rung first, origin 2
  c.alarm.ring_in(sc_core::sc_time(10, sc_core::SC_NS));  // origin 1, its first
  b.alarm.ring_in(sc_core::sc_time(10, sc_core::SC_NS));  // origin 1, its second
  sc_core::sc_start();
  EXPECT_EQ(log, (std::vector<std::string>{"c@10 ns", "b@10 ns", "a@10 ns"}));
}

// A ringing cancelled (or replaced) never wakes anything and never lengthens the run.
TEST(Timeline, DroppedRingingsNeitherWakeNorLengthenTheRun) {
  std::vector<std::string> log;
  Origin owner(7);
  Sleeper a("a", owner, log), b("b", owner, log);
  a.alarm.ring_in(sc_core::sc_time(50, sc_core::SC_US));
  a.alarm.cancel();
  b.alarm.ring_in(sc_core::sc_time(40, sc_core::SC_US));
  b.alarm.ring_in(sc_core::sc_time(3, sc_core::SC_NS));  // replaces the 40 us ringing
  sc_core::sc_start();
  EXPECT_EQ(log, (std::vector<std::string>{"b@3 ns"}));
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(3, sc_core::SC_NS));
}

// A lane's actions and alarms at one time run merged in the one order; actions posted for the
// current instant run after everything already due, in the order posted; passed() says which
// places have run.
TEST(Timeline, LaneActionsAndAlarmsInterleaveInOneOrder) {
  std::vector<std::string> log;
  Origin first = origin(1), second = origin(2), third = origin(3);
  Sleeper alarm_two("alarm2", second, log);
  const Order credit_one = first.next(5000);
  Order credit_three;
  EventHeap<int>* heap_ptr = nullptr;
  std::vector<bool> passed_when;
  EventHeap<int> heap([&](const int& a) {
    log.push_back("action" + std::to_string(a));
    if (a == 3) {
      passed_when.push_back(heap_ptr->passed(credit_one));
      passed_when.push_back(heap_ptr->passed(credit_three));
      heap_ptr->post(5000, third, 9);  // for this instant: after everything due
    }
  });
  heap_ptr = &heap;
  heap.post(5000, third, 3);
  credit_three = third.next(5000);  // a place after action 3's
  alarm_two.alarm.ring_in(sc_core::sc_time(5, sc_core::SC_NS));
  heap.post(5000, first, 1);
  sc_core::sc_start();
  // The alarm's process runs after the dispatcher, in its delta cycle: last in the log.
  EXPECT_EQ(log, (std::vector<std::string>{"action1", "action3", "action9", "alarm2@5 ns"}));
  EXPECT_EQ(passed_when, (std::vector<bool>{true, false}));
  EXPECT_TRUE(heap.passed(credit_three)) << "everything at a past dispatch has passed";
}

// A sum of doubles is the same whatever the order and grouping of its terms, and is the
// correctly rounded total of the (exact) terms for values a long double holds exactly.
TEST(ExactSumTest, SameInEveryOrderAndGrouping) {
  std::mt19937_64 rng(5);
  std::vector<double> v;
  for (int i = 0; i < 20000; ++i) {
    const double mag = std::ldexp(1.0, static_cast<int>(rng() % 60) - 20);
    v.push_back(mag * (static_cast<double>(rng() % 1000000) / 7.0) * ((rng() & 1) ? 1 : -1));
  }
  ExactSum forward;
  for (double x : v) forward.add(x);
  std::shuffle(v.begin(), v.end(), rng);
  ExactSum parts[3];
  for (size_t i = 0; i < v.size(); ++i) parts[i % 3].add(v[i]);
  ExactSum merged;
  for (const auto& p : parts) merged.merge(p);
  EXPECT_TRUE(merged == forward);
  EXPECT_EQ(merged.value(), forward.value());
  // Plain double sums in these two orders differ: the reason exact sums exist.
  double a = 0, b = 0;
  for (double x : v) a += x;
  for (size_t i = v.size(); i-- > 0;) b += v[i];
  EXPECT_NE(a, b);
  EXPECT_NEAR(forward.value(), a, std::abs(a) * 1e-9 + 1e-6);
  ExactSum small;
  small.add(100.1);
  EXPECT_EQ(small.value(), 100.1) << "one term comes back exactly";
  small.add(-100.1);
  EXPECT_EQ(small.value(), 0.0);
}
