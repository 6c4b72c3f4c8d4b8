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

// What a trace keeps: a window of simulated time, the tracks whose names match a pattern, and
// a size bound past which tracing stops (with a warning) while the run goes on.
struct TraceLimits {
  double start_ns = 0;
  double end_ns = 0;       // 0: to the end of the run
  std::string only;        // glob over track names ("*.core0", "node0.pcie*"); empty: all
  uint64_t max_bytes = 0;  // 0: no bound
};

class TransactionTrace {
 public:
  static TransactionTrace& instance();
  ~TransactionTrace();

  // Turns tracing on; throws InputError if `path` cannot be written. No file is created yet:
  // what elaboration traces is held until start(), so bad input found meanwhile leaves no file.
  void open(const std::string& path, const TraceLimits& limits = {});
  // Creates the file (beside `path`, renamed into place by close()) and writes what is held.
  void start();
  // Ends the JSON and moves the file into place; throws InputError naming it if a write failed.
  void close();
  // Drops the trace: nothing is written, an existing file at the path is left as it was.
  void abandon();
  bool enabled() const { return enabled_; }

  // A track (shown as a thread row). Returns -1 when tracing is off or the track's name does
  // not match the --trace-only pattern.
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
  // Whether an event over [start, end] falls in the trace's window.
  bool in_window(const sc_core::sc_time& start, const sc_core::sc_time& end) const;
  bool enabled_ = false, full_ = false;
  TraceLimits limits_;
  uint64_t bytes_ = 0;
  std::string path_, held_;
  std::unique_ptr<OutputFile> file_;
  int next_track_ = 1;
};

}  // namespace hs
