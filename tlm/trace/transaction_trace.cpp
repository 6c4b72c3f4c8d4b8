#include "tlm/trace/transaction_trace.h"

#include <fmt/format.h>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "tlm/common/glob.h"
#include "tlm/kernel/now.h"
#include "tlm/timing/timeline.h"

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
  if (!enabled_ || file_ || !writer_) return;
  file_ = std::make_unique<OutputFile>("--trace", path_);
  file_->write(held_);
  held_.clear();
  held_.shrink_to_fit();
}

void TransactionTrace::close() {
  if (!enabled_) return;
  if (!writer_) {  // a partition's records went to partition 0
    abandon();
    return;
  }
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
  recording_ = false;
  writer_ = true;
  records_.take();
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
  if (recording_) {
    keep(Op::Process, 0, prefix, {}, {}, 0, 0, false, label);
    return;
  }
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
  if (recording_) keep(Op::Track, 0, name, {}, {}, 0, 0, unit != nullptr, unit ? unit : "");
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
  if (recording_)
    return keep(Op::Span, track, name, start, end, 0, 0, args != nullptr, args ? dump(*args) : "");
  const Track& t = used(track);
  nlohmann::json e = {{"name", name}, {"ph", "X"},          {"pid", t.pid},
                      {"tid", track}, {"ts", to_us(start)}, {"dur", to_us(end - start)}};
  if (args) e["args"] = *args;
  event(e);
}

void TransactionTrace::async_span(int track, const char* name, const sc_core::sc_time& start,
                                  const sc_core::sc_time& end, const nlohmann::json* args) {
  if (!live(track) || !in_window(start, end)) return;
  if (recording_) {
    return keep(Op::AsyncSpan, track, name, start, end, 0, 0, args != nullptr,
                args ? dump(*args) : "");
  }
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
  if (recording_) return keep(Op::AsyncBegin, track, name, at, at, key, 0, true, dump(args));
  if (open_.count({track, key})) async_end(track, key, at);
  open_[{track, key}] = Open{name, at, std::move(args)};
}

void TransactionTrace::async_end(int track, uint64_t key, const sc_core::sc_time& at,
                                 const nlohmann::json* args) {
  if (!live(track)) return;
  if (recording_)
    return keep(Op::AsyncEnd, track, "", at, at, key, 0, args != nullptr, args ? dump(*args) : "");
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
  if (recording_)
    return keep(Op::Instant, track, name, at, at, 0, 0, args != nullptr, args ? dump(*args) : "");
  const Track& t = used(track);
  nlohmann::json e = {{"name", name}, {"ph", "i"},    {"s", "t"},
                      {"pid", t.pid}, {"tid", track}, {"ts", to_us(at)}};
  if (args) e["args"] = *args;
  event(e);
}

void TransactionTrace::count(int counter, const sc_core::sc_time& at, double value) {
  if (!live(counter) || !in_window(at, at)) return;
  if (recording_) return keep(Op::Count, counter, "", at, at, 0, value, false, "");
  const Track& t = used(counter);
  event(nlohmann::json{{"name", t.local},
                       {"ph", "C"},
                       {"pid", t.pid},
                       {"ts", to_us(at)},
                       {"args", {{t.unit, value}}}});
}

// A partitioned run's records. Each: its place in the run's order (time; the delta cycle of the
// instant, 0 for elaboration; the kind of place: 0 for elaboration, 1 for an entry of the
// timeline, 2 for an action of a "now" queue, 3 for an activation that knows its place, 4 for
// anything else; then for elaboration the number of processes declared so far, for an entry
// its order, tie and origin, for an action its path in its queue, length first (see
// Timeline::keep_now_paths), for an activation its place (ActivationPlace)), then the call:
// op, track, two times, key, value, a flag (args or unit given), a name and a text (args as
// JSON, a label or a unit).
struct TransactionTrace::Record {
  uint64_t at = 0, delta = 0;
  uint8_t phase = 0;
  std::vector<uint64_t> order;
  Op op = Op::Process;
  int32_t track = 0;
  uint64_t t0 = 0, t1 = 0, key = 0;
  double value = 0;
  bool flag = false;
  std::string name, text;
  bool operator<(const Record& o) const {
    return std::tie(at, delta, phase, order) < std::tie(o.at, o.delta, o.phase, o.order);
  }
};

namespace {
// Elaboration is ordered by the processes declared so far: every partition declares every
// node's process, in the sequential run's order (a machine names the nodes another partition
// builds too), so what a partition makes while building its own node keeps that node's place
// among the others'.
uint64_t processes_declared = 0;
}  // namespace

void TransactionTrace::record_partition(bool writer) {
  processes_declared = 0;
  if (!enabled_) return;
  recording_ = true;
  writer_ = writer;
  Timeline::keep_now_paths();
  Timeline::keep_activations();
}

void TransactionTrace::keep(Op op, int track, const std::string& name, const sc_core::sc_time& t0,
                            const sc_core::sc_time& t1, uint64_t key, double value, bool flag,
                            const std::string& text) {
  std::vector<uint64_t> order;
  uint8_t phase = 0;
  if (sc_core::sc_start_of_simulation_invoked()) {
    phase = Timeline::place(order);
  } else {
    order = {op == Op::Process ? ++processes_declared : processes_declared};
  }
  records_.put<uint64_t>(sc_core::sc_time_stamp().value());
  records_.put<uint64_t>(phase == 0 ? 0 : sc_core::sc_delta_count_at_current_time());
  records_.put<uint8_t>(phase);
  records_.put_vector(order);
  records_.put<uint8_t>(static_cast<uint8_t>(op));
  records_.put<int32_t>(track);
  records_.put<uint64_t>(t0.value());
  records_.put<uint64_t>(t1.value());
  records_.put<uint64_t>(key);
  records_.put<double>(value);
  records_.put<uint8_t>(flag ? 1 : 0);
  records_.put_string(name);
  records_.put_string(text);
}

std::vector<uint8_t> TransactionTrace::take_records() {
  return records_.take();
}

void TransactionTrace::apply(const Record& r, const std::vector<int>& ids) {
  const int track = r.track > 0 && static_cast<size_t>(r.track) <= ids.size()
                        ? ids[static_cast<size_t>(r.track - 1)]
                        : -1;
  const auto t0 = sc_core::sc_time::from_value(r.t0), t1 = sc_core::sc_time::from_value(r.t1);
  nlohmann::json args;
  if (r.flag && r.op != Op::Track && r.op != Op::Process) args = nlohmann::json::parse(r.text);
  const nlohmann::json* a = r.flag ? &args : nullptr;
  switch (r.op) {
    case Op::Process:
      process(r.name, r.text);
      break;
    case Op::Track:
      break;  // made by replay(), which numbers it
    case Op::Span:
      span(track, r.name.c_str(), t0, t1, a);
      break;
    case Op::AsyncSpan:
      async_span(track, r.name.c_str(), t0, t1, a);
      break;
    case Op::AsyncBegin:
      async_begin(track, r.name.c_str(), r.key, t0, std::move(args));
      break;
    case Op::AsyncEnd:
      async_end(track, r.key, t0, a);
      break;
    case Op::Instant:
      instant(track, r.name.c_str(), t0, a);
      break;
    case Op::Count:
      count(track, t0, r.value);
      break;
  }
}

void TransactionTrace::replay(const std::vector<std::vector<uint8_t>>& partitions) {
  if (!enabled_ || !writer_) return;
  std::vector<std::vector<Record>> records(partitions.size());
  for (size_t p = 0; p < partitions.size(); ++p) {
    ByteReader in(partitions[p]);
    while (!in.done()) {
      Record r;
      r.at = in.get<uint64_t>();
      r.delta = in.get<uint64_t>();
      r.phase = in.get<uint8_t>();
      r.order = in.get_vector<uint64_t>();
      r.op = static_cast<Op>(in.get<uint8_t>());
      r.track = in.get<int32_t>();
      r.t0 = in.get<uint64_t>();
      r.t1 = in.get<uint64_t>();
      r.key = in.get<uint64_t>();
      r.value = in.get<double>();
      r.flag = in.get<uint8_t>() != 0;
      r.name = in.get_string();
      r.text = in.get_string();
      records[p].push_back(std::move(r));
    }
  }
  // From here on the calls are written: the machine-wide numbering starts afresh.
  recording_ = false;
  tracks_.clear();
  pids_.clear();
  process_labels_.clear();
  process_named_.clear();
  open_.clear();
  std::vector<std::vector<int>> ids(partitions.size());  // by partition: its tracks' numbers
  std::vector<size_t> next(partitions.size(), 0);
  // Every partition elaborates the tracks the sequential run makes up front (a core's): the
  // n-th of a name made during elaboration is one track, whichever partitions made it.
  std::map<std::pair<std::string, size_t>, int> elaborated;
  std::vector<std::map<std::string, size_t>> made(partitions.size());
  for (;;) {
    // Each partition's records in its own order; between partitions, the run's order.
    size_t best = partitions.size();
    for (size_t p = 0; p < partitions.size(); ++p) {
      if (next[p] == records[p].size()) continue;
      if (best == partitions.size() || records[p][next[p]] < records[best][next[best]]) best = p;
    }
    if (best == partitions.size()) break;
    const Record& r = records[best][next[best]++];
    if (r.op == Op::Track) {
      const char* unit = r.flag ? units_.insert(r.text).first->c_str() : nullptr;
      if (r.phase != 0) {
        ids[best].push_back(add_track(r.name, unit));
        continue;
      }
      const auto [it, fresh] = elaborated.try_emplace({r.name, made[best][r.name]++}, 0);
      if (fresh) it->second = add_track(r.name, unit);
      ids[best].push_back(it->second);
    } else {
      apply(r, ids[best]);
    }
  }
}

}  // namespace hs
