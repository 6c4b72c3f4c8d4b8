// The Cell's I/O interface element (IOIF0) as the device beyond it (the blade's I/O bridge)
// uses it: accesses from the device enter the Cell here, as a master on the EIB at IOIF0, and
// the Cell's accesses to the device's windows leave here. The EIB's own ramp at IOIF0 limits
// what crosses it to 25.6 GB/s each way (hw/cell/eib.h); the interface's own wires, narrower,
// limit it further.
//
// Rules:
// - Two wires, inbound (towards the EIB) and outbound, each of `inbound_bandwidth` /
//   `outbound_bandwidth`, and `latency` per crossing. An access's data occupies the wire it
//   flows on: a write from the device and the data of a read the Cell makes inbound; a write
//   from the Cell and the data of a read the device makes outbound. Requests and commands
//   themselves take no wire time.
// - A write's data crosses before the target sees it; a read crosses to its target, which
//   answers, and its data crosses back once the target's delay has passed. Data waits for its
//   wire (accesses queue on it), so the interface's bandwidth is shared by everything crossing
//   in one direction.
#pragma once
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <memory>
#include <systemc>
#include <tlm>

#include "tlm/stats/statistics.h"
#include "tlm/timing/serial_resource.h"

namespace hs::cell {

class IoInterface : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<IoInterface> from_device;          // the device's accesses
  tlm_utils::simple_initiator_socket<IoInterface> to_eib;            // ... onto the EIB at IOIF0
  tlm_utils::multi_passthrough_target_socket<IoInterface> from_eib;  // the Cell's, per window
  tlm_utils::simple_initiator_socket<IoInterface> to_device;         // ... out to the device

  explicit IoInterface(sc_core::sc_module_name name);
  ~IoInterface() override;

  double inbound_bytes_per_second() const { return in_bps_; }
  double outbound_bytes_per_second() const { return out_bps_; }

 private:
  struct Wire;
  void inbound(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void outbound(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // Passes `gp` through `out`: a write's data on `write_wire` first, a read's data on
  // `read_wire` after the target answered.
  void cross(tlm_utils::simple_initiator_socket<IoInterface>& out, Wire& write_wire,
             Wire& read_wire, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  double in_bps_, out_bps_;
  sc_core::sc_time latency_;
  StatGroup stats_;
  std::unique_ptr<Wire> in_, out_;
};

}  // namespace hs::cell
