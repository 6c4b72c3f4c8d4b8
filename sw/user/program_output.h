// Where the standard output and error of a set of program instances go (a job's ranks): the
// simulator's own standard output and error, as a real machine's launcher forwards them.
// Each instance's bytes are assembled into whole lines, so lines of different instances never
// mix; with labels on, each line starts with its instance's label ("[3] "). A partial last
// line is written when its instance ends.
// A partitioned run holds the lines instead (hold_lines): each partition's reach the reporting
// process, which prints them once, in the sequential run's order, when the run ends.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace hs::user {

class ProgramOutput {
 public:
  ProgramOutput(std::FILE* out, std::FILE* err, bool labels)
      : out_(out), err_(err), labels_(labels) {}

  // One instance's streams: its partial lines.
  class Streams {
   public:
    Streams(ProgramOutput& to, std::string label) : to_(to), label_(std::move(label)) {}
    void write(int stream, const char* data, size_t len);
    void flush();  // the partial lines, each ended
    uint64_t bytes() const { return bytes_; }

   private:
    ProgramOutput& to_;
    std::string label_;
    std::string partial_[2];  // stdout, stderr
    uint64_t bytes_ = 0;
  };

  // Each whole line (labelled when labels are on) goes to `hold` instead of the streams, with
  // its instance's label: `hold(label, stream, line)`.
  using Hold = std::function<void(const std::string& label, int stream, std::string line)>;
  void hold_lines(Hold hold) { hold_ = std::move(hold); }
  // Writes a line held before.
  void print(int stream, const std::string& line);

 private:
  void emit(int stream, const std::string& label, const char* text, size_t len);
  std::FILE* out_;
  std::FILE* err_;
  bool labels_;
  Hold hold_;
};

}  // namespace hs::user
