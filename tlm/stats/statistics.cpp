#include "tlm/stats/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "tlm/common/errors.h"
#include "tlm/kernel/now.h"

namespace hs {

using sc_core::sc_time;

const std::string& StatMeta::intern(const std::string& text) {
  static std::mutex m;
  static std::unordered_set<std::string> texts;  // nodes never move: references stay valid
  std::lock_guard<std::mutex> lock(m);
  return *texts.insert(text).first;
}

void BusyTime::add(const sc_time& duration) {
  const sc_time& end = hs::now();
  add(duration < end ? end - duration : sc_core::SC_ZERO_TIME, end);
}

double BusyTime::busy_ps(const sc_time& end) const {
  double ps = intervals_.within(end);
  for (const ByteFlow* f : flows_) ps += f->busy_ps(end);
  return ps;
}

double BusyTime::utilisation(const sc_time& end) const {
  if (end.value() == 0) return 0.0;
  return busy_ps(end) / (static_cast<double>(units_) * static_cast<double>(end.value()));
}

double ByteFlow::rate(const sc_time& end) const {
  const double seconds = end.to_seconds();
  return seconds > 0 ? within(end) / seconds : 0.0;
}

void Occupancy::set(int64_t new_level, const sc_time& now) {
  if (now > last_) {
    // In level x picoseconds (sc_time values count picoseconds): no time conversions here.
    area_ += static_cast<double>(level) * static_cast<double>(now.value() - last_.value());
    last_ = now;
  }
  level = new_level;
  peak = std::max(peak, level);
}

void Occupancy::save(ByteWriter& w) const {
  w.put(level);
  w.put(peak);
  w.put(area_);
  w.put(last_.value());
}

void Occupancy::merge(ByteReader& r) {
  const auto l = r.get<int64_t>(), p = r.get<int64_t>();
  const auto a = r.get<double>();
  const auto t = r.get<uint64_t>();
  if (l == 0 && p == 0 && a == 0) return;  // untouched there
  if (level != 0 || peak != 0 || area_ != 0) {
    throw ModelError(fmt::format(
        "statistic {}: a level changed in two partitions of a parallel run, which cannot be "
        "merged into one level",
        meta.name));
  }
  level = l;
  peak = p;
  area_ = a;
  last_ = sc_time::from_value(t);
}

double Occupancy::mean(const sc_time& end) const {
  double total = end.to_seconds();
  if (total <= 0) return static_cast<double>(level);
  double area = area_;
  if (end > last_)
    area += static_cast<double>(level) * static_cast<double>(end.value() - last_.value());
  return area / static_cast<double>(end.value());
}

void Histogram::save(ByteWriter& w) const {
  w.put(count);
  w.put(min);
  w.put(max);
  w.put_vector(buckets);
  w.put<int32_t>(sum.lowest_limb());
  w.put_vector(sum.limbs());
}

void Histogram::merge(ByteReader& r) {
  const auto n = r.get<uint64_t>();
  const auto lo = r.get<double>(), hi = r.get<double>();
  const auto b = r.get_vector<uint64_t>();
  const auto lowest = r.get<int32_t>();
  sum.merge(ExactSum::from_limbs(lowest, r.get_vector<int64_t>()));
  if (n == 0) return;
  min = count ? std::min(min, lo) : lo;
  max = count ? std::max(max, hi) : hi;
  count += n;
  if (buckets.size() < b.size()) buckets.resize(b.size(), 0);
  for (size_t i = 0; i < b.size(); ++i) buckets[i] += b[i];
}

void Histogram::sample(double v) {
  if (count == 0) {
    min = max = v;
  } else {
    min = std::min(min, v);
    max = std::max(max, v);
  }
  ++count;
  sum.add(v);
  size_t bucket = v < 1.0 ? 0 : static_cast<size_t>(std::floor(std::log2(v))) + 1;
  if (buckets.size() <= bucket) buckets.resize(bucket + 1, 0);
  ++buckets[bucket];
}

StatGroup::StatGroup(std::string path) : path_(std::move(path)) {
  StatsRegistry::instance().add(this);
}

StatGroup::~StatGroup() {
  StatsRegistry::instance().remove(this);
}

bool StatGroup::has(const std::string& name) const {
  auto named = [&name](const auto& stat) { return stat.meta.name == name; };
  return std::any_of(counters_.begin(), counters_.end(), named) ||
         std::any_of(busy_.begin(), busy_.end(), named) ||
         std::any_of(flows_.begin(), flows_.end(), named) ||
         std::any_of(occupancy_.begin(), occupancy_.end(), named) ||
         std::any_of(histograms_.begin(), histograms_.end(), named) ||
         std::any_of(derived_.begin(), derived_.end(), named);
}

Counter& StatGroup::counter(const std::string& name, const std::string& unit,
                            const std::string& desc) {
  return counters_.emplace_back(StatMeta{name, unit, desc});
}

BusyTime& StatGroup::busy(const std::string& name, const std::string& desc, uint32_t units) {
  if (units == 0) throw ModelError(path_ + "." + name + ": busy time of zero units");
  return add_busy(busy_.emplace_back(StatMeta{name, "fraction", desc}, units));
}

BusyTime& StatGroup::busy(const std::string& name, const std::string& desc,
                          std::vector<const ByteFlow*> flows) {
  return add_busy(busy_.emplace_back(StatMeta{name, "fraction", desc}, 1, std::move(flows)));
}

BusyTime& StatGroup::add_busy(BusyTime& b) {
  limit({Limit::Kind::Utilisation, b.meta.name, "fraction", [&b](const sc_time& end) {
           return Limit::Reading{b.utilisation(end), 1.0, 0.0};
         }});
  return b;
}

ByteFlow& StatGroup::bytes(const std::string& name, const std::string& desc) {
  return flows_.emplace_back(StatMeta{name, "B", desc});
}

void StatGroup::capacity_ceiling(const std::string& what, const Occupancy& level,
                                 int64_t capacity) {
  limit(
      {Limit::Kind::Capacity, what, level.meta.unit, [&level, capacity](const sc_time&) {
         return Limit::Reading{static_cast<double>(level.peak), static_cast<double>(capacity), 0.0};
       }});
}

void StatGroup::rate_ceiling(Limit::Kind kind, const std::string& what, double bytes_per_second,
                             std::vector<const ByteFlow*> flows) {
  if (!(bytes_per_second > 0) || flows.empty()) {
    throw ModelError(path_ + "." + what + ": a rate ceiling needs a positive rate and a flow");
  }
  limit({kind, what, "GB/s", [bytes_per_second, flows = std::move(flows)](const sc_time& end) {
           const double seconds = end.to_seconds();
           if (seconds <= 0) return Limit::Reading{0.0, bytes_per_second / 1e9, 0.0};
           double moved = 0;
           uint64_t transfers = 0;
           for (const ByteFlow* f : flows) {
             moved += f->within(end);
             transfers += f->transfers_within(end);
           }
           // Each transfer's time is rounded to the nearest picosecond, so it may finish up
           // to half a picosecond early: that much extra the wire or port may move per transfer.
           const double spare = bytes_per_second * 0.5e-12 * static_cast<double>(transfers);
           return Limit::Reading{moved / seconds / 1e9, bytes_per_second / 1e9,
                                 spare / seconds / 1e9};
         }});
}

Occupancy& StatGroup::occupancy(const std::string& name, const std::string& unit,
                                const std::string& desc) {
  return occupancy_.emplace_back(StatMeta{name, unit, desc});
}

Histogram& StatGroup::histogram(const std::string& name, const std::string& unit,
                                const std::string& desc) {
  return histograms_.emplace_back(StatMeta{name, unit, desc});
}

void StatGroup::derived(const std::string& name, const std::string& unit, const std::string& desc,
                        std::function<double()> fn) {
  derived_.emplace_back(Derived{StatMeta{name, unit, desc}, std::move(fn)});
}

void StatGroup::sum(const std::string& name, const std::string& unit, const std::string& desc,
                    std::function<double()> fn) {
  derived_.emplace_back(Derived{StatMeta{name, unit, desc}, std::move(fn), true});
}

Json StatGroup::to_json(const sc_time& end) const {
  settle(end);
  Json j = Json::object();
  for (const auto& c : counters_) j[c.meta.name] = c.value;
  for (const auto& b : busy_) j[b.meta.name] = b.utilisation(end);
  // Whole bytes moved by the end (a transfer in progress counts the bytes already across).
  for (const auto& f : flows_) j[f.meta.name] = static_cast<uint64_t>(std::floor(f.within(end)));
  for (const auto& o : occupancy_) {
    j[o.meta.name] = {{"mean", o.mean(end)}, {"peak", o.peak}};
  }
  for (const auto& h : histograms_) {
    j[h.meta.name] = {{"count", h.count}, {"mean", h.mean()},    {"min", h.min},
                      {"max", h.max},     {"unit", h.meta.unit}, {"log2_buckets", h.buckets}};
  }
  for (const auto& d : derived_) j[d.meta.name] = d.fn() + d.merged;
  return j;
}

void StatGroup::save(ByteWriter& w) const {
  w.put_string(path_);
  for (const auto& c : counters_) w.put(c.value);
  for (const auto& b : busy_) b.save(w);
  for (const auto& f : flows_) f.save(w);
  for (const auto& o : occupancy_) o.save(w);
  for (const auto& h : histograms_) h.save(w);
  for (const auto& d : derived_) {
    if (d.summed) w.put(d.fn());
  }
}

void StatGroup::merge(ByteReader& r) {
  const std::string path = r.get_string();
  if (path != path_) {
    throw ModelError(
        fmt::format("parallel run: statistics of {} arrived where {} were expected "
                    "(the partitions built different components)",
                    path, path_));
  }
  counters_.for_each([&](Counter& c) { c.value += r.get<uint64_t>(); });
  busy_.for_each([&](BusyTime& b) { b.merge(r); });
  flows_.for_each([&](ByteFlow& f) { f.merge(r); });
  occupancy_.for_each([&](Occupancy& o) { o.merge(r); });
  histograms_.for_each([&](Histogram& h) { h.merge(r); });
  derived_.for_each([&](Derived& d) {
    if (d.summed) d.merged += r.get<double>();
  });
}

std::vector<StatMeta> StatGroup::catalogue() const {
  std::vector<StatMeta> out;
  for (const auto& c : counters_) out.push_back(c.meta);
  for (const auto& b : busy_) out.push_back(b.meta);
  for (const auto& f : flows_) out.push_back(f.meta);
  for (const auto& o : occupancy_) out.push_back(o.meta);
  for (const auto& h : histograms_) out.push_back(h.meta);
  for (const auto& d : derived_) out.push_back(d.meta);
  return out;
}

StatsRegistry& StatsRegistry::instance() {
  static StatsRegistry registry;
  return registry;
}

void StatsRegistry::add(StatGroup* g) {
  g->slot_ = all_.size();
  g->place_ = place_;
  all_.push_back(g);
  g->reported_ = !detached_;
  if (g->reported_) groups_.push_back(g);
}

void StatsRegistry::remove(StatGroup* g) {
  if (g->slot_ < all_.size() && all_[g->slot_] == g) {
    all_[g->slot_] = all_.back();
    all_[g->slot_]->slot_ = g->slot_;
    all_.pop_back();
  }
  if (g->reported_) groups_.erase(std::remove(groups_.begin(), groups_.end(), g), groups_.end());
}

const StatGroup* StatsRegistry::find(const std::string& path) const {
  for (auto* g : groups_) {
    if (g->path() == path) return g;
  }
  return nullptr;
}

Bytes StatsRegistry::save() const {
  ByteWriter w;
  std::vector<const StatGroup*> shared, reported;
  for (const StatGroup* g : all_) {
    if (g->place_ < 0) shared.push_back(g);
  }
  w.put<uint64_t>(shared.size());
  for (const StatGroup* g : shared) g->save(w);
  // This partition's own groups whole, in registration order.
  const sc_time end = sc_core::sc_time_stamp();
  for (const StatGroup* g : groups_) {
    if (g->place_ >= 0) reported.push_back(g);
  }
  w.put<uint64_t>(reported.size());
  for (const StatGroup* g : reported) {
    w.put_string(g->path_);
    w.put<int32_t>(g->place_);
    const std::vector<StatMeta> catalogue = g->catalogue();
    w.put<uint64_t>(catalogue.size());
    for (const StatMeta& m : catalogue) {
      w.put_string(m.name);
      w.put_string(m.unit);
      w.put_string(m.description);
    }
    const std::vector<uint8_t> figures = Json::to_cbor(g->to_json(end));
    w.put_vector(figures);
  }
  return w.take();
}

void StatsRegistry::merge(const Bytes& partition) {
  ByteReader r(partition);
  // The shared groups by path (a path's n-th group there is its n-th group here).
  std::unordered_map<std::string, std::vector<StatGroup*>> by_path;
  size_t shared = 0;
  for (StatGroup* g : all_) {
    if (g->place_ >= 0) continue;
    by_path[g->path_].push_back(g);
    ++shared;
  }
  if (r.get<uint64_t>() != shared) {
    throw ModelError(
        "parallel run: the partitions registered different numbers of the machine's statistics");
  }
  std::unordered_map<std::string, size_t> seen;
  for (size_t i = 0; i < shared; ++i) {
    ByteReader peek = r;
    const std::string path = peek.get_string();
    auto it = by_path.find(path);
    const size_t n = seen[path]++;
    if (it == by_path.end() || n >= it->second.size()) {
      throw ModelError(fmt::format(
          "parallel run: statistics of {} arrived, which this partition did not build", path));
    }
    it->second[n]->merge(r);
  }
  const auto reported = r.get<uint64_t>();
  for (uint64_t i = 0; i < reported; ++i) {
    ForeignGroup f;
    f.path = r.get_string();
    f.place = r.get<int32_t>();
    const auto stats = r.get<uint64_t>();
    for (uint64_t k = 0; k < stats; ++k) {
      const std::string name = r.get_string(), unit = r.get_string(), desc = r.get_string();
      f.catalogue.emplace_back(name, unit, desc);
    }
    f.figures = Json::from_cbor(r.get_vector<uint8_t>());
    foreign_.push_back(std::move(f));
  }
}

std::vector<std::pair<std::string, std::vector<StatMeta>>> StatsRegistry::reported_catalogue()
    const {
  struct Entry {
    int place;
    size_t order;
    std::pair<std::string, std::vector<StatMeta>> group;
  };
  std::vector<Entry> machine, nodes;
  size_t first_node = SIZE_MAX, order = 0;
  for (const StatGroup* g : groups_) {
    Entry e{g->place_, order++, {g->path_, g->catalogue()}};
    if (g->place_ < 0) {
      machine.push_back(std::move(e));
    } else {
      first_node = std::min(first_node, machine.size());
      nodes.push_back(std::move(e));
    }
  }
  for (const ForeignGroup& f : foreign_) {
    first_node = std::min(first_node, machine.size());
    nodes.push_back({f.place, order++, {f.path, f.catalogue}});
  }
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const Entry& a, const Entry& b) { return a.place < b.place; });
  std::vector<std::pair<std::string, std::vector<StatMeta>>> out;
  for (size_t i = 0; i <= machine.size(); ++i) {
    if (i == first_node) {
      for (Entry& e : nodes) out.push_back(std::move(e.group));
    }
    if (i < machine.size()) out.push_back(std::move(machine[i].group));
  }
  return out;
}

Json StatsRegistry::to_json(const sc_time& end) const {
  Json j = Json::object();
  for (const auto* g : groups_) j[g->path()] = g->to_json(end);
  for (const ForeignGroup& f : foreign_) j[f.path] = f.figures;
  return j;
}

}  // namespace hs
