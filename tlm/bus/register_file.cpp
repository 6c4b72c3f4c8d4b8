#include "tlm/bus/register_file.h"

#include <cstring>
#include <stdexcept>

namespace hs {

RegisterFile::RegisterFile(sc_core::sc_module_name name, const sc_core::sc_time& access_latency)
    : sc_module(name),
      socket("socket"),
      latency_(access_latency),
      stats_(this->name()),
      reads_(stats_.counter("reads", "accesses", "register reads")),
      writes_(stats_.counter("writes", "accesses", "register writes")),
      errors_(stats_.counter("errors", "accesses", "rejected register accesses")) {
  socket.register_b_transport(this, &RegisterFile::b_transport);
  socket.register_transport_dbg(this, &RegisterFile::transport_dbg);
}

void RegisterFile::define(uint64_t offset, unsigned width, const std::string& reg_name, ReadFn read,
                          WriteFn write) {
  if ((width != 4 && width != 8) || offset % width != 0 || regs_.count(offset)) {
    throw std::logic_error(std::string(name()) + ": bad register definition " + reg_name);
  }
  regs_[offset] = Reg{width, reg_name, std::move(read), std::move(write)};
}

bool RegisterFile::access(tlm::tlm_generic_payload& gp) {
  auto it = regs_.find(gp.get_address());
  if (it == regs_.end()) {
    ++errors_;
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  Reg& r = it->second;
  if (gp.get_data_length() != r.width || gp.get_byte_enable_ptr()) {
    ++errors_;
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  uint64_t v = 0;
  if (gp.is_read()) {
    if (r.read) v = r.read();
    std::memcpy(gp.get_data_ptr(), &v, r.width);  // little-endian host, little-endian model
    ++reads_;
  } else if (gp.is_write()) {
    if (!r.write) {
      ++errors_;
      gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return false;
    }
    std::memcpy(&v, gp.get_data_ptr(), r.width);
    r.write(v);
    ++writes_;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void RegisterFile::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (access(gp)) delay += latency_;
}

unsigned int RegisterFile::transport_dbg(tlm::tlm_generic_payload& gp) {
  // Debug reads have no side effects; debug writes are refused (registers have behaviour).
  auto it = regs_.find(gp.get_address());
  if (!gp.is_read() || it == regs_.end() || gp.get_data_length() != it->second.width) return 0;
  uint64_t v = it->second.read ? it->second.read() : 0;
  std::memcpy(gp.get_data_ptr(), &v, it->second.width);
  return it->second.width;
}

}  // namespace hs
