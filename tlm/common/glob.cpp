#include "tlm/common/glob.h"

namespace hs {

bool glob_match(const std::string& pattern, const std::string& name) {
  size_t p = 0, s = 0;
  size_t star = std::string::npos;  // the latest '*' seen in the pattern
  size_t resume = 0;                // where that star's run ends so far
  while (s < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = s;
    } else if (p < pattern.size() && pattern[p] == name[s]) {
      ++p;
      ++s;
    } else if (star != std::string::npos) {
      p = star + 1;  // let the latest star swallow one more character
      s = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace hs
