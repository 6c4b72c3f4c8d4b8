#include "hw/cell/io_interface.h"

#include <algorithm>

#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::cell {

using sc_core::sc_time;

struct IoInterface::Wire {
  Wire(StatGroup& stats, const std::string& dir, const std::string& path, double bps)
      : bytes_per_second(bps),
        bytes(stats.bytes(dir + "_bytes", "bytes that crossed the interface " + dir)),
        busy(stats.busy(dir + "_utilisation", "fraction of time the " + dir + " wire carries data",
                        {&bytes})),
        track(TransactionTrace::instance().track(path + "." + dir)) {
    stats.rate_ceiling(Limit::Kind::LineRate, dir + "_bytes", bps, {&bytes});
    SignalTrace::instance().add(moved, path + "." + dir + "_bytes");
  }
  // Data of `n` bytes ready at `ready` crosses; returns when its last byte has.
  sc_time carry(uint64_t n, const sc_time& ready) {
    const sc_time d = transfer_time(n, bytes_per_second);
    const sc_time start = line.reserve(ready, d);
    bytes.add(start, start + d, n);
    moved += n;
    if (track >= 0) TransactionTrace::instance().span(track, "data", start, start + d);
    return start + d;
  }
  double bytes_per_second;
  SerialResource line;
  ByteFlow& bytes;
  BusyTime& busy;
  int track;
  uint64_t moved = 0;  // traced signal
};

IoInterface::IoInterface(sc_core::sc_module_name name)
    : sc_module(name),
      from_device("from_device"),
      to_eib("to_eib"),
      from_eib("from_eib"),
      to_device("to_device"),
      stats_(this->name()) {
  ParamScope p(this->name());
  // A narrow interface to the blade's I/O bridge: one FlexIO byte lane each way at 5 GT/s.
  in_bps_ = p.real("inbound_bandwidth", 5.0, "GB/s",
                   "bandwidth of the interface towards the EIB (the device's writes, the data "
                   "of the Cell's reads)",
                   Range::between(0.01, 100)) *
            1e9;
  out_bps_ = p.real("outbound_bandwidth", 5.0, "GB/s",
                    "bandwidth of the interface from the EIB (the Cell's writes, the data of "
                    "the device's reads)",
                    Range::between(0.01, 100)) *
             1e9;
  latency_ = picoseconds(
      p.real("latency", 10, "ns", "one crossing of the interface", Range::between(0, 1e6)) * 1e3);
  in_ = std::make_unique<Wire>(stats_, "inbound", this->name(), in_bps_);
  out_ = std::make_unique<Wire>(stats_, "outbound", this->name(), out_bps_);
  from_device.register_b_transport(this, &IoInterface::inbound);
  from_eib.register_b_transport(this, &IoInterface::outbound);
}

IoInterface::~IoInterface() = default;

void IoInterface::inbound(tlm::tlm_generic_payload& gp, sc_time& delay) {
  cross(to_eib, *in_, *out_, gp, delay);
}

void IoInterface::outbound(int, tlm::tlm_generic_payload& gp, sc_time& delay) {
  cross(to_device, *out_, *in_, gp, delay);
}

void IoInterface::cross(tlm_utils::simple_initiator_socket<IoInterface>& out, Wire& write_wire,
                        Wire& read_wire, tlm::tlm_generic_payload& gp, sc_time& delay) {
  const uint64_t n = gp.get_data_length();
  if (gp.is_write()) {
    delay = write_wire.carry(n, hs::now() + delay) + latency_ - hs::now();
    out->b_transport(gp, delay);
    return;
  }
  delay += latency_;
  out->b_transport(gp, delay);
  if (!gp.is_response_ok()) return;
  delay = read_wire.carry(n, hs::now() + delay) + latency_ - hs::now();
}

}  // namespace hs::cell
