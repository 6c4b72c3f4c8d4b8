// Where the SLMPM keeps its shared-memory structures on the hybrid node: per accelerator, a
// region of host DRAM and a region of that accelerator's DRAM, each written across PCIe by
// the other side. Defined once for both sides' firmware.
#pragma once
#include <cstdint>

#include "hw/hybrid/address_map.h"
#include "sw/slmpm/mirrored_ring.h"

namespace hs::fw::slmpm::shm {

namespace amap = hybrid::amap;

constexpr uint64_t kHostRegion = 0x3000'0000;  // + accelerator x kHostRegionStride
constexpr uint64_t kHostRegionStride = 0x10'0000;
constexpr uint64_t kAccRegion = 0x3000'0000;  // in each accelerator's own DRAM
constexpr uint32_t kMaxSegments = 1024;       // a ring of 64-byte segments fits in 64 KiB

// Offsets inside a region.
constexpr uint64_t kRing = 0x0'0000;    // the ring this side reads
constexpr uint64_t kJCopy = 0x1'0000;   // J of the ring this side reads, written by the peer
constexpr uint64_t kKHome = 0x1'0040;   // K of that ring, baseline: read by the peer
constexpr uint64_t kKCopy = 0x2'0000;   // K of the ring this side writes, written by the peer
constexpr uint64_t kJHome = 0x2'0040;   // J of that ring, baseline: read by the peer
constexpr uint64_t kSource = 0x3'0000;  // this side's tracked values
constexpr uint64_t kMirror = 0x4'0000;  // its mirror of the peer's values

constexpr uint64_t kEthernetChannel = 0x8'0000;  // a second ring pair, for the Ethernet fabric

inline uint64_t host_region(int acc) {
  return kHostRegion + kHostRegionStride * static_cast<uint64_t>(acc);
}

// The ring pair of a channel: over PCIe (the default) or, with `ethernet`, over Ethernet.
// The rings only ever write across the fabric, so both fabrics can carry them.
// Accelerator -> host: the accelerator writes, the host reads (ring in host memory).
inline RingLayout acc_to_host(int acc, int link, uint32_t segments, bool ethernet = false) {
  const uint64_t ch = ethernet ? kEthernetChannel : 0;
  RingLayout r;
  r.segments = segments;
  r.ring = host_region(acc) + ch + kRing;
  r.j_copy = host_region(acc) + ch + kJCopy;
  r.k_home = host_region(acc) + ch + kKHome;
  r.k_copy = kAccRegion + ch + kKCopy;
  r.j_home = kAccRegion + ch + kJHome;
  r.reader_memory_from_writer =
      ethernet ? amap::host_via_ethernet(link) : amap::host_via_pcie(link);
  r.writer_memory_from_reader =
      ethernet ? amap::acc_via_ethernet(acc, link) : amap::acc_via_pcie(acc, link);
  return r;
}

// Host -> accelerator: the host writes, the accelerator reads (ring in accelerator memory).
inline RingLayout host_to_acc(int acc, int link, uint32_t segments, bool ethernet = false) {
  const uint64_t ch = ethernet ? kEthernetChannel : 0;
  RingLayout r;
  r.segments = segments;
  r.ring = kAccRegion + ch + kRing;
  r.j_copy = kAccRegion + ch + kJCopy;
  r.k_home = kAccRegion + ch + kKHome;
  r.k_copy = host_region(acc) + ch + kKCopy;
  r.j_home = host_region(acc) + ch + kJHome;
  r.reader_memory_from_writer =
      ethernet ? amap::acc_via_ethernet(acc, link) : amap::acc_via_pcie(acc, link);
  r.writer_memory_from_reader =
      ethernet ? amap::host_via_ethernet(link) : amap::host_via_pcie(link);
  return r;
}

}  // namespace hs::fw::slmpm::shm
