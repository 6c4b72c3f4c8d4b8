// The exact sum of doubles: the same value whatever the order of the additions, so a figure
// summed over a machine's components is the same however they are grouped (in one process, or
// in the partitions of a parallel run, merged at the end). Each sample is kept exactly, as
// 32-bit limbs of a wide fixed-point number; the sum is rounded to a double once, when read.
// Non-finite samples are not summed (value() then says nothing about them).
#pragma once
#include <cstdint>
#include <vector>

namespace hs {

class ExactSum {
 public:
  void add(double v);
  void merge(const ExactSum& o);
  double value() const;
  bool operator==(const ExactSum& o) const;

  // The raw limbs, for moving a sum between processes.
  int lowest_limb() const { return lo_; }
  const std::vector<int64_t>& limbs() const { return limbs_; }
  static ExactSum from_limbs(int lowest, std::vector<int64_t> limbs);

 private:
  void add_limb(int index, int64_t v);
  void normalise();
  // The sum as a sign and the base-2^32 digits of its magnitude (lowest first, no zero at
  // either end): one form for each value, however it was summed.
  struct Canonical {
    bool negative;
    int lo;
    std::vector<int64_t> digits;
  };
  Canonical canonical() const;
  int lo_ = 0;                  // index of limbs_[0]: it weighs 2^(32 lo_)
  std::vector<int64_t> limbs_;  // each a multiple of its weight; carries pending
  uint32_t adds_ = 0;           // since the last normalisation (limbs stay far from overflow)
};

}  // namespace hs
