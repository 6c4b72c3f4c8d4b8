#include "tlm/trace/signal_trace.h"

#include <fmt/format.h>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "tlm/common/errors.h"

namespace hs {

SignalTrace& SignalTrace::instance() {
  static SignalTrace trace;
  return trace;
}

SignalTrace::~SignalTrace() {
  close();
}

void SignalTrace::open(const std::string& path) {
  // sc_create_vcd_trace_file appends ".vcd" itself and cannot report failure: probe first.
  std::FILE* probe = std::fopen(path.c_str(), "w");
  if (!probe) {
    throw InputError(fmt::format("--vcd: cannot write '{}': {}", path, std::strerror(errno)));
  }
  std::fclose(probe);
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) {
    base.resize(base.size() - 4);
  } else {
    std::remove(path.c_str());
    throw InputError(fmt::format("--vcd: file name must end in .vcd, got '{}'", path));
  }
  path_ = path;
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);
}

void SignalTrace::close() {
  if (!file_) return;
  sc_core::sc_close_vcd_trace_file(file_);
  file_ = nullptr;
}

}  // namespace hs
