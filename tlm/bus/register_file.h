// Memory-mapped device registers. A device defines each register (offset, width, name, read
// and write behaviour); accesses must hit a register exactly with its width, otherwise the
// transaction fails with an address or generic error that the initiator reports.
#pragma once
#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <systemc>
#include <tlm>

#include "tlm/stats/statistics.h"

namespace hs {

class RegisterFile : public sc_core::sc_module {
 public:
  using ReadFn = std::function<uint64_t()>;
  using WriteFn = std::function<void(uint64_t)>;

  tlm_utils::simple_target_socket<RegisterFile> socket;

  RegisterFile(sc_core::sc_module_name name, const sc_core::sc_time& access_latency);

  // A register; a null `read` reads as zero, a null `write` rejects writes (read-only).
  void define(uint64_t offset, unsigned width, const std::string& reg_name, ReadFn read,
              WriteFn write);

 private:
  struct Reg {
    unsigned width;
    std::string name;
    ReadFn read;
    WriteFn write;
  };
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  bool access(tlm::tlm_generic_payload& gp);

  std::map<uint64_t, Reg> regs_;
  sc_core::sc_time latency_;
  StatGroup stats_;
  Counter& reads_;
  Counter& writes_;
  Counter& errors_;
};

}  // namespace hs
