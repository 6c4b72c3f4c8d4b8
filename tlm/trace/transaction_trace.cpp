#include "tlm/trace/transaction_trace.h"

#include <fmt/format.h>
#include <cerrno>
#include <cstring>

#include "tlm/common/errors.h"

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
  close();
}

void TransactionTrace::open(const std::string& path) {
  close();
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) {
    throw InputError(fmt::format("--trace: cannot write '{}': {}", path, std::strerror(errno)));
  }
  std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", file_);
  std::fputs(R"({"name":"process_name","ph":"M","pid":1,"args":{"name":"hybridsim"}})", file_);
}

void TransactionTrace::close() {
  if (!file_) return;
  std::fputs("\n]}\n", file_);
  std::fclose(file_);
  file_ = nullptr;
}

void TransactionTrace::write_prefix() {
  std::fputs(",\n", file_);
}

int TransactionTrace::track(const std::string& name) {
  if (!file_) return -1;
  int id = next_track_++;
  write_prefix();
  std::fprintf(file_, R"({"name":"thread_name","ph":"M","pid":1,"tid":%d,"args":{"name":"%s"}})",
               id, name.c_str());
  write_prefix();
  std::fprintf(file_,
               R"({"name":"thread_sort_index","ph":"M","pid":1,"tid":%d,"args":{"sort_index":%d}})",
               id, id);
  return id;
}

void TransactionTrace::span(int track, const char* name, const sc_core::sc_time& start,
                            const sc_core::sc_time& end, const nlohmann::json* args) {
  if (!file_ || track < 0) return;
  write_prefix();
  std::fprintf(file_, R"({"name":"%s","ph":"X","pid":1,"tid":%d,"ts":%.6f,"dur":%.6f)", name, track,
               to_us(start), to_us(end - start));
  if (args) std::fprintf(file_, ",\"args\":%s", args->dump().c_str());
  std::fputc('}', file_);
}

void TransactionTrace::async_span(int track, const char* name, uint64_t id,
                                  const sc_core::sc_time& start, const sc_core::sc_time& end) {
  if (!file_ || track < 0) return;
  write_prefix();
  std::fprintf(file_,
               R"({"name":"%s","cat":"txn","ph":"b","id":%llu,"pid":1,"tid":%d,"ts":%.6f},)"
               "\n"
               R"({"name":"%s","cat":"txn","ph":"e","id":%llu,"pid":1,"tid":%d,"ts":%.6f})",
               name, static_cast<unsigned long long>(id), track, to_us(start), name,
               static_cast<unsigned long long>(id), track, to_us(end));
}

void TransactionTrace::instant(int track, const char* name, const sc_core::sc_time& at) {
  if (!file_ || track < 0) return;
  write_prefix();
  std::fprintf(file_, R"({"name":"%s","ph":"i","s":"t","pid":1,"tid":%d,"ts":%.6f})", name, track,
               to_us(at));
}

}  // namespace hs
