#include "tlm/stats/exact_sum.h"

#include <algorithm>
#include <cmath>

namespace hs {

namespace {
constexpr int64_t kBase = int64_t{1} << 32;
// floor(a / 2^32), for negative a too.
int64_t carry_of(int64_t a) {
  return a >> 32;  // arithmetic shift: floor division
}
}  // namespace

void ExactSum::add_limb(int index, int64_t v) {
  if (v == 0) return;
  if (limbs_.empty()) {
    lo_ = index;
    limbs_.push_back(0);
  } else if (index < lo_) {
    limbs_.insert(limbs_.begin(), static_cast<size_t>(lo_ - index), 0);
    lo_ = index;
  } else if (index >= lo_ + static_cast<int>(limbs_.size())) {
    limbs_.resize(static_cast<size_t>(index - lo_ + 1), 0);
  }
  limbs_[static_cast<size_t>(index - lo_)] += v;
}

void ExactSum::add(double v) {
  if (v == 0 || !std::isfinite(v)) return;
  int e = 0;
  const double m = std::frexp(v, &e);                         // v = m * 2^e, 0.5 <= |m| < 1
  const auto mant = static_cast<int64_t>(std::ldexp(m, 53));  // exact: |mant| < 2^53
  const int k = e - 53;                                       // weight of mant's lowest bit
  const int limb = k >= 0 ? k / 32 : -((-k + 31) / 32);       // floor(k / 32)
  const int shift = k - 32 * limb;                            // 0..31
  // mant * 2^shift spans up to 85 bits: three 32-bit limbs, each taken with the sign.
  const bool negative = mant < 0;
  const auto mag = static_cast<uint64_t>(negative ? -mant : mant);
  const uint64_t parts[3] = {(mag << shift) & 0xffffffffu, (mag >> (32 - shift)) & 0xffffffffu,
                             shift == 0 ? 0 : mag >> (64 - shift)};
  for (int i = 0; i < 3; ++i) {
    const auto part = static_cast<int64_t>(parts[i]);
    add_limb(limb + i, negative ? -part : part);
  }
  if (++adds_ >= (1u << 30)) normalise();
}

void ExactSum::normalise() {
  adds_ = 0;
  if (limbs_.empty()) return;
  limbs_.push_back(0);
  limbs_.push_back(0);
  for (size_t i = 0; i + 1 < limbs_.size(); ++i) {
    const int64_t c = carry_of(limbs_[i]);
    limbs_[i] -= c * kBase;
    limbs_[i + 1] += c;
  }
  // A negative sum ends in a carry of -1: fold it into the limb below, so the limbs do not
  // grow with every normalisation.
  for (;;) {
    if (!limbs_.empty() && limbs_.back() == 0) {
      limbs_.pop_back();
    } else if (limbs_.size() >= 2 && limbs_.back() == -1) {
      limbs_.pop_back();
      limbs_.back() -= kBase;
    } else {
      break;
    }
  }
  size_t zeros = 0;
  while (zeros < limbs_.size() && limbs_[zeros] == 0) ++zeros;
  limbs_.erase(limbs_.begin(), limbs_.begin() + static_cast<std::ptrdiff_t>(zeros));
  lo_ += static_cast<int>(zeros);
  if (limbs_.empty()) lo_ = 0;
}

ExactSum::Canonical ExactSum::canonical() const {
  ExactSum n = *this;
  n.normalise();
  // Every limb but the top one is in [0, 2^32): the top one's sign is the sum's.
  Canonical c{false, n.lo_, n.limbs_};
  if (!n.limbs_.empty() && n.limbs_.back() < 0) {
    c.negative = true;
    for (int64_t& l : n.limbs_) l = -l;
    n.normalise();  // a positive sum: its digits, each in [0, 2^32)
    c.lo = n.lo_;
    c.digits = n.limbs_;
  }
  return c;
}

void ExactSum::merge(const ExactSum& o) {
  for (size_t i = 0; i < o.limbs_.size(); ++i) add_limb(o.lo_ + static_cast<int>(i), o.limbs_[i]);
  normalise();
}

double ExactSum::value() const {
  // From the canonical digits, so the rounding is the same however the sum was reached.
  const Canonical c = canonical();
  long double v = 0;
  for (size_t i = c.digits.size(); i-- > 0;) {
    v += std::ldexp(static_cast<long double>(c.digits[i]), 32 * (c.lo + static_cast<int>(i)));
  }
  return static_cast<double>(c.negative ? -v : v);
}

bool ExactSum::operator==(const ExactSum& o) const {
  const Canonical a = canonical(), b = o.canonical();
  return a.negative == b.negative && a.lo == b.lo && a.digits == b.digits;
}

ExactSum ExactSum::from_limbs(int lowest, std::vector<int64_t> limbs) {
  ExactSum s;
  s.lo_ = lowest;
  s.limbs_ = std::move(limbs);
  s.normalise();
  return s;
}

}  // namespace hs
