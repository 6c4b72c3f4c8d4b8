// Output files that never leave a user's file half-written or clobbered: the content goes to
// a temporary file beside the destination, renamed over it only once completely written, and
// an unfinished output is simply removed. Destinations that are not regular files
// (/dev/null, /dev/stdout, a terminal) cannot be renamed over: they are written directly.
// "-" is standard output, written in place after whatever the process printed before.
// Every write error is reported with the option and the file it concerns.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

namespace hs {

// The output path that means standard output.
inline constexpr const char* kStandardOutput = "-";

// Throws InputError ("OPTION: cannot write 'PATH': why") unless `path` can be an output: not
// a directory, and in a directory that exists and can be written. Touches nothing.
void check_output_path(const std::string& option, const std::string& path);

// A destination and the name written until it is complete. For writers that open the file
// themselves (SystemC's VCD writer); `suffix` ends the temporary name.
class PendingOutput {
 public:
  PendingOutput(std::string option, std::string path, const std::string& suffix = "");
  ~PendingOutput();  // not committed: the temporary file goes, the destination is untouched
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;

  const std::string& path() const { return path_; }
  // Where to write: the temporary file, or the destination itself if it is a device.
  const std::string& write_path() const { return write_path_; }
  bool direct() const { return direct_; }
  // Moves the written file into place; throws InputError naming the file if it cannot.
  void commit();
  void abandon();
  // Throws InputError naming the destination, with `why`; the temporary file is removed.
  [[noreturn]] void fail(const std::string& why);

 private:
  std::string option_, path_, write_path_;
  bool direct_ = false, done_ = false;
};

// An output written through a stdio stream.
class OutputFile {
 public:
  // Creates the temporary file (or opens the device); throws InputError if it cannot.
  OutputFile(const std::string& option, const std::string& path);
  ~OutputFile();  // not committed: discarded
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view text);
  // Flushes, closes and moves the file into place; throws InputError naming the file if any
  // write failed (a full disk, /dev/full).
  void commit();

 private:
  PendingOutput target_;
  std::FILE* file_ = nullptr;
  int first_error_ = 0;  // errno of the first failed write: a later flush has lost it
};

// Writes `text` as the whole of `path`, as OutputFile does.
void write_output_file(const std::string& option, const std::string& path, const std::string& text);

}  // namespace hs
