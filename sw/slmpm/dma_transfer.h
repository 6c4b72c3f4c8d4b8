// SLMPM DMA transfers from the host when only the accelerator has a DMA engine: the host
// registers its buffer (through the registration cache, or straight through the OS for the
// no-cache baseline), and sends the accelerator a shared-memory message asking for a remote
// GET; the accelerator's DMA engine pulls the data across PCIe and its SLMPM answers with a
// completion message, upon which the host deregisters the buffer. Messages travel through the
// mirrored-counter rings (no remote reads). Each message header carries the accelerator and
// process ids.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "sw/hal/hal.h"
#include "sw/os/os_model.h"
#include "sw/slmpm/mirrored_ring.h"
#include "sw/slmpm/registration_cache.h"

namespace hs::fw::slmpm {

enum MessageType : uint32_t { kGetRequest = 1, kDmaDone = 2 };

// Message bodies, carried in a ring packet's value bytes.
struct GetRequest {
  uint32_t tag, length;
  uint64_t src;  // host DMA address (from the registration handle)
  uint64_t dst;  // accelerator address
  uint32_t accelerator, process;
};
struct DmaDone {
  uint32_t tag, status;
};

class HostDmaTransfers {
 public:
  // `cache` null: every put registers and deregisters through the OS (the baseline).
  HostDmaTransfers(Hal& hal, const RingLayout& to_acc, const RingLayout& from_acc, os::OsModel& os,
                   RegistrationCache* cache, uint32_t accelerator, uint32_t process);
  // Starts moving [src, src + length) of host memory to `dst` in accelerator memory. Returns
  // a tag, or nothing with `error` set (the buffer could not be registered).
  std::optional<uint32_t> put(uint64_t src, uint64_t dst, uint32_t length, std::string& error);
  bool test(uint32_t tag);  // makes progress; true once the transfer is complete
  void wait(uint32_t tag);
  size_t outstanding() const { return in_flight_.size(); }

 private:
  void progress();
  struct InFlight {
    uint64_t lo, hi;
    os::Handle handle;
  };
  Hal& hal_;
  RingWriter out_;
  RingReader in_;
  os::OsModel& os_;
  RegistrationCache* cache_;
  uint32_t accelerator_, process_;
  uint32_t next_tag_ = 1;
  std::deque<Packet> pending_;
  std::map<uint32_t, InFlight> in_flight_;
};

// The accelerator's side: serves remote-GET requests with its DMA engine.
class AcceleratorDmaService {
 public:
  AcceleratorDmaService(Hal& hal, const RingLayout& from_host, const RingLayout& to_host,
                        uint64_t engine_regs, uint64_t request_area, uint64_t host_window);
  // Serves until `count` requests have completed and been answered.
  void serve(uint64_t count, uint64_t poll_cycles = 50);

 private:
  Hal& hal_;
  RingReader in_;
  RingWriter out_;
  uint64_t engine_, requests_, host_window_;
  std::deque<Packet> pending_;
};

}  // namespace hs::fw::slmpm
