#include "sw/mpi/api/datatype.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace hs::fw::mpi::api {

namespace {

void add_run(TypeMap& t, int64_t offset, uint64_t length) {
  if (length == 0) return;
  if (!t.runs.empty() &&
      t.runs.back().first + static_cast<int64_t>(t.runs.back().second) == offset) {
    t.runs.back().second += length;
  } else {
    if (t.runs.size() >= TypeMap::kMaxRuns) {
      throw std::invalid_argument(
          fmt::format("the type map would have more than {} separate pieces", TypeMap::kMaxRuns));
    }
    t.runs.emplace_back(offset, length);
  }
}

// A new type starts empty, with bounds to be widened by append().
TypeMap start() {
  TypeMap t;
  t.lb = std::numeric_limits<int64_t>::max();
  t.ub = std::numeric_limits<int64_t>::min();
  t.true_lb = std::numeric_limits<int64_t>::max();
  t.true_ub = std::numeric_limits<int64_t>::min();
  return t;
}

// Appends `count` copies of `old`, the k-th at `at + k x extent(old)`.
void append(TypeMap& t, const TypeMap& old, int64_t at, int count, bool& first) {
  if (count <= 0) return;
  const int64_t ext = old.extent();
  for (int k = 0; k < count; ++k) {
    const int64_t base = at + static_cast<int64_t>(k) * ext;
    for (const auto& [off, len] : old.runs) add_run(t, base + off, len);
  }
  const int64_t lo = at + std::min<int64_t>(0, static_cast<int64_t>(count - 1) * ext);
  const int64_t hi = at + std::max<int64_t>(0, static_cast<int64_t>(count - 1) * ext);
  t.lb = std::min(t.lb, lo + old.lb);
  t.ub = std::max(t.ub, hi + old.ub);
  if (old.size > 0) {
    t.true_lb = std::min(t.true_lb, lo + old.true_lb);
    t.true_ub = std::max(t.true_ub, hi + old.true_ub);
  }
  t.size += static_cast<uint64_t>(count) * old.size;
  t.basic_count += static_cast<uint64_t>(count) * old.basic_count;
  if (first) {
    t.element = old.element;
    first = false;
  } else if (t.element != old.element) {
    t.element.reset();
  }
}

void finish(TypeMap& t, bool empty) {
  if (empty) {
    t.lb = t.ub = t.true_lb = t.true_ub = 0;
    return;
  }
  if (t.true_lb > t.true_ub) t.true_lb = t.true_ub = 0;
}

}  // namespace

TypeMap predefined_type(const std::string& name, uint64_t bytes, uint64_t extent,
                        std::optional<Datatype> e,
                        const std::vector<std::pair<int64_t, uint64_t>>& runs) {
  TypeMap t;
  t.name = name;
  t.predefined = true;
  t.committed = true;
  t.size = bytes;
  t.lb = 0;
  t.ub = static_cast<int64_t>(extent);
  t.element = e;
  t.basic_count = 1;
  if (runs.empty()) {
    t.runs = {{0, bytes}};
    t.true_lb = 0;
    t.true_ub = static_cast<int64_t>(bytes);
  } else {
    t.runs = runs;
    t.true_lb = runs.front().first;
    t.true_ub = runs.back().first + static_cast<int64_t>(runs.back().second);
  }
  return t;
}

TypeMap contiguous(int count, const TypeMap& old) {
  TypeMap t = start();
  bool first = true;
  append(t, old, 0, count, first);
  finish(t, count <= 0);
  return t;
}

TypeMap hvector(int count, int blocklength, int64_t stride_bytes, const TypeMap& old) {
  TypeMap t = start();
  bool first = true;
  for (int i = 0; i < count; ++i)
    append(t, old, static_cast<int64_t>(i) * stride_bytes, blocklength, first);
  finish(t, count <= 0 || blocklength <= 0);
  return t;
}

TypeMap hindexed(const std::vector<int>& blocklengths, const std::vector<int64_t>& displs_bytes,
                 const TypeMap& old) {
  TypeMap t = start();
  bool first = true;
  bool any = false;
  for (size_t i = 0; i < blocklengths.size(); ++i) {
    append(t, old, displs_bytes[i], blocklengths[i], first);
    any = any || blocklengths[i] > 0;
  }
  finish(t, !any);
  return t;
}

TypeMap create_struct(const std::vector<int>& blocklengths,
                      const std::vector<int64_t>& displs_bytes,
                      const std::vector<const TypeMap*>& types) {
  TypeMap t = start();
  bool first = true;
  bool any = false;
  for (size_t i = 0; i < blocklengths.size(); ++i) {
    append(t, *types[i], displs_bytes[i], blocklengths[i], first);
    any = any || blocklengths[i] > 0;
  }
  finish(t, !any);
  return t;
}

TypeMap resized(const TypeMap& old, int64_t lb, int64_t extent) {
  TypeMap t = old;
  t.name.clear();
  t.predefined = false;
  t.committed = false;
  t.lb = lb;
  t.ub = lb + extent;
  return t;
}

uint64_t pack(const TypeMap& t, const void* src, uint64_t count, void* dst) {
  const auto* s = static_cast<const char*>(src);
  auto* d = static_cast<char*>(dst);
  for (uint64_t j = 0; j < count; ++j) {
    const char* e = s + static_cast<int64_t>(j) * t.extent();
    for (const auto& [off, len] : t.runs) {
      std::memcpy(d, e + off, len);
      d += len;
    }
  }
  return count * t.runs.size();
}

uint64_t unpack(const TypeMap& t, const void* src, uint64_t count, void* dst) {
  return unpack_bytes(t, src, count * t.size, dst);
}

uint64_t unpack_bytes(const TypeMap& t, const void* src, uint64_t bytes, void* dst) {
  const auto* s = static_cast<const char*>(src);
  auto* d = static_cast<char*>(dst);
  uint64_t runs = 0;
  for (uint64_t j = 0; bytes > 0; ++j) {
    char* e = d + static_cast<int64_t>(j) * t.extent();
    for (const auto& [off, len] : t.runs) {
      const uint64_t n = std::min<uint64_t>(len, bytes);
      std::memcpy(e + off, s, n);
      s += n;
      bytes -= n;
      ++runs;
      if (bytes == 0) break;
    }
    if (t.size == 0) break;
  }
  return runs;
}

}  // namespace hs::fw::mpi::api
