#include "sw/user/program_output.h"

#include <cstring>

#include "sw/user/user_abi.h"

namespace hs::user {

void ProgramOutput::emit(int stream, const std::string& label, const char* text, size_t len) {
  std::string line = labels_ ? "[" + label + "] " : std::string();
  line.append(text, len);
  if (hold_) return hold_(label, stream, std::move(line));
  print(stream, line);
}

void ProgramOutput::print(int stream, const std::string& line) {
  std::FILE* f = stream == HS_STDERR ? err_ : out_;
  std::fwrite(line.data(), 1, line.size(), f);
  std::fflush(f);
}

void ProgramOutput::Streams::write(int stream, const char* data, size_t len) {
  bytes_ += len;
  std::string& partial = partial_[stream == HS_STDERR ? 1 : 0];
  while (len > 0) {
    const char* nl = static_cast<const char*>(std::memchr(data, '\n', len));
    if (!nl) {
      partial.append(data, len);
      return;
    }
    const size_t n = static_cast<size_t>(nl - data) + 1;
    if (partial.empty()) {
      to_.emit(stream, label_, data, n);
    } else {
      partial.append(data, n);
      to_.emit(stream, label_, partial.data(), partial.size());
      partial.clear();
    }
    data += n;
    len -= n;
  }
}

void ProgramOutput::Streams::flush() {
  for (int s = 0; s < 2; ++s) {
    if (partial_[s].empty()) continue;
    partial_[s] += '\n';
    to_.emit(s == 0 ? HS_STDOUT : HS_STDERR, label_, partial_[s].data(), partial_[s].size());
    partial_[s].clear();
  }
}

}  // namespace hs::user
