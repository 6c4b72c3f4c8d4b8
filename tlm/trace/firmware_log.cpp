#include "tlm/trace/firmware_log.h"

#include <fmt/format.h>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "tlm/trace/transaction_trace.h"

namespace hs {

FirmwareLog& FirmwareLog::instance() {
  static FirmwareLog log;
  return log;
}

void FirmwareLog::write(const std::string& core, int track, const std::string& message,
                        const sc_core::sc_time& at) {
  ++lines_;
  if (echo_) {
    std::fputs(fmt::format("[{:.3f} ns] {}: {}\n", at.to_seconds() * 1e9, core, message).c_str(),
               stderr);
  }
  const nlohmann::json args = {{"message", message}};
  TransactionTrace::instance().instant(track, "log", at, &args);
}

}  // namespace hs
