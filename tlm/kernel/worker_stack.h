// Stack size of the model's helper threads (MFC transfer workers, link delivery workers).
// Their deepest call chain (EIB, PCIe link, host bus, memory) needs a few KiB; a small stack
// keeps dozens of them cache- and TLB-friendly (the kernel's default is 64 KiB).
#pragma once
#include <cstddef>

namespace hs {

#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kWorkerStack = 256 * 1024;  // AddressSanitizer's redzones grow every frame
#else
constexpr std::size_t kWorkerStack = 32 * 1024;
#endif

}  // namespace hs
