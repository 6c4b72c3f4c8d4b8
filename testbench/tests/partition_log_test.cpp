// PartitionLog, the logs a parallel run's whole-machine checkers replay (partition_log.h):
// replayed window by window, as the reporting partition replays them at each window's end,
// the partitions' events come in exactly the order of one replay of the whole run's logs at
// its end, and of a naive reference (time; same-time events in partition order; one
// partition's in the order logged). An event earlier than one already replayed is refused, and
// once a violation is recorded no event of a later time is played.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "testbench/checkers/partition_log.h"
#include "tlm/check/checker.h"

using hs::ByteReader;
using hs::Bytes;
using hs::ByteWriter;
using hs::checkers::PartitionLog;

namespace {

constexpr int kPartitions = 3;

// An event as played: its time (the kernel's units), the partition that logged it, its number
// there.
using Played = std::tuple<uint64_t, int, int>;

// Runs the (empty) kernel on to `t` (in the kernel's units), so that what is logged next is
// stamped with that time.
void at(uint64_t t) {
  sc_core::sc_start(sc_core::sc_time::from_value(t) - sc_core::sc_time_stamp());
}

// Replays `by_partition` into `log` (any partition's log replays), appending what it plays.
void replay(PartitionLog& log, const std::vector<Bytes>& by_partition, std::vector<Played>& out) {
  log.replay(by_partition, [&](uint64_t t, ByteReader& r) {
    const int p = r.get<int>();
    const int n = r.get<int>();
    out.emplace_back(t, p, n);
  });
}

}  // namespace

// Four windows of 100 time units; in each, every partition logs events at times of its own, some
// the same as another partition's (and several at one time in one partition). Two copies of each
// partition's log see the same events: one is taken and replayed at every window's end, the
// other taken and replayed once after the last window.
TEST(PartitionLog, ReplayedWindowByWindowItIsOneReplayAtTheEnd) {
  std::vector<PartitionLog> windowed(kPartitions), once(kPartitions);
  std::vector<Played> by_window, at_end, reference;
  std::vector<int> count(kPartitions, 0);
  const auto log = [&](int p) {
    const int n = count[static_cast<size_t>(p)]++;
    for (auto* logs : {&windowed, &once}) {
      (*logs)[static_cast<size_t>(p)].add([&](ByteWriter& w) {
        w.put(p);
        w.put(n);
      });
    }
    reference.emplace_back(sc_core::sc_time_stamp().value(), p, n);
  };
  for (uint64_t window = 0; window < 4; ++window) {
    const uint64_t start = window * 100;
    // Times within the window, each with the partitions that log then (in kernel order, which
    // is not partition order).
    const std::vector<std::pair<uint64_t, std::vector<int>>> times{{start + 0, {2, 0}},
                                                                   {start + 10, {1, 1, 2}},
                                                                   {start + 10 + window, {0, 2, 0}},
                                                                   {start + 99, {1, 0}}};
    for (const auto& [t, who] : times) {
      at(t);
      for (int p : who) log(p);
    }
    at(start + 100);  // the window's end
    std::vector<Bytes> taken;
    for (PartitionLog& l : windowed) taken.push_back(l.take());
    for (const PartitionLog& l : windowed) EXPECT_EQ(l.events(), 0u);
    replay(windowed[0], taken, by_window);
  }
  std::vector<Bytes> all;
  for (PartitionLog& l : once) all.push_back(l.take());
  replay(once[0], all, at_end);

  // The reference: by time, then partition, then each partition's own order.
  std::stable_sort(reference.begin(), reference.end(), [](const Played& a, const Played& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  ASSERT_EQ(by_window.size(), reference.size());
  EXPECT_EQ(at_end, reference);
  EXPECT_EQ(by_window, at_end);
  EXPECT_TRUE(hs::CheckRegistry::instance().ok());
}

// A window's events reach the replay after a later window's: refused, not played out of order.
TEST(PartitionLog, AnEventEarlierThanOneReplayedIsRefused) {
  PartitionLog a, b;
  const auto add = [](PartitionLog& l) { l.add([](ByteWriter& w) { w.put(0); }); };
  at(10);
  add(a);
  const Bytes early = a.take();
  at(20);
  add(b);
  const auto skip = [](uint64_t, ByteReader& r) { r.get<int>(); };
  b.replay({b.take()}, skip);
  EXPECT_THROW(b.replay({early}, skip), std::logic_error);
}

// A violation found at time 20: the replay plays the rest of that instant (another partition's
// event at 20) and nothing later, in that window or the next, as the sequential run, stopped
// at the violation, never reaches it; the violation is recorded at its event's time.
TEST(PartitionLog, NothingLaterThanAViolationIsPlayed) {
  std::vector<PartitionLog> logs(2);
  const auto add = [&](int p, int n) {
    logs[static_cast<size_t>(p)].add([&](ByteWriter& w) {
      w.put(p);
      w.put(n);
    });
  };
  at(10);
  add(0, 0);
  at(20);
  add(0, 1);  // breaks the rule
  add(1, 0);
  at(30);
  add(1, 1);
  std::vector<Played> played;
  const auto play = [&](uint64_t t, ByteReader& r) {
    const int p = r.get<int>();
    const int n = r.get<int>();
    played.emplace_back(t, p, n);
    if (p == 0 && n == 1) hs::CheckRegistry::instance().fail("a rule", "test", "broken");
  };
  logs[0].replay({logs[0].take(), logs[1].take()}, play);
  at(40);
  add(0, 2);
  logs[0].replay({logs[0].take(), logs[1].take()}, play);
  ASSERT_EQ(hs::CheckRegistry::instance().violations().size(), 1u);
  EXPECT_EQ(hs::CheckRegistry::instance().violations()[0].at, sc_core::sc_time::from_value(20));
  EXPECT_EQ(played, (std::vector<Played>{{10, 0, 0}, {20, 0, 1}, {20, 1, 0}}));
}
