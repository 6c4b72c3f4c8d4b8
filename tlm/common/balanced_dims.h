// Splitting a count into the most nearly equal dimensions: the rule MPI_Dims_create states
// (dimensions as close to one another as possible, in non-increasing order) and the torus shape
// `hybridsim mpirun` picks for N nodes by default.
#pragma once

#include <algorithm>
#include <vector>

namespace hs {

// `n`'s prime factors, largest first, each multiplied into the smallest dimension so far; the
// `ndims` dimensions returned largest first (their product is n).
inline std::vector<int> balanced_dims(int n, int ndims) {
  std::vector<int> factors;
  int rest = n;
  for (int f = 2; f * f <= rest; ++f) {
    while (rest % f == 0) {
      factors.push_back(f);
      rest /= f;
    }
  }
  if (rest > 1) factors.push_back(rest);
  std::sort(factors.rbegin(), factors.rend());
  std::vector<int> dims(static_cast<size_t>(ndims), 1);
  for (int f : factors) *std::min_element(dims.begin(), dims.end()) *= f;
  std::sort(dims.rbegin(), dims.rend());
  return dims;
}

}  // namespace hs
