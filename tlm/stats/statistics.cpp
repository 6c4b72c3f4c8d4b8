#include "tlm/stats/statistics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hs {

using sc_core::sc_time;

void Occupancy::set(int64_t new_level, const sc_time& now) {
  if (now > last_) {
    // In level x picoseconds (sc_time values count picoseconds): no time conversions here.
    area_ += static_cast<double>(level) * static_cast<double>(now.value() - last_.value());
    last_ = now;
  }
  level = new_level;
  peak = std::max(peak, level);
}

double Occupancy::mean(const sc_time& end) const {
  double total = end.to_seconds();
  if (total <= 0) return static_cast<double>(level);
  double area = area_;
  if (end > last_)
    area += static_cast<double>(level) * static_cast<double>(end.value() - last_.value());
  return area / static_cast<double>(end.value());
}

void Histogram::sample(double v) {
  if (count == 0) {
    min = max = v;
  } else {
    min = std::min(min, v);
    max = std::max(max, v);
  }
  ++count;
  sum += v;
  size_t bucket = v < 1.0 ? 0 : static_cast<size_t>(std::floor(std::log2(v))) + 1;
  if (buckets.size() <= bucket) buckets.resize(bucket + 1, 0);
  ++buckets[bucket];
}

StatGroup::StatGroup(std::string path) : path_(std::move(path)) {
  if (!StatsRegistry::instance().detached()) StatsRegistry::instance().add(this);
}

StatGroup::~StatGroup() {
  StatsRegistry::instance().remove(this);
}

bool StatGroup::has(const std::string& name) const {
  auto named = [&name](const auto& stat) { return stat.meta.name == name; };
  return std::any_of(counters_.begin(), counters_.end(), named) ||
         std::any_of(busy_.begin(), busy_.end(), named) ||
         std::any_of(occupancy_.begin(), occupancy_.end(), named) ||
         std::any_of(histograms_.begin(), histograms_.end(), named) ||
         std::any_of(derived_.begin(), derived_.end(), named);
}

Counter& StatGroup::counter(const std::string& name, const std::string& unit,
                            const std::string& desc) {
  return counters_.emplace_back(StatMeta{name, unit, desc});
}

BusyTime& StatGroup::busy(const std::string& name, const std::string& desc) {
  return busy_.emplace_back(StatMeta{name, "fraction", desc});
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
  derived_.push_back({StatMeta{name, unit, desc}, std::move(fn)});
}

Json StatGroup::to_json(const sc_time& end) const {
  Json j = Json::object();
  for (const auto& c : counters_) j[c.meta.name] = c.value;
  double total = end.to_seconds();
  for (const auto& b : busy_) {
    j[b.meta.name] = total > 0 ? b.busy.to_seconds() / total : 0.0;
  }
  for (const auto& o : occupancy_) {
    j[o.meta.name] = {{"mean", o.mean(end)}, {"peak", o.peak}};
  }
  for (const auto& h : histograms_) {
    j[h.meta.name] = {{"count", h.count}, {"mean", h.mean()},    {"min", h.min},
                      {"max", h.max},     {"unit", h.meta.unit}, {"log2_buckets", h.buckets}};
  }
  for (const auto& d : derived_) j[d.meta.name] = d.fn();
  return j;
}

StatsRegistry& StatsRegistry::instance() {
  static StatsRegistry registry;
  return registry;
}

void StatsRegistry::remove(StatGroup* g) {
  groups_.erase(std::remove(groups_.begin(), groups_.end(), g), groups_.end());
}

const StatGroup* StatsRegistry::find(const std::string& path) const {
  for (auto* g : groups_) {
    if (g->path() == path) return g;
  }
  return nullptr;
}

Json StatsRegistry::to_json(const sc_time& end) const {
  Json j = Json::object();
  for (const auto* g : groups_) j[g->path()] = g->to_json(end);
  return j;
}

}  // namespace hs
