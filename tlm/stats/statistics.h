// Per-component statistics, registered under the component's hierarchical name and dumped
// into the JSON report: counters, busy time (utilisation), bytes moved over time, time-weighted
// occupancy with peak, log2-bucket histograms, and derived values computed at report time.
// Figures that feed rates (busy time, bytes moved) are kept as intervals and reported over the
// run's window [0, end]: work booked to finish after the end counts only its elapsed share.
// Next to its statistics a component declares the physical limits they must respect (every
// busy time is at most all the time; a wire's bytes within its line rate, a memory port's
// within its bandwidth); tlm/check/physical_limits.h checks them at the end of every run.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "tlm/parallel/bytes.h"
#include "tlm/stats/exact_sum.h"
#include "tlm/stats/windowed_total.h"

namespace hs {

using Json = nlohmann::json;

// A statistic's name, unit and description. The texts are interned: the tens of thousands of
// replicated components of a large machine share one copy of each.
struct StatMeta {
  StatMeta(const std::string& n, const std::string& u, const std::string& d)
      : name(intern(n)), unit(intern(u)), description(intern(d)) {}
  const std::string& name;
  const std::string& unit;
  const std::string& description;

 private:
  static const std::string& intern(const std::string& text);
};

// The statistics of one kind in a group: references handed out stay valid as more are added,
// and a group with none of a kind costs one empty vector.
template <class T>
class StatList {
 public:
  template <class... Args>
  T& emplace_back(Args&&... args) {
    return *items_.emplace_back(std::make_unique<T>(std::forward<Args>(args)...));
  }
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;
    explicit const_iterator(typename std::vector<std::unique_ptr<T>>::const_iterator it)
        : it_(it) {}
    const T& operator*() const { return **it_; }
    const T* operator->() const { return it_->get(); }
    const_iterator& operator++() {
      ++it_;
      return *this;
    }
    bool operator!=(const const_iterator& o) const { return it_ != o.it_; }
    bool operator==(const const_iterator& o) const { return it_ == o.it_; }

   private:
    typename std::vector<std::unique_ptr<T>>::const_iterator it_;
  };
  const_iterator begin() const { return const_iterator(items_.begin()); }
  const_iterator end() const { return const_iterator(items_.end()); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // Each item, to change it (merging a parallel run's partitions).
  template <class F>
  void for_each(F f) {
    for (auto& item : items_) f(*item);
  }

 private:
  std::vector<std::unique_ptr<T>> items_;
};

class Counter {
 public:
  explicit Counter(StatMeta m) : meta(std::move(m)) {}
  void add(uint64_t n = 1) { value += n; }
  Counter& operator+=(uint64_t n) {
    value += n;
    return *this;
  }
  Counter& operator++() {
    ++value;
    return *this;
  }
  StatMeta meta;
  uint64_t value = 0;
};

// Busy time of `units` identical resources (one wire, a memory port; or the rings of a bus,
// reported as their mean), recorded as intervals: utilisation over [0, end] is the busy time
// inside the window over units x end, so it can exceed 1 only if a resource is booked twice.
class ByteFlow;

class BusyTime {
 public:
  // `flows`: the resource is also busy whenever one of them moves bytes (the intervals their
  // transfers occupy count as its busy time, so a port records each transfer once).
  explicit BusyTime(StatMeta m, uint32_t units = 1, std::vector<const ByteFlow*> flows = {})
      : meta(std::move(m)), units_(units), flows_(std::move(flows)) {}
  // The resource is busy over [start, end): its actual occupancy, which may lie in the future.
  void add(const sc_core::sc_time& start, const sc_core::sc_time& end) {
    intervals_.add(start, end, end.value() - start.value());
  }
  // Busy for `duration` up to now (an interval ending at the current simulated time). Kept for
  // callers that only know a duration; add(start, end) with the real occupancy is the honest
  // form for work booked ahead (migration: add(d) -> add(start, start + d)).
  void add(const sc_core::sc_time& duration);
  // Busy time inside [0, end], summed over the units.
  double busy_ps(const sc_core::sc_time& end) const;
  double utilisation(const sc_core::sc_time& end) const;
  uint32_t units() const { return units_; }
  void save(ByteWriter& w) const { intervals_.save(w); }
  void merge(ByteReader& r) { intervals_.merge(r); }
  StatMeta meta;

 private:
  uint32_t units_;
  WindowedTotal intervals_;
  std::vector<const ByteFlow*> flows_;
};

// Bytes a wire or port moves, each transfer recorded over the interval it occupies: the
// figure over [0, end] counts a transfer in progress at the end by its elapsed share, so a
// rate over the window never includes bytes still to move.
class ByteFlow {
 public:
  explicit ByteFlow(StatMeta m) : meta(std::move(m)) {}
  void add(const sc_core::sc_time& start, const sc_core::sc_time& end, uint64_t bytes) {
    moved_.add(start, end, bytes);
  }
  // Bytes moved within [0, end].
  double within(const sc_core::sc_time& end) const { return moved_.within(end); }
  // Bytes per second over [0, end] (0 for an empty window).
  double rate(const sc_core::sc_time& end) const;
  // The time its transfers occupy within [0, end], in picoseconds.
  double busy_ps(const sc_core::sc_time& end) const { return moved_.span_within(end); }
  // Transfers that started within [0, end].
  uint64_t transfers_within(const sc_core::sc_time& end) const {
    return moved_.intervals_within(end);
  }
  // Every byte handed to the wire or port, moved by now or not.
  uint64_t total() const { return moved_.total(); }
  void save(ByteWriter& w) const { moved_.save(w); }
  void merge(ByteReader& r) { moved_.merge(r); }
  StatMeta meta;

 private:
  WindowedTotal moved_;
};

// A physical ceiling on a statistic, evaluated over a run's window [0, end].
struct Limit {
  enum class Kind { Utilisation, LineRate, PortBandwidth, Capacity };
  struct Reading {
    double measured = 0;   // the statistic over the window
    double ceiling = 0;    // the most it may physically be
    double allowance = 0;  // what the 1 ps time resolution may add to `measured` legitimately
  };
  Kind kind;
  std::string stat;  // the statistic it bounds, as the report names it
  std::string unit;  // of the reading
  std::function<Reading(const sc_core::sc_time& end)> read;
};

// A level that changes over time (queue depth, credits in use): time-weighted mean and peak.
class Occupancy {
 public:
  explicit Occupancy(StatMeta m) : meta(std::move(m)) {}
  void set(int64_t level, const sc_core::sc_time& now);
  void change(int64_t delta, const sc_core::sc_time& now) { set(level + delta, now); }
  double mean(const sc_core::sc_time& end) const;
  // A level is not a sum: only one partition of a parallel run may have changed it (merge
  // refuses two, rather than report a peak that never was).
  void save(ByteWriter& w) const;
  void merge(ByteReader& r);
  StatMeta meta;
  int64_t level = 0;
  int64_t peak = 0;

 private:
  double area_ = 0;  // level x picoseconds
  sc_core::sc_time last_ = sc_core::SC_ZERO_TIME;
};

// Samples in log2 buckets: bucket k holds values in [2^(k-1), 2^k) (bucket 0 holds 0). The sum
// is exact, so the mean is the same however the samples are ordered or grouped.
class Histogram {
 public:
  explicit Histogram(StatMeta m) : meta(std::move(m)) {}
  void sample(double v);
  double mean() const { return count ? sum.value() / static_cast<double>(count) : 0.0; }
  void save(ByteWriter& w) const;
  void merge(ByteReader& r);  // every sample of both: exact sums, extremes, buckets
  StatMeta meta;
  uint64_t count = 0;
  ExactSum sum;
  double min = 0, max = 0;
  std::vector<uint64_t> buckets;
};

class StatGroup {
 public:
  explicit StatGroup(std::string path);
  ~StatGroup();
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  Counter& counter(const std::string& name, const std::string& unit, const std::string& desc);
  // Registers the busy time with its limit: utilisation at most 1.
  BusyTime& busy(const std::string& name, const std::string& desc, uint32_t units = 1);
  // A single resource busy whenever one of `flows` (this group's) moves bytes, and whenever
  // busy time is added to it.
  BusyTime& busy(const std::string& name, const std::string& desc,
                 std::vector<const ByteFlow*> flows);
  ByteFlow& bytes(const std::string& name, const std::string& desc);
  Occupancy& occupancy(const std::string& name, const std::string& unit, const std::string& desc);
  Histogram& histogram(const std::string& name, const std::string& unit, const std::string& desc);
  void derived(const std::string& name, const std::string& unit, const std::string& desc,
               std::function<double()> fn);
  // A derived figure that is a sum over parts a partition may hold only some of (a machine's
  // total over its nodes): `fn` sums this partition's parts, and a parallel run adds the other
  // partitions' sums to it, as it adds their counters.
  void sum(const std::string& name, const std::string& unit, const std::string& desc,
           std::function<double()> fn);

  // Declares that `flows` together never move more than `bytes_per_second` (a wire's line rate:
  // Kind::LineRate; a memory port's bandwidth: Kind::PortBandwidth), named `what` in reports.
  void rate_ceiling(Limit::Kind kind, const std::string& what, double bytes_per_second,
                    std::vector<const ByteFlow*> flows);
  // Declares that `level` (this group's) never holds more than `capacity` (a buffer's entries,
  // a pool's tokens), named `what` in reports: its peak is checked (Kind::Capacity).
  void capacity_ceiling(const std::string& what, const Occupancy& level, int64_t capacity);
  // Declares any other limit (figures kept outside these statistics, such as the torus links).
  void limit(Limit l) { limits_.emplace_back(std::move(l)); }
  const StatList<Limit>& limits() const { return limits_; }

  // A component that books some figures lazily (work whose time has passed that nothing has
  // recorded yet) brings them up to `end` here; every reader of this group's figures (reports,
  // the physical-limit checks) calls settle(end) first.
  void on_settle(std::function<void(const sc_core::sc_time&)> fn) { settle_ = std::move(fn); }
  void settle(const sc_core::sc_time& end) const {
    if (settle_) settle_(end);
  }

  const std::string& path() const { return path_; }
  // The part of a partitioned machine this group belongs to (a node's number), built only by
  // the partition that owns it; -1 for a group every partition builds (StatsRegistry::place).
  int place() const { return place_; }
  // Whether a statistic of this name is registered (a sweep checks its stats before running).
  bool has(const std::string& name) const;
  Json to_json(const sc_core::sc_time& end) const;
  // Every statistic's name, unit and description, in the order to_json writes them.
  std::vector<StatMeta> catalogue() const;
  // A parallel run's partitions each record their own share of a figure; the process that
  // reports adds the others' shares to its own (docs/parallel.md). save writes every recorded
  // figure (derived ones read their merged sources); merge adds a save of the same group.
  void save(ByteWriter& w) const;
  void merge(ByteReader& r);

 private:
  BusyTime& add_busy(BusyTime& b);  // declares its limit

  struct Derived {
    StatMeta meta;
    std::function<double()> fn;
    bool summed = false;  // a sum(): the other partitions' sums are added to `merged`
    double merged = 0;
  };
  std::string path_;
  StatList<Counter> counters_;
  StatList<BusyTime> busy_;
  StatList<ByteFlow> flows_;
  StatList<Occupancy> occupancy_;
  StatList<Histogram> histograms_;
  StatList<Derived> derived_;
  StatList<Limit> limits_;
  std::function<void(const sc_core::sc_time&)> settle_;
  size_t slot_ = 0;  // index in the registry's list of every group
  int place_ = -1;
  bool reported_ = false;
  friend class StatsRegistry;
};

// A reported group another partition of a parallel run built (one of its nodes): its figures
// as that partition reported them, and its statistics' names, units and descriptions.
struct ForeignGroup {
  std::string path;
  int place;
  std::vector<StatMeta> catalogue;
  Json figures;
};

// All statistic groups of the current simulation: the reported ones in registration order,
// and every group (reported or not) for the physical-limit checks.
//
// A parallel run (docs/parallel.md): every partition builds the groups of the machine as a
// whole (the network's, the machine's totals), and only its own nodes' groups, registered
// while place() names the node. The reporting partition adds the others' shares of the
// former to its own, group by group, and takes the latter whole (foreign_groups()); its
// report then lists every group, as the sequential run's does.
class StatsRegistry {
 public:
  static StatsRegistry& instance();
  // Groups registered from now on belong to part `node` of a partitioned machine (-1: to
  // the machine as a whole).
  void set_place(int node) { place_ = node; }
  // While detached, new groups count but are not reported (replicated components of large
  // machines, whose figures their machine reports in aggregate); their limits are still checked.
  void set_detached(bool d) { detached_ = d; }
  bool detached() const { return detached_; }
  void add(StatGroup* g);
  void remove(StatGroup* g);
  const StatGroup* find(const std::string& path) const;
  // Every live group, reported or detached (in no particular order).
  const std::vector<StatGroup*>& all_groups() const { return all_; }
  // The reported groups, in registration order.
  const std::vector<StatGroup*>& reported_groups() const { return groups_; }
  Json to_json(const sc_core::sc_time& end) const;
  // The figures of every group the partitions share, in the order of registration (the same
  // in every partition), and of this partition's own reported groups at the current time
  // (place() >= 0; their limits are checked where they were built); and their merge into
  // this process's: shared groups add up, another partition's own arrive whole.
  Bytes save() const;
  void merge(const Bytes& partition);
  const std::vector<ForeignGroup>& foreign_groups() const { return foreign_; }
  // Every reported group's path and statistics in the sequential run's order: the machine's
  // own groups in registration order, the nodes' (this partition's and the others') in node
  // order where the first node's stand.
  std::vector<std::pair<std::string, std::vector<StatMeta>>> reported_catalogue() const;

 private:
  std::vector<StatGroup*> groups_;  // reported, in registration order
  std::vector<StatGroup*> all_;     // every group; a group knows its slot, so removal is O(1)
  std::vector<ForeignGroup> foreign_;
  bool detached_ = false;
  int place_ = -1;
};

}  // namespace hs
