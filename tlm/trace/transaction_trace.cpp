#include "tlm/trace/transaction_trace.h"

#include <fmt/format.h>
#include <cstdio>

#include "tlm/common/glob.h"

namespace hs {

namespace {
// Perfetto's JSON importer takes microseconds; six decimals keep picosecond resolution.
double to_us(const sc_core::sc_time& t) {
  return t.to_seconds() * 1e6;
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
  next_track_ = 1;
  held_ = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  held_ += R"({"name":"process_name","ph":"M","pid":1,"args":{"name":"hybridsim"}})";
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
  file_->write("\n]}\n");
  enabled_ = false;
  const auto file = std::move(file_);
  file->commit();
}

void TransactionTrace::abandon() {
  enabled_ = false;
  file_.reset();
  held_.clear();
}

void TransactionTrace::event(const std::string& json) {
  if (full_) return;
  bytes_ += json.size() + 2;
  if (limits_.max_bytes && bytes_ > limits_.max_bytes) {
    full_ = true;  // the file stays valid JSON: close() still ends it
    std::fprintf(stderr,
                 "hybridsim: warning: --trace: %s reached its size bound of %llu bytes "
                 "(--trace-limit) at %s; tracing stops here, the run goes on\n",
                 path_.c_str(), static_cast<unsigned long long>(limits_.max_bytes),
                 sc_core::sc_time_stamp().to_string().c_str());
    return;
  }
  if (file_) {
    file_->write(",\n");
    file_->write(json);
  } else {
    held_ += ",\n" + json;
  }
}

bool TransactionTrace::in_window(const sc_core::sc_time& start, const sc_core::sc_time& end) const {
  if (end.to_seconds() * 1e9 < limits_.start_ns) return false;
  return limits_.end_ns <= 0 || start.to_seconds() * 1e9 <= limits_.end_ns;
}

int TransactionTrace::track(const std::string& name) {
  if (!enabled_) return -1;
  if (!limits_.only.empty() && !glob_match(limits_.only, name)) return -1;
  int id = next_track_++;
  event(fmt::format(R"({{"name":"thread_name","ph":"M","pid":1,"tid":{},"args":{{"name":"{}"}}}})",
                    id, name));
  event(fmt::format(
      R"({{"name":"thread_sort_index","ph":"M","pid":1,"tid":{},"args":{{"sort_index":{}}}}})", id,
      id));
  return id;
}

void TransactionTrace::span(int track, const char* name, const sc_core::sc_time& start,
                            const sc_core::sc_time& end, const nlohmann::json* args) {
  if (!enabled_ || track < 0 || !in_window(start, end)) return;
  std::string e = fmt::format(R"({{"name":"{}","ph":"X","pid":1,"tid":{},"ts":{:.6f},"dur":{:.6f})",
                              name, track, to_us(start), to_us(end - start));
  if (args) e += ",\"args\":" + args->dump();
  event(e + "}");
}

void TransactionTrace::async_span(int track, const char* name, uint64_t id,
                                  const sc_core::sc_time& start, const sc_core::sc_time& end) {
  if (!enabled_ || track < 0 || !in_window(start, end)) return;
  event(fmt::format(R"({{"name":"{}","cat":"txn","ph":"b","id":{},"pid":1,"tid":{},"ts":{:.6f}}},)"
                    "\n"
                    R"({{"name":"{}","cat":"txn","ph":"e","id":{},"pid":1,"tid":{},"ts":{:.6f}}})",
                    name, id, track, to_us(start), name, id, track, to_us(end)));
}

void TransactionTrace::instant(int track, const char* name, const sc_core::sc_time& at,
                               const nlohmann::json* args) {
  if (!enabled_ || track < 0 || !in_window(at, at)) return;
  nlohmann::json e = {{"name", name}, {"ph", "i"},    {"s", "t"},
                      {"pid", 1},     {"tid", track}, {"ts", to_us(at)}};
  if (args) e["args"] = *args;
  event(e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace hs
