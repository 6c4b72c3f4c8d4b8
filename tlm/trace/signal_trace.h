// VCD signal tracing through sc_trace. Components register the state they expose (queue
// depths, credits in use, bytes moved, core activity) at elaboration; nothing is traced, and
// nothing costs, unless a VCD file was opened first (--vcd).
#pragma once
#include <memory>
#include <string>
#include <systemc>

#include "tlm/common/output_file.h"

namespace hs {

class SignalTrace {
 public:
  static SignalTrace& instance();
  ~SignalTrace();

  // Traces into FILE.vcd; must happen before the model is built. Throws InputError, touching
  // nothing, if the name does not end in .vcd or the file cannot be written. The kernel
  // writes a temporary file beside it once the simulation starts; close() moves it into place.
  void open(const std::string& path);
  // Ends the trace and moves the file into place; throws InputError naming it if it cannot.
  void close();
  // Drops the trace: an existing file at the path is left as it was.
  void abandon();
  bool enabled() const { return file_ != nullptr; }
  const std::string& path() const { return path_; }

  template <class T>
  void add(const T& value, const std::string& name) {
    if (file_) sc_core::sc_trace(file_, value, name);
  }

 private:
  void close_kernel_file();
  sc_core::sc_trace_file* file_ = nullptr;
  std::unique_ptr<PendingOutput> output_;
  std::string path_;
};

}  // namespace hs
