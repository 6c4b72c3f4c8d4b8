#include "tlm/common/random_stream.h"

namespace hs {

namespace {
uint64_t g_run_seed = 1;
}  // namespace

void set_run_seed(uint64_t seed) {
  g_run_seed = seed;
}

uint64_t run_seed() {
  return g_run_seed;
}

uint64_t stream_seed(const std::string& name) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the name, then mixed with the run's seed
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return splitmix64(h ^ splitmix64(g_run_seed));
}

}  // namespace hs
