// Address decoding: non-overlapping windows, each forwarding to one target port.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hs {

struct AddressWindow {
  uint64_t base = 0;
  uint64_t size = 0;
  int port = -1;
  bool translate = true;  // forward (address - base) rather than the address itself
  std::string name;
  bool contains(uint64_t addr, uint64_t len) const {
    return addr >= base && addr - base < size && len <= size - (addr - base);
  }
};

class AddressDecoder {
 public:
  // Adds a window; overlapping windows are a construction bug (std::logic_error).
  void add(const AddressWindow& w);
  // The window holding [addr, addr+len), or nullptr (unmapped, or straddling two windows).
  const AddressWindow* find(uint64_t addr, uint64_t len) const;

 private:
  std::vector<AddressWindow> windows_;           // sorted by base
  mutable const AddressWindow* last_ = nullptr;  // streams hit one window again and again
};

}  // namespace hs
