// Transaction timelines in the Chrome/Perfetto JSON trace format (open in ui.perfetto.dev or
// chrome://tracing). One track per component; spans for transactions and protocol phases.
// When no trace file is open every call is a cheap no-op.
#pragma once
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>

namespace hs {

class TransactionTrace {
 public:
  static TransactionTrace& instance();
  ~TransactionTrace();

  // Opens the output file; throws InputError if it cannot be written.
  void open(const std::string& path);
  void close();
  bool enabled() const { return file_ != nullptr; }

  // A track (shown as a thread row). Returns -1 when tracing is off.
  int track(const std::string& name);
  // A complete span on a track whose spans never overlap (a wire, a core).
  void span(int track, const char* name, const sc_core::sc_time& start, const sc_core::sc_time& end,
            const nlohmann::json* args = nullptr);
  // A span that may overlap others on the same track (pipelined commands).
  void async_span(int track, const char* name, uint64_t id, const sc_core::sc_time& start,
                  const sc_core::sc_time& end);
  void instant(int track, const char* name, const sc_core::sc_time& at);

 private:
  void write_prefix();
  std::FILE* file_ = nullptr;
  int next_track_ = 1;
};

}  // namespace hs
