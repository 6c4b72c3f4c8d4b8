// Making communicators (sw/mpi/collectives.h): split and subset. Every rank of the parent
// gives its colour, key and free slots by one allgather in the layer's own buffers; then each
// picks its group the same way, and the new communicators take the lowest slot free on every
// rank of the parent (an agreement no rank can miss, since all of them took part).
#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "sw/mpi/collectives.h"

namespace hs::fw::mpi {

namespace {
// The parent ranks with colour `color`, ordered by key and then rank (exchange_words' words).
std::vector<int> colour_group(const std::vector<int32_t>& v, int color) {
  std::vector<int> group;
  for (size_t r = 0; r < v.size() / 4; ++r) {
    if (v[4 * r] == color) group.push_back(static_cast<int>(r));
  }
  std::stable_sort(group.begin(), group.end(),
                   [&](int a, int b) { return v[4 * size_t(a) + 1] < v[4 * size_t(b) + 1]; });
  return group;
}
int position(const std::vector<int>& group, int rank) {
  return static_cast<int>(std::find(group.begin(), group.end(), rank) - group.begin());
}
}  // namespace

std::vector<int32_t> Collectives::exchange_words(int32_t a, int32_t b, int32_t c) {
  Hal& hal = comm_.hal();
  const auto n = static_cast<size_t>(comm_.size());
  constexpr size_t kWords = 4;  // colour, key, free slots, padding
  const uint64_t mine = comm_.window() + kRankLayerBuffers, all = mine + 64;
  if (64 + n * kWords * 4 > kRankLayerArea) {
    hal.fail(
        fmt::format("making a communicator of {} ranks: their colours and keys exceed the "
                    "layer's {} KiB",
                    n, kRankLayerArea >> 10));
  }
  const int32_t words[kWords] = {a, b, c, 0};
  hal.store(mine, words, sizeof words);
  allgather(mine, all, sizeof words);
  std::vector<int32_t> v(kWords * n);
  hal.load(all, v.data(), v.size() * sizeof(int32_t));
  return v;
}

int Collectives::agreed_slot(const std::vector<int32_t>& words) {
  uint32_t free = ~0u;
  for (size_t r = 0; r < words.size() / 4; ++r) free &= static_cast<uint32_t>(words[4 * r + 2]);
  free &= ~1u;  // the world's
  if (free == 0) {
    comm_.hal().fail(fmt::format(
        "rank {}: a new communicator finds no slot free on all of its parent's ranks: at most "
        "{} communicators may exist at once (free those no longer used)",
        comm_.world_rank(comm_.rank()), kCommSlots));
  }
  return __builtin_ctz(free);
}

std::unique_ptr<Comm> Collectives::split_or_none(int color, int key) {
  const auto v = exchange_words(color, key, static_cast<int32_t>(comm_.free_slots()));
  const int slot = agreed_slot(v);
  if (color < 0) return nullptr;
  const auto group = colour_group(v, color);
  return std::unique_ptr<Comm>(new Comm(comm_, group, position(group, comm_.rank()), slot));
}

Comm Collectives::split(int color, int key) {
  Hal& hal = comm_.hal();
  if (color < 0) hal.fail(fmt::format("rank {}: split with colour {}", comm_.rank(), color));
  const auto v = exchange_words(color, key, static_cast<int32_t>(comm_.free_slots()));
  const int slot = agreed_slot(v);
  const auto group = colour_group(v, color);
  return Comm(comm_, group, position(group, comm_.rank()), slot);
}

std::unique_ptr<Comm> Collectives::subset(const std::vector<int>& members) {
  const auto v = exchange_words(0, 0, static_cast<int32_t>(comm_.free_slots()));
  const int slot = agreed_slot(v);
  const auto at = std::find(members.begin(), members.end(), comm_.rank());
  if (at == members.end()) return nullptr;
  return std::unique_ptr<Comm>(
      new Comm(comm_, members, static_cast<int>(at - members.begin()), slot));
}

std::unique_ptr<Comm> Collectives::alone() {
  const uint32_t free = comm_.free_slots() & ~1u;
  if (free == 0) {
    comm_.hal().fail(fmt::format("rank {}: no communicator slot is free", comm_.rank()));
  }
  return std::unique_ptr<Comm>(new Comm(comm_, {comm_.rank()}, 0, __builtin_ctz(free)));
}

}  // namespace hs::fw::mpi
