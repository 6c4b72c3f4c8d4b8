#include "tlm/bus/address_map.h"

#include <fmt/format.h>
#include <algorithm>
#include <stdexcept>

namespace hs {

void AddressDecoder::add(const AddressWindow& w) {
  if (w.size == 0) throw std::logic_error("empty address window " + w.name);
  for (const auto& o : windows_) {
    bool overlap = w.base < o.base + o.size && o.base < w.base + w.size;
    if (overlap) {
      throw std::logic_error(
          fmt::format("address window {} [{:#x},+{:#x}) overlaps {} [{:#x},+{:#x})", w.name, w.base,
                      w.size, o.name, o.base, o.size));
    }
  }
  auto pos = std::upper_bound(windows_.begin(), windows_.end(), w.base,
                              [](uint64_t a, const AddressWindow& x) { return a < x.base; });
  windows_.insert(pos, w);
  last_ = nullptr;  // the insert may have moved the cached window
}

const AddressWindow* AddressDecoder::find(uint64_t addr, uint64_t len) const {
  if (last_ && last_->contains(addr, len)) return last_;
  auto it = std::upper_bound(windows_.begin(), windows_.end(), addr,
                             [](uint64_t a, const AddressWindow& x) { return a < x.base; });
  if (it == windows_.begin()) return nullptr;
  --it;
  if (!it->contains(addr, len)) return nullptr;
  last_ = &*it;
  return last_;
}

}  // namespace hs
