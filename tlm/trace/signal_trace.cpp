#include "tlm/trace/signal_trace.h"

#include <fmt/format.h>

#include "tlm/common/errors.h"

namespace hs {

namespace {
constexpr const char* kExtension = ".vcd";
}

SignalTrace& SignalTrace::instance() {
  static SignalTrace trace;
  return trace;
}

SignalTrace::~SignalTrace() {
  abandon();
}

void SignalTrace::open(const std::string& path) {
  abandon();
  const std::string ext = kExtension;
  if (path.size() <= ext.size() || path.compare(path.size() - ext.size(), ext.size(), ext) != 0) {
    throw InputError(fmt::format("--vcd: file name must end in .vcd, got '{}'", path));
  }
  // The kernel appends ".vcd" to the name it is given, and opens the file only when the
  // simulation starts: until then nothing exists on disk.
  output_ = std::make_unique<PendingOutput>("--vcd", path, kExtension);
  // A device (a link to /dev/null) is written in place, through the name given.
  std::string base = output_->direct() ? path : output_->write_path();
  base.resize(base.size() - ext.size());
  path_ = path;
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);
}

void SignalTrace::close_kernel_file() {
  if (!file_) return;
  sc_core::sc_close_vcd_trace_file(file_);
  file_ = nullptr;
}

void SignalTrace::close() {
  if (!output_) return;
  // The kernel's writer keeps its stream to itself, so its write errors cannot be seen here;
  // an output it never managed to create is.
  close_kernel_file();
  const auto output = std::move(output_);
  output->commit();
}

void SignalTrace::abandon() {
  close_kernel_file();
  output_.reset();
}

}  // namespace hs
