#include "tlm/trace/transaction_trace.h"

#include <fmt/format.h>

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

void TransactionTrace::open(const std::string& path) {
  abandon();
  check_output_path("--trace", path);
  path_ = path;
  enabled_ = true;
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
  if (file_) {
    file_->write(",\n");
    file_->write(json);
  } else {
    held_ += ",\n" + json;
  }
}

int TransactionTrace::track(const std::string& name) {
  if (!enabled_) return -1;
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
  if (!enabled_ || track < 0) return;
  std::string e = fmt::format(R"({{"name":"{}","ph":"X","pid":1,"tid":{},"ts":{:.6f},"dur":{:.6f})",
                              name, track, to_us(start), to_us(end - start));
  if (args) e += ",\"args\":" + args->dump();
  event(e + "}");
}

void TransactionTrace::async_span(int track, const char* name, uint64_t id,
                                  const sc_core::sc_time& start, const sc_core::sc_time& end) {
  if (!enabled_ || track < 0) return;
  event(fmt::format(R"({{"name":"{}","cat":"txn","ph":"b","id":{},"pid":1,"tid":{},"ts":{:.6f}}},)"
                    "\n"
                    R"({{"name":"{}","cat":"txn","ph":"e","id":{},"pid":1,"tid":{},"ts":{:.6f}}})",
                    name, id, track, to_us(start), name, id, track, to_us(end)));
}

void TransactionTrace::instant(int track, const char* name, const sc_core::sc_time& at,
                               const nlohmann::json* args) {
  if (!enabled_ || track < 0) return;
  nlohmann::json e = {{"name", name}, {"ph", "i"},    {"s", "t"},
                      {"pid", 1},     {"tid", track}, {"ts", to_us(at)}};
  if (args) e["args"] = *args;
  event(e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace hs
