// Waveforms: signals traced through sc_trace, and the VCD files other writers produce (each
// Verilated RTL block's own), merged on close into one file, VCD or FST, whose scopes follow
// the module hierarchy. Components register the state they expose (queue depths, credits in
// use, bytes moved, core activity) at elaboration; nothing is traced, and nothing costs,
// unless a waveform was opened first (--vcd).
//
// Beside FILE.vcd / FILE.fst go FILE.gtkw, a GTKWave save file listing the signals grouped by
// component (`gtkwave FILE.gtkw` opens it ready to read), and FILE.<enum>.txt, the translate
// filter files that show enumerated signals (a core's state) by name.
//
// A partitioned run (docs/parallel.md) writes the same files as the sequential run: every
// partition traces its own components into a scratch file of its own (open_partition), and
// hands it to partition 0 at the end (take_partition); partition 0 merges its own and the
// others' in partition order (vcd_merge.h: each signal's values from the partition that
// simulates it) and alone writes the waveform and its side files.
#pragma once
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <systemc>
#include <vector>

#include "tlm/common/output_file.h"
#include "tlm/trace/gtkwave_save.h"
#include "tlm/trace/vcd_merge.h"

namespace hs {

class SignalTrace {
 public:
  static SignalTrace& instance();
  ~SignalTrace();

  // Traces into FILE.vcd or FILE.fst; must happen before the model is built. Throws
  // InputError, touching nothing, if the name ends in neither, if FST is asked for and
  // vcd2fst (Debian package gtkwave) is not on PATH, or if the file cannot be written.
  void open(const std::string& path);
  // Merges what was traced into the file (converting it to FST if asked), moves it into place
  // and writes the GTKWave files beside it; throws InputError naming the file if it cannot.
  void close();
  // Drops the trace: an existing file at the path is left as it was.
  void abandon();

  // A partition other than 0 of a partitioned run: traces into a scratch file of its own (in
  // the temporary directory), instead of open().
  void open_partition();
  // Ends that partition's trace and returns what partition 0 needs of it: its file, its parts'
  // files and the names of its enumerated signals' values.
  std::vector<uint8_t> take_partition();
  // At partition 0, before close(): the other partitions' take_partition(), in partition order.
  void add_partitions(const std::vector<std::vector<uint8_t>>& others);
  bool enabled() const { return file_ != nullptr; }
  const std::string& path() const { return path_; }

  // Leaves out everything named under `scope` (a module's name): torus nodes not chosen.
  void hide(const std::string& scope);
  // Whether a signal named `name` would be traced.
  bool traces(const std::string& name) const;

  template <class T>
  void add(const T& value, const std::string& name) {
    if (traces(name)) sc_core::sc_trace(file_, value, name);
  }
  // An integer whose values are the names in `names` (which must outlive the trace).
  template <class T>
  void add(const T& value, const std::string& name, const WaveEnum& names) {
    if (!traces(name)) return;
    sc_core::sc_trace(file_, value, name);
    enums_[name] = &names;
  }

  // Another writer's VCD (a Verilated block's), merged into the waveform on close: returns
  // the file to write. `finish` must flush and close it; close() and abandon() call it
  // unless the writer said part_finished() first. Signals of a part at most `shown_depth`
  // scopes deep that change go into the save file.
  std::string add_part(std::function<void()> finish, int shown_depth);
  void part_finished(const std::string& file);

 private:
  struct Part {
    std::unique_ptr<PendingOutput> file;
    std::function<void()> finish;
    int shown_depth;
    bool finished = false;
  };
  void close_kernel_file();
  void finish_parts();
  void write_side_files(const std::vector<const VcdSignal*>& signals);
  // Writes `text` to a scratch file beside the output, kept until the trace ends.
  std::string scratch(const std::string& suffix, const std::string& text);

  sc_core::sc_trace_file* file_ = nullptr;
  bool fst_ = false;
  std::unique_ptr<PendingOutput> output_, kernel_vcd_;
  std::vector<Part> parts_;
  std::string path_, scratch_base_;
  std::set<std::string> hidden_;
  std::map<std::string, const WaveEnum*> enums_;
  // Another partition's waveform: its kernel file, and its parts' files with their depths.
  std::vector<std::string> partition_files_;
  std::vector<std::pair<std::string, int>> partition_parts_;
  std::vector<std::unique_ptr<PendingOutput>> scratch_;
  std::deque<WaveEnum> partition_enums_;  // the others' enumerations, which enums_ points to
};

}  // namespace hs
