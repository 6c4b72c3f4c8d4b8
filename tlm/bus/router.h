// Address-decoding interconnect. Initiators bind to `targets_in`; targets are attached with
// attach(), each behind an address window. A hop costs a fixed latency; subclasses model
// richer fabrics (ring buses) by overriding the timing hooks.
#pragma once
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <string>
#include <systemc>
#include <tlm>

#include "tlm/bus/address_map.h"
#include "tlm/stats/statistics.h"

namespace hs {

// Any TLM-2.0 target socket of the base protocol (simple, multi-passthrough, ...).
using TargetSocket =
    tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;

class Router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Router> upstream;       // initiators bind here
  tlm_utils::multi_passthrough_initiator_socket<Router> downstream;  // targets attached here

  Router(sc_core::sc_module_name name, double default_latency_ns);

  // Binds `target` to a new downstream port and maps [base, base+size) to it; returns the port.
  int attach(TargetSocket& target, uint64_t base, uint64_t size, const std::string& window_name,
             bool translate = true);
  // Maps another window [base, base+size) to the target already on `port`.
  void alias(int port, uint64_t base, uint64_t size, const std::string& window_name,
             bool translate = true);
  const AddressDecoder& decoder() const { return decoder_; }

 protected:
  // Which way an access goes: the upstream port it came in by (masters are numbered in the
  // order they bound `upstream`) and the downstream port it leaves by (targets in the order
  // they were attached).
  struct Route {
    int from;
    int to;
  };
  // Whether the access goes on to its target; a refusal sets the response itself.
  virtual bool admit(const Route& route, tlm::tlm_generic_payload& gp) { return true; }
  // Timing hooks around the forwarded access; `delay` is the initiator's annotated delay.
  virtual void before_target(const Route& route, tlm::tlm_generic_payload& gp,
                             sc_core::sc_time& delay);
  virtual void after_target(const Route& route, tlm::tlm_generic_payload& gp,
                            sc_core::sc_time& delay);

  StatGroup stats_;

 private:
  void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned int transport_dbg(int port, tlm::tlm_generic_payload& gp);

  AddressDecoder decoder_;
  int ports_ = 0;
  sc_core::sc_time hop_latency_;
  Counter& transactions_;
  Counter& unmapped_;
};

}  // namespace hs
