// VCD signal tracing through sc_trace. Components register the state they expose (queue
// depths, credits in use, bytes moved, core activity) at elaboration; nothing is traced, and
// nothing costs, unless a VCD file was opened first (--vcd).
#pragma once
#include <string>
#include <systemc>

namespace hs {

class SignalTrace {
 public:
  static SignalTrace& instance();
  ~SignalTrace();

  // Opens FILE.vcd; must happen before the model is built. Throws InputError if unwritable.
  void open(const std::string& path);
  void close();
  bool enabled() const { return file_ != nullptr; }
  const std::string& path() const { return path_; }

  template <class T>
  void add(const T& value, const std::string& name) {
    if (file_) sc_core::sc_trace(file_, value, name);
  }

 private:
  sc_core::sc_trace_file* file_ = nullptr;
  std::string path_;
};

}  // namespace hs
