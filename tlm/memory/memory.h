// A memory target (DRAM, local store): fixed access latency plus a port of finite bandwidth.
// Accesses queue on the port, so concurrent streams share its bandwidth. Several initiators
// or buses may bind `socket` directly (a local store serves its bus and its MFC); they all
// share the one port.
#pragma once
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "tlm/memory/sparse_storage.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/calendar_resource.h"

namespace hs {

struct MemoryDefaults {
  uint64_t size_bytes;
  double latency_ns;
  double bandwidth_gbps;    // GB/s (1e9 bytes per second)
  uint64_t max_size_bytes;  // the largest size the address map leaves room for
};

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Memory> socket;

  Memory(sc_core::sc_module_name name, const MemoryDefaults& defaults);

  uint64_t size() const { return size_; }
  // The parameter that sets the size ("node0.host.dram.size", or the shared name of a
  // replicated node's memory), for messages that tell the user what to change.
  const std::string& size_parameter() const { return size_param_; }
  // Checked before a run by whoever lays data out in this memory: throws InputError naming
  // the size parameter unless [0, end) fits. `what` says what needs the room.
  void require(uint64_t end, const std::string& what) const;
  // Checkers observe accesses to [lo, hi): the callback sees each overlapping access when it
  // happens, with its payload (command, address, length; extensions tell who issued it).
  using AccessWatch = std::function<void(const tlm::tlm_generic_payload&)>;
  void watch_writes(uint64_t lo, uint64_t hi, AccessWatch on_write);
  void watch_accesses(uint64_t lo, uint64_t hi, AccessWatch on_access);
  // While a watch runs: when the access it sees reaches the memory's port (the access is
  // handed over earlier, with the time the fabric before it takes still to come).
  const sc_core::sc_time& access_start() const { return access_start_; }

  // Host windows (sparse_storage.h states their rules): [addr, addr + len) of this memory
  // becomes the host bytes at `host`, for timed accesses, DMA and the debug path alike. A
  // write that touches a read-only window is answered with TLM_COMMAND_ERROR_RESPONSE and
  // fails the run naming the memory and the address, as a store to program text would fault.
  // Throws ModelError for a window beyond the memory, misaligned or overlapping another.
  void map_host_window(uint64_t addr, void* host, uint64_t len, bool writable);
  void unmap_host_window(uint64_t addr) { storage_.unmap_host(addr); }
  // The host bytes behind [addr, addr + len) when one host window holds them all, else nullptr.
  uint8_t* host_pointer(uint64_t addr, uint64_t len) const {
    return holds(addr, len) ? storage_.host_pointer(addr, len) : nullptr;
  }

  // Untimed access for loaders, checkers and tests (the debug path). An access beyond the
  // memory throws ModelError naming the memory, address and length.
  void peek(uint64_t addr, void* dst, uint64_t len) const;
  void poke(uint64_t addr, const void* src, uint64_t len);

 private:
  void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned int transport_dbg(int port, tlm::tlm_generic_payload& gp);
  bool check(tlm::tlm_generic_payload& gp) const;
  void refuse_read_only(tlm::tlm_generic_payload& gp) const;
  bool holds(uint64_t addr, uint64_t len) const { return addr <= size_ && len <= size_ - addr; }
  std::string beyond(const char* what, uint64_t addr, uint64_t len) const;

  uint64_t size_;
  std::string size_param_;
  sc_core::sc_time latency_;
  double bytes_per_second_;
  // Port time of accesses up to 512 B, shared by every memory of the same bandwidth (the
  // nodes of a large machine).
  std::shared_ptr<const std::vector<sc_core::sc_time>> xfer_by_length_;
  SparseStorage storage_;
  struct Watch {
    uint64_t lo, hi;
    bool reads;  // also reads, not only writes
    AccessWatch on_access;
  };
  void notify_watches(const tlm::tlm_generic_payload& gp) const;
  std::vector<Watch> watches_;
  uint64_t watched_lo_ = ~uint64_t{0}, watched_hi_ = 0;  // covers every watch: a quick reject
  CalendarResource port_;
  sc_core::sc_time access_start_;

  StatGroup stats_;
  Counter& reads_;
  Counter& writes_;
  ByteFlow& bytes_read_;
  ByteFlow& bytes_written_;
  BusyTime& busy_;
};

}  // namespace hs
