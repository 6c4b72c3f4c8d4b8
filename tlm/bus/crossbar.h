// A crossbar switch (an Opteron socket's northbridge, an I/O bridge's internal switch): masters
// and targets each on a port that moves `width` bytes per cycle at `clock` each way, so
// accesses through different ports overlap and accesses through one port queue. An access
// passes in `latency`; its data holds its master's port and its target's port for the time it
// takes at the port's rate (a write's data enters from the master and leaves to the target, a
// read's enters from the target and leaves to the master). Data goes through cut-through, as
// the target produces or takes it: a write's head reaches the target a cycle after its
// transfer starts, and a read's transfer runs alongside the target's answer, ending no earlier
// than it (and a cycle later). A busy port delays the transfer, and so the access.
//
// The root complex's rule on peer-to-peer traffic: windows and masters may be marked as I/O (a
// link to a device, in either direction). An access that enters from an I/O master and is
// addressed to an I/O window goes from one device to another through the host; the policy
// `peer_to_peer` says what happens to it: `refuse` (unsupported request: the access fails, and
// the check "root complex: no peer-to-peer request between I/O links" fails, since a posted
// write's requester never hears of it) or `forward`.
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "tlm/bus/router.h"
#include "tlm/check/checker.h"
#include "tlm/timing/serial_resource.h"

namespace hs {

struct CrossbarDefaults {
  double clock_hz = 1.8e9;
  uint32_t width = 8;  // bytes per cycle, each way, per port
  double latency_ns = 20;
};

class Crossbar : public Router {
 public:
  Crossbar(sc_core::sc_module_name name, const CrossbarDefaults& defaults);
  ~Crossbar() override;

  // Binds a master's socket to a new port named `port_name`; `io`: it is a link's inbound side.
  template <class Socket>
  void connect(Socket& master, const std::string& port_name, bool io = false) {
    master.bind(upstream);
    add_port(masters_, port_name, io);
  }
  // Maps [base, base + size) to `target` on a new port; `io`: a link towards a device. Returns
  // the port, for alias().
  int attach(TargetSocket& target, uint64_t base, uint64_t size, const std::string& window_name,
             bool io = false, bool translate = true);
  // Maps another window to the target on `port` (a link that reaches several devices).
  void alias(int port, uint64_t base, uint64_t size, const std::string& window_name,
             bool io = false, bool translate = true);

  double port_bytes_per_second() const { return bytes_per_second_; }

 protected:
  bool admit(const Route& route, tlm::tlm_generic_payload& gp) override;
  void before_target(const Route& route, tlm::tlm_generic_payload& gp,
                     sc_core::sc_time& delay) override;
  void after_target(const Route& route, tlm::tlm_generic_payload& gp,
                    sc_core::sc_time& delay) override;

 private:
  struct Port;
  void add_port(std::vector<std::unique_ptr<Port>>& ports, const std::string& name, bool io);
  // Moves `bytes` from port `from` into port `to`, starting no earlier than `earliest` nor
  // before both ports are free; returns the transfer's start.
  sc_core::sc_time move(Port& from, Port& to, uint64_t bytes, const sc_core::sc_time& earliest);

  double bytes_per_second_;
  sc_core::sc_time cycle_;
  bool forward_peer_to_peer_;
  Check& peer_to_peer_check_;
  std::vector<std::unique_ptr<Port>> masters_, targets_;
  std::vector<AddressWindow> io_windows_;  // the windows marked I/O
};

}  // namespace hs
