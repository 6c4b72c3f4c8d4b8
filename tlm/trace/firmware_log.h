// Firmware log lines (Hal::log): each goes to standard error, stamped with the simulated time
// and the core, unless the run is quiet, and to the core's track in the transaction trace as
// an instant event carrying the text. The count is kept for the report.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>

namespace hs {

class FirmwareLog {
 public:
  static FirmwareLog& instance();
  // Standard error gets the lines unless a run is --quiet.
  void set_echo(bool echo) { echo_ = echo; }
  // `track`: the core's transaction-trace track (-1 when tracing is off).
  void write(const std::string& core, int track, const std::string& message,
             const sc_core::sc_time& at);
  uint64_t lines() const { return lines_; }

 private:
  bool echo_ = true;
  uint64_t lines_ = 0;
};

}  // namespace hs
