// Collectives::split (sw/mpi/collectives.h): the colours and keys by an allgather in the
// layer's own buffers, then every rank picks its group the same way.
#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "sw/mpi/collectives.h"

namespace hs::fw::mpi {

Comm Collectives::split(int color, int key) {
  Hal& hal = comm_.hal();
  if (color < 0) hal.fail(fmt::format("rank {}: split with colour {}", comm_.rank(), color));
  const auto n = static_cast<size_t>(comm_.size());
  const uint64_t mine = comm_.window() + kRankLayerBuffers, all = mine + 64;
  if (64 + n * 8 > kRankLayerArea) {
    hal.fail(fmt::format("split of {} ranks: their colours and keys exceed the layer's {} KiB", n,
                         kRankLayerArea >> 10));
  }
  const int32_t pair[2] = {color, key};
  hal.store(mine, pair, sizeof pair);
  allgather(mine, all, sizeof pair);
  std::vector<int32_t> v(2 * n);
  hal.load(all, v.data(), v.size() * sizeof(int32_t));
  std::vector<int> group;  // parent ranks with my colour
  for (size_t r = 0; r < n; ++r) {
    if (v[2 * r] == color) group.push_back(static_cast<int>(r));
  }
  std::stable_sort(group.begin(), group.end(),
                   [&](int a, int b) { return v[2 * size_t(a) + 1] < v[2 * size_t(b) + 1]; });
  const int me =
      static_cast<int>(std::find(group.begin(), group.end(), comm_.rank()) - group.begin());
  return Comm(comm_, group, me, comm_.allocate_comm_id());
}

}  // namespace hs::fw::mpi
