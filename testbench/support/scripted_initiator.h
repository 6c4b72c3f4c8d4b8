// Test and benchmark helpers: an initiator whose thread runs a script of bus accesses, and a
// target memory that records when each write arrived.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "tlm/memory/sparse_storage.h"

namespace hs::testing {

class ScriptedInitiator : public sc_core::sc_module {
 public:
  using Script = std::function<void(ScriptedInitiator&)>;
  tlm_utils::simple_initiator_socket<ScriptedInitiator> socket;

  ScriptedInitiator(sc_core::sc_module_name name, Script script);

  // Blocking accesses; both wait out the annotated delay. Return the TLM response status.
  tlm::tlm_response_status write(uint64_t addr, const void* data, uint64_t len);
  tlm::tlm_response_status read(uint64_t addr, void* data, uint64_t len);

 private:
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, void* data, uint64_t len);
  Script script_;
};

// A target with fixed access latency and unlimited bandwidth that timestamps every write.
class RecordingMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RecordingMemory> socket;
  struct Arrival {
    sc_core::sc_time at;
    uint64_t addr;
    uint64_t len;
  };

  RecordingMemory(sc_core::sc_module_name name, sc_core::sc_time latency);
  std::vector<Arrival> writes;
  SparseStorage storage;
  uint64_t reads = 0;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  sc_core::sc_time latency_;
};

}  // namespace hs::testing
