// Transaction timelines in the Chrome/Perfetto JSON trace format (open in ui.perfetto.dev or
// chrome://tracing). One track per component; spans for transactions and protocol phases.
// When no trace file is open every call is a cheap no-op.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>

#include "tlm/common/output_file.h"

namespace hs {

class TransactionTrace {
 public:
  static TransactionTrace& instance();
  ~TransactionTrace();

  // Turns tracing on; throws InputError if `path` cannot be written. No file is created yet:
  // what elaboration traces is held until start(), so bad input found meanwhile leaves no file.
  void open(const std::string& path);
  // Creates the file (beside `path`, renamed into place by close()) and writes what is held.
  void start();
  // Ends the JSON and moves the file into place; throws InputError naming it if a write failed.
  void close();
  // Drops the trace: nothing is written, an existing file at the path is left as it was.
  void abandon();
  bool enabled() const { return enabled_; }

  // A track (shown as a thread row). Returns -1 when tracing is off.
  int track(const std::string& name);
  // A complete span on a track whose spans never overlap (a wire, a core).
  void span(int track, const char* name, const sc_core::sc_time& start, const sc_core::sc_time& end,
            const nlohmann::json* args = nullptr);
  // A span that may overlap others on the same track (pipelined commands).
  void async_span(int track, const char* name, uint64_t id, const sc_core::sc_time& start,
                  const sc_core::sc_time& end);
  void instant(int track, const char* name, const sc_core::sc_time& at,
               const nlohmann::json* args = nullptr);

 private:
  void event(const std::string& json);
  bool enabled_ = false;
  std::string path_, held_;
  std::unique_ptr<OutputFile> file_;
  int next_track_ = 1;
};

}  // namespace hs
