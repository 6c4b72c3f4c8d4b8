#include "testbench/support/scripted_initiator.h"

namespace hs::testing {

ScriptedInitiator::ScriptedInitiator(sc_core::sc_module_name name, Script script)
    : sc_module(name), socket("socket"), script_(std::move(script)) {
  sc_core::sc_spawn([this] { script_(*this); }, "script");
}

tlm::tlm_response_status ScriptedInitiator::access(tlm::tlm_command cmd, uint64_t addr, void* data,
                                                   uint64_t len) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(static_cast<unsigned int>(len));
  gp.set_streaming_width(static_cast<unsigned int>(len));
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(gp, delay);
  if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  return gp.get_response_status();
}

tlm::tlm_response_status ScriptedInitiator::write(uint64_t addr, const void* data, uint64_t len) {
  return access(tlm::TLM_WRITE_COMMAND, addr, const_cast<void*>(data), len);
}

tlm::tlm_response_status ScriptedInitiator::read(uint64_t addr, void* data, uint64_t len) {
  return access(tlm::TLM_READ_COMMAND, addr, data, len);
}

RecordingMemory::RecordingMemory(sc_core::sc_module_name name, sc_core::sc_time latency)
    : sc_module(name), socket("socket"), latency_(latency) {
  socket.register_b_transport(this, &RecordingMemory::b_transport);
}

void RecordingMemory::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (gp.is_write()) {
    storage.write(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
    writes.push_back({sc_core::sc_time_stamp() + delay, gp.get_address(), gp.get_data_length()});
  } else {
    storage.read(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
    ++reads;
  }
  delay += latency_;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace hs::testing
