// Per-component statistics, registered under the component's hierarchical name and dumped
// into the JSON report: counters, busy time (utilisation), time-weighted occupancy with peak,
// log2-bucket histograms, and derived values computed at report time.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

namespace hs {

using Json = nlohmann::json;

struct StatMeta {
  std::string name, unit, description;
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

// Accumulated busy time of a resource; utilisation = busy / simulated time.
class BusyTime {
 public:
  explicit BusyTime(StatMeta m) : meta(std::move(m)) {}
  void add(const sc_core::sc_time& t) { busy += t; }
  StatMeta meta;
  sc_core::sc_time busy = sc_core::SC_ZERO_TIME;
};

// A level that changes over time (queue depth, credits in use): time-weighted mean and peak.
class Occupancy {
 public:
  explicit Occupancy(StatMeta m) : meta(std::move(m)) {}
  void set(int64_t level, const sc_core::sc_time& now);
  void change(int64_t delta, const sc_core::sc_time& now) { set(level + delta, now); }
  double mean(const sc_core::sc_time& end) const;
  StatMeta meta;
  int64_t level = 0;
  int64_t peak = 0;

 private:
  double area_ = 0;  // level x picoseconds
  sc_core::sc_time last_ = sc_core::SC_ZERO_TIME;
};

// Samples in log2 buckets: bucket k holds values in [2^(k-1), 2^k) (bucket 0 holds 0).
class Histogram {
 public:
  explicit Histogram(StatMeta m) : meta(std::move(m)) {}
  void sample(double v);
  double mean() const { return count ? sum / static_cast<double>(count) : 0.0; }
  StatMeta meta;
  uint64_t count = 0;
  double sum = 0, min = 0, max = 0;
  std::vector<uint64_t> buckets;
};

class StatGroup {
 public:
  explicit StatGroup(std::string path);
  ~StatGroup();
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  Counter& counter(const std::string& name, const std::string& unit, const std::string& desc);
  BusyTime& busy(const std::string& name, const std::string& desc);
  Occupancy& occupancy(const std::string& name, const std::string& unit, const std::string& desc);
  Histogram& histogram(const std::string& name, const std::string& unit, const std::string& desc);
  void derived(const std::string& name, const std::string& unit, const std::string& desc,
               std::function<double()> fn);

  const std::string& path() const { return path_; }
  // Whether a statistic of this name is registered (a sweep checks its stats before running).
  bool has(const std::string& name) const;
  Json to_json(const sc_core::sc_time& end) const;

 private:
  struct Derived {
    StatMeta meta;
    std::function<double()> fn;
  };
  std::string path_;
  std::deque<Counter> counters_;
  std::deque<BusyTime> busy_;
  std::deque<Occupancy> occupancy_;
  std::deque<Histogram> histograms_;
  std::deque<Derived> derived_;
};

// All statistic groups of the current simulation, in registration order.
class StatsRegistry {
 public:
  static StatsRegistry& instance();
  // While detached, new groups count but are not reported (replicated components of large
  // machines, whose figures their machine reports in aggregate).
  void set_detached(bool d) { detached_ = d; }
  bool detached() const { return detached_; }
  void add(StatGroup* g) { groups_.push_back(g); }
  void remove(StatGroup* g);
  const StatGroup* find(const std::string& path) const;
  Json to_json(const sc_core::sc_time& end) const;

 private:
  std::vector<StatGroup*> groups_;
  bool detached_ = false;
};

}  // namespace hs
