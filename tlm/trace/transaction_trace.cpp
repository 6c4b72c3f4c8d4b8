#include "tlm/trace/transaction_trace.h"

#include <fmt/format.h>
#include <cmath>
#include <cstdio>

#include "tlm/common/glob.h"
#include "tlm/kernel/now.h"

namespace hs {

namespace {
// Perfetto's JSON importer takes microseconds. Dividing the integer time by a whole number of
// units keeps the printed value short (0.178203, not 0.17820300000000003).
double to_us(const sc_core::sc_time& t) {
  static const double units_per_us =
      std::round(1e-6 / sc_core::sc_get_time_resolution().to_seconds());
  return static_cast<double>(t.value()) / units_per_us;
}
std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
}  // namespace

TransactionTrace& TransactionTrace::instance() {
  static TransactionTrace trace;
  return trace;
}

TransactionTrace::~TransactionTrace() {
  abandon();
}

void TransactionTrace::open(const std::string& path, const TraceLimits& limits) {
  abandon();
  check_output_path("--trace", path);
  path_ = path;
  limits_ = limits;
  enabled_ = true;
  full_ = false;
  bytes_ = 0;
  first_ = true;
  held_ = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
}

void TransactionTrace::start() {
  if (!enabled_ || file_) return;
  file_ = std::make_unique<OutputFile>("--trace", path_);
  file_->write(held_);
  held_.clear();
  held_.shrink_to_fit();
}

void TransactionTrace::close() {
  if (!enabled_) return;
  start();
  // Spans still open (a message never completed) end here, so every begin has its end.
  while (!open_.empty()) {
    const auto [track, key] = open_.begin()->first;
    const nlohmann::json unfinished = {{"unfinished", true}};
    async_end(track, key, hs::now(), &unfinished);
  }
  file_->write("\n]}\n");
  enabled_ = false;
  const auto file = std::move(file_);
  file->commit();
}

void TransactionTrace::abandon() {
  enabled_ = false;
  file_.reset();
  held_.clear();
  tracks_.clear();
  pids_.clear();
  process_labels_.clear();
  process_named_.clear();
  open_.clear();
}

void TransactionTrace::event(std::string text) {
  if (full_) return;
  bytes_ += text.size() + 2;
  if (limits_.max_bytes && bytes_ > limits_.max_bytes) {
    full_ = true;  // the file stays valid JSON: close() still ends it
    std::fprintf(stderr,
                 "hybridsim: warning: --trace: %s reached its size bound of %llu bytes "
                 "(--trace-limit) at %s; tracing stops here, the run goes on\n",
                 path_.c_str(), static_cast<unsigned long long>(limits_.max_bytes),
                 sc_core::sc_time_stamp().to_string().c_str());
    return;
  }
  const char* separator = first_ ? "" : ",\n";
  first_ = false;
  if (file_) {
    file_->write(separator);
    file_->write(text);
  } else {
    held_ += separator + text;
  }
}

void TransactionTrace::event(const nlohmann::json& e) {
  event(dump(e));
}

bool TransactionTrace::in_window(const sc_core::sc_time& start, const sc_core::sc_time& end) const {
  if (end.to_seconds() * 1e9 < limits_.start_ns) return false;
  return limits_.end_ns <= 0 || start.to_seconds() * 1e9 <= limits_.end_ns;
}

int TransactionTrace::new_process(const std::string& prefix, const std::string& label) {
  process_labels_.push_back(label.empty() ? prefix : label);
  process_named_.push_back(false);
  const int pid = static_cast<int>(process_labels_.size());
  pids_[prefix] = pid;
  return pid;
}

void TransactionTrace::process(const std::string& prefix, const std::string& label) {
  if (!enabled_) return;
  const auto it = pids_.find(prefix);
  if (it == pids_.end()) {
    new_process(prefix, label);
  } else if (!label.empty()) {
    process_labels_[static_cast<size_t>(it->second - 1)] = label;
  }
}

int TransactionTrace::process_of(const std::string& name, std::string& local) {
  for (size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0;
       dot = name.rfind('.', dot - 1)) {
    const auto it = pids_.find(name.substr(0, dot));
    if (it != pids_.end()) {
      local = name.substr(dot + 1);
      return it->second;
    }
  }
  const size_t first = name.find('.');
  const std::string prefix = name.substr(0, first);
  local = first == std::string::npos ? name : name.substr(first + 1);
  const auto it = pids_.find(prefix);
  return it != pids_.end() ? it->second : new_process(prefix, "");
}

int TransactionTrace::add_track(const std::string& name, const char* unit) {
  if (!enabled_) return -1;
  if (!limits_.only.empty() && !glob_match(limits_.only, name)) return -1;
  tracks_.push_back(Track{name, unit, 0, {}, 0});
  return static_cast<int>(tracks_.size());
}

int TransactionTrace::track(const std::string& name) {
  return add_track(name, nullptr);
}

int TransactionTrace::counter(const std::string& name, const char* unit) {
  return add_track(name, unit);
}

TransactionTrace::Track& TransactionTrace::used(int track) {
  Track& t = tracks_[static_cast<size_t>(track - 1)];
  if (t.pid != 0) return t;
  t.pid = process_of(t.name, t.local);
  std::string meta;
  const auto p = static_cast<size_t>(t.pid - 1);
  if (!process_named_[p]) {
    process_named_[p] = true;
    meta += dump({{"name", "process_name"},
                  {"ph", "M"},
                  {"pid", t.pid},
                  {"args", {{"name", process_labels_[p]}}}});
    meta += ",\n" + dump({{"name", "process_sort_index"},
                          {"ph", "M"},
                          {"pid", t.pid},
                          {"args", {{"sort_index", t.pid}}}});
  }
  if (!t.unit) {  // a thread; a counter is named by its events
    if (!meta.empty()) meta += ",\n";
    meta += dump({{"name", "thread_name"},
                  {"ph", "M"},
                  {"pid", t.pid},
                  {"tid", track},
                  {"args", {{"name", t.local}}}});
    meta += ",\n" + dump({{"name", "thread_sort_index"},
                          {"ph", "M"},
                          {"pid", t.pid},
                          {"tid", track},
                          {"args", {{"sort_index", track}}}});
  }
  if (!meta.empty()) event(std::move(meta));
  return t;
}

void TransactionTrace::span(int track, const char* name, const sc_core::sc_time& start,
                            const sc_core::sc_time& end, const nlohmann::json* args) {
  if (!live(track) || !in_window(start, end)) return;
  const Track& t = used(track);
  nlohmann::json e = {{"name", name}, {"ph", "X"},          {"pid", t.pid},
                      {"tid", track}, {"ts", to_us(start)}, {"dur", to_us(end - start)}};
  if (args) e["args"] = *args;
  event(e);
}

void TransactionTrace::async_span(int track, const char* name, const sc_core::sc_time& start,
                                  const sc_core::sc_time& end, const nlohmann::json* args) {
  if (!live(track) || !in_window(start, end)) return;
  Track& t = used(track);
  // Unique across the file: the track in the high bits, its own sequence below.
  const uint64_t id = static_cast<uint64_t>(track) << 32 | t.next_async++;
  nlohmann::json b = {{"name", name}, {"cat", t.local}, {"ph", "b"},         {"id", id},
                      {"pid", t.pid}, {"tid", track},   {"ts", to_us(start)}};
  if (args) b["args"] = *args;
  const nlohmann::json e = {{"name", name}, {"cat", t.local}, {"ph", "e"},       {"id", id},
                            {"pid", t.pid}, {"tid", track},   {"ts", to_us(end)}};
  event(dump(b) + ",\n" + dump(e));  // one write: a size bound never splits the pair
}

void TransactionTrace::async_begin(int track, const char* name, uint64_t key,
                                   const sc_core::sc_time& at, nlohmann::json args) {
  if (!live(track)) return;
  if (open_.count({track, key})) async_end(track, key, at);
  open_[{track, key}] = Open{name, at, std::move(args)};
}

void TransactionTrace::async_end(int track, uint64_t key, const sc_core::sc_time& at,
                                 const nlohmann::json* args) {
  if (!live(track)) return;
  const auto it = open_.find({track, key});
  if (it == open_.end()) return;
  Open o = std::move(it->second);
  open_.erase(it);
  if (args) o.args.update(*args);
  async_span(track, o.name.c_str(), o.start, at, o.args.empty() ? nullptr : &o.args);
}

void TransactionTrace::instant(int track, const char* name, const sc_core::sc_time& at,
                               const nlohmann::json* args) {
  if (!live(track) || !in_window(at, at)) return;
  const Track& t = used(track);
  nlohmann::json e = {{"name", name}, {"ph", "i"},    {"s", "t"},
                      {"pid", t.pid}, {"tid", track}, {"ts", to_us(at)}};
  if (args) e["args"] = *args;
  event(e);
}

void TransactionTrace::count(int counter, const sc_core::sc_time& at, double value) {
  if (!live(counter) || !in_window(at, at)) return;
  const Track& t = used(counter);
  event(nlohmann::json{{"name", t.local},
                       {"ph", "C"},
                       {"pid", t.pid},
                       {"ts", to_us(at)},
                       {"args", {{t.unit, value}}}});
}

}  // namespace hs
