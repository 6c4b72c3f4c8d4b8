#include "tlm/memory/memory.h"

#include <fmt/format.h>
#include <algorithm>
#include <map>

#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"

namespace hs {

using sc_core::sc_time;

namespace {
std::shared_ptr<const std::vector<sc_time>> transfer_table(double bytes_per_second) {
  static std::map<double, std::weak_ptr<const std::vector<sc_time>>> tables;
  auto& slot = tables[bytes_per_second];
  if (auto t = slot.lock()) return t;
  auto t = std::make_shared<std::vector<sc_time>>(513);
  for (size_t n = 0; n < t->size(); ++n) (*t)[n] = transfer_time(n, bytes_per_second);
  slot = t;
  return t;
}
}  // namespace

Memory::Memory(sc_core::sc_module_name name, const MemoryDefaults& d)
    : sc_module(name),
      socket("socket"),
      stats_(this->name()),
      reads_(stats_.counter("reads", "transactions", "read transactions")),
      writes_(stats_.counter("writes", "transactions", "write transactions")),
      bytes_read_(stats_.bytes("bytes_read", "bytes read through the port by the run's end")),
      bytes_written_(
          stats_.bytes("bytes_written", "bytes written through the port by the run's end")),
      // Every read or write moves its bytes over the interval it holds the port: that
      // interval is recorded once, as the bytes' flow, and counts as the port's busy time.
      busy_(stats_.busy("port_utilisation", "fraction of time the port moves data",
                        {&bytes_read_, &bytes_written_})) {
  ParamScope p(this->name());
  size_param_ = ParamRegistry::instance().declared_name(p.name("size"));
  size_ =
      static_cast<uint64_t>(p.integer("size", static_cast<int64_t>(d.size_bytes), "B", "capacity",
                                      Range::between(4096, static_cast<double>(d.max_size_bytes))));
  latency_ = picoseconds(
      p.real("latency", d.latency_ns, "ns", "access latency (first byte)", Range::between(0, 1e6)) *
      1e3);
  bytes_per_second_ = p.real("bandwidth", d.bandwidth_gbps, "GB/s", "port bandwidth",
                             Range::between(0.001, 10000)) *
                      1e9;
  // Port time of the common short accesses, looked up rather than computed per access.
  xfer_by_length_ = transfer_table(bytes_per_second_);
  storage_ = SparseStorage(size_);
  socket.register_b_transport(this, &Memory::b_transport);
  socket.register_transport_dbg(this, &Memory::transport_dbg);
  stats_.derived("read_bandwidth_GBps", "GB/s", "average read bandwidth over the run",
                 [this] { return bytes_read_.rate(hs::now()) / 1e9; });
  stats_.derived("write_bandwidth_GBps", "GB/s", "average write bandwidth over the run",
                 [this] { return bytes_written_.rate(hs::now()) / 1e9; });
  stats_.rate_ceiling(Limit::Kind::PortBandwidth, "bytes_read + bytes_written", bytes_per_second_,
                      {&bytes_read_, &bytes_written_});
}

void Memory::require(uint64_t end, const std::string& what) const {
  if (end <= size_) return;
  throw InputError(fmt::format("parameter '{}' = {} B is too small for {}: it needs at least {} B",
                               size_param_, size_, what, end));
}

std::string Memory::beyond(const char* what, uint64_t addr, uint64_t len) const {
  return fmt::format("{} of {} B at {:#x} is beyond the memory's {} B ({})", what, len, addr, size_,
                     size_param_);
}

bool Memory::check(tlm::tlm_generic_payload& gp) const {
  uint64_t addr = gp.get_address();
  uint64_t len = gp.get_data_length();
  if (addr >= size_ || len > size_ - addr) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (gp.get_byte_enable_ptr() || gp.get_streaming_width() < len) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  return true;
}

void Memory::b_transport(int, tlm::tlm_generic_payload& gp, sc_time& delay) {
  if (!check(gp)) {
    // The initiator sees the error response; the run fails here too, naming the access, so
    // the cause is reported even by an initiator that only counts the error.
    if (gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE) {
      CheckRegistry::instance().fail(
          "memory: every access lies within the memory", name(),
          beyond(gp.is_read() ? "read" : "write", gp.get_address(), gp.get_data_length()));
    }
    return;
  }
  const uint64_t len = gp.get_data_length();
  const sc_time xfer = len < xfer_by_length_->size() ? (*xfer_by_length_)[len]
                                                     : transfer_time(len, bytes_per_second_);
  const sc_time now = hs::now();
  const sc_time start = port_.reserve(now + delay, xfer);
  if (gp.is_read()) {
    storage_.read(gp.get_address(), gp.get_data_ptr(), len);
    ++reads_;
    bytes_read_.add(start, start + xfer, len);  // also the port's busy time
  } else if (gp.is_write()) {
    if (!storage_.write(gp.get_address(), gp.get_data_ptr(), len)) {
      refuse_read_only(gp);
      return;
    }
    ++writes_;
    bytes_written_.add(start, start + xfer, len);  // also the port's busy time
  } else {
    busy_.add(start, start + xfer);
  }
  if (gp.get_address() < watched_hi_ && watched_lo_ < gp.get_address() + len) {
    access_start_ = start;
    notify_watches(gp);
  }
  delay = start + latency_ + xfer - now;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int Memory::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  if (!check(gp)) return 0;
  if (gp.is_read()) storage_.read(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
  if (gp.is_write() && !storage_.write(gp.get_address(), gp.get_data_ptr(), gp.get_data_length())) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return 0;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return gp.get_data_length();
}

void Memory::refuse_read_only(tlm::tlm_generic_payload& gp) const {
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  CheckRegistry::instance().fail(
      "memory: no write lands in read-only memory", name(),
      fmt::format("write of {} B at {:#x} touches a read-only host window (program text or "
                  "constants)",
                  gp.get_data_length(), gp.get_address()));
}

void Memory::map_host_window(uint64_t addr, void* host, uint64_t len, bool writable) {
  if (!holds(addr, len)) {
    throw ModelError(fmt::format("{}: {}", name(), beyond("host window", addr, len)));
  }
  try {
    storage_.map_host(addr, host, len, writable);
  } catch (const std::invalid_argument& e) {
    throw ModelError(fmt::format("{}: {}", name(), e.what()));
  }
}

void Memory::watch_writes(uint64_t lo, uint64_t hi, AccessWatch on_write) {
  watches_.push_back({lo, hi, false, std::move(on_write)});
  watched_lo_ = std::min(watched_lo_, lo);
  watched_hi_ = std::max(watched_hi_, hi);
}

void Memory::watch_accesses(uint64_t lo, uint64_t hi, AccessWatch on_access) {
  watches_.push_back({lo, hi, true, std::move(on_access)});
  watched_lo_ = std::min(watched_lo_, lo);
  watched_hi_ = std::max(watched_hi_, hi);
}

void Memory::notify_watches(const tlm::tlm_generic_payload& gp) const {
  const uint64_t a = gp.get_address(), n = gp.get_data_length();
  for (const auto& w : watches_) {
    if ((gp.is_write() || w.reads) && a < w.hi && w.lo < a + n) w.on_access(gp);
  }
}

void Memory::peek(uint64_t addr, void* dst, uint64_t len) const {
  if (!holds(addr, len)) throw ModelError(fmt::format("{}: {}", name(), beyond("peek", addr, len)));
  storage_.read(addr, static_cast<uint8_t*>(dst), len);
}

void Memory::poke(uint64_t addr, const void* src, uint64_t len) {
  if (!holds(addr, len)) throw ModelError(fmt::format("{}: {}", name(), beyond("poke", addr, len)));
  if (!storage_.write(addr, static_cast<const uint8_t*>(src), len)) {
    throw ModelError(fmt::format("{}: poke of {} B at {:#x} touches a read-only host window",
                                 name(), len, addr));
  }
}

}  // namespace hs
