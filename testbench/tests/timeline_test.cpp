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

namespace {

// An activation: the delta cycle it ran in, its place (Timeline::place) and who ran.
struct Ran {
  uint64_t delta;
  uint8_t phase;
  std::vector<uint64_t> key;
  std::string who;
};

// A process (a method or a thread) that knows its activations' places: woken by its alarm's
// ringing or by `poke`'s delta notification, which wakers note (poke_next_delta). It logs each
// activation and pokes its targets.
struct Waker : sc_core::sc_module, ActivationPlace {
  SC_HAS_PROCESS(Waker);
  Waker(sc_core::sc_module_name n, Origin& owner, bool thread, std::vector<Ran>& log)
      : sc_module(n), alarm(owner), thread_(thread), log_(log) {
    if (thread) {
      SC_THREAD(loop);
    } else {
      SC_METHOD(act);
      sensitive << alarm.event() << poke_;
      dont_initialize();
    }
    process_ = sc_core::sc_get_current_process_handle().get_process_object();
    Timeline::set_activation_place(process_, this);
  }
  ~Waker() override { Timeline::set_activation_place(process_, nullptr); }
  bool append_place(std::vector<uint64_t>& key) const override {
    if (note_.woke_now()) {
      WakeKey::delta(key, thread_, note_);
      return true;
    }
    return alarm.append_wake(key, thread_);
  }
  void poke_next_delta() {
    note_.note();
    poke_.notify(sc_core::SC_ZERO_TIME);
  }
  void act() {
    Ran r{sc_core::sc_delta_count(), 0, {}, name()};
    r.phase = Timeline::place(r.key);
    log_.push_back(std::move(r));
    for (Waker* t : targets) t->poke_next_delta();
  }
  void loop() {
    for (;;) {
      sc_core::wait(alarm.event() | poke_);
      act();
    }
  }
  Alarm alarm;
  std::vector<Waker*> targets;

 private:
  bool thread_;
  std::vector<Ran>& log_;
  sc_core::sc_event poke_;
  DeltaNote note_;
  const sc_core::sc_object* process_ = nullptr;
};

}  // namespace

// WakeKey's rules against the kernel: processes woken at one instant by alarms' ringings
// (threads and methods, rung in mixed order) and, over the next delta cycles, by delta
// notifications from those processes, from a timeline entry and from an action queued for the
// instant (one process notified twice in a delta cycle: the first counts) run in the order of
// their keys, delta cycle by delta cycle: the order a partitioned trace merges them in.
TEST(Timeline, WakeKeysOrderActivationsAsTheKernelRunsThem) {
  Timeline::keep_activations();
  Timeline::keep_now_paths();
  std::vector<Ran> log;
  Origin o1 = origin(1), o2 = origin(2), o3 = origin(3), o4 = origin(4), idle = origin(9);
  Waker r1("r1", o3, false, log), r2("r2", o1, true, log), r3("r3", o2, false, log),
      r4("r4", o4, true, log);
  Waker d1("d1", idle, false, log), d2("d2", idle, true, log), d3("d3", idle, false, log),
      d4("d4", idle, false, log), d5("d5", idle, true, log), d6("d6", idle, false, log),
      e1("e1", idle, true, log), e2("e2", idle, false, log), e3("e3", idle, false, log);
  r1.targets = {&d1, &d2};
  r2.targets = {&d3};
  r3.targets = {&d2, &d4};  // d2: r3 rings before r1, so r3's notification counts
  r4.targets = {&d6};
  d1.targets = {&e1};
  d3.targets = {&e2};  // (two targets of one activation share its key: one partition's)
  d2.targets = {&e3};
  Origin poster = origin(5);
  EventHeap<int>* heap_ptr = nullptr;
  EventHeap<int> heap([&](const int& a) {
    if (a == 1) {  // an entry due now, which queues an action for the instant
      d5.poke_next_delta();
      heap_ptr->post(10000, poster, 9);
    }
    if (a == 9) d1.poke_next_delta();  // before r1's: this one counts
  });
  heap_ptr = &heap;
  heap.post(10000, poster, 1);
  for (Waker* r : {&r1, &r2, &r3, &r4}) r->alarm.ring_in(sc_core::sc_time(10, sc_core::SC_NS));
  sc_core::sc_start();
  ASSERT_GE(log.size(), 13u);
  // Delta cycle by delta cycle, the keys ascend in the order the kernel ran the activations.
  size_t deltas = 1;
  for (size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(log[i].phase, 3) << log[i].who;
    if (i == 0 || log[i].delta != log[i - 1].delta) {
      deltas += i > 0;
      continue;
    }
    EXPECT_LT(log[i - 1].key, log[i].key) << log[i - 1].who << " ran before " << log[i].who;
  }
  EXPECT_GE(deltas, 3u);
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
