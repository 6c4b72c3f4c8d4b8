#include "tlm/bus/crossbar.h"

#include <fmt/format.h>

#include <algorithm>

#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/payload/fabric_refusal.h"
#include "tlm/timing/clock.h"

namespace hs {

using sc_core::sc_time;

// One port of the crossbar: the data it takes in and the data it puts out, each a wire of the
// port's width.
struct Crossbar::Port {
  Port(StatGroup& stats, const std::string& port_name, bool io_port)
      : name(port_name),
        io(io_port),
        in_bytes(stats.bytes(port_name + "_in_bytes", "bytes the port took into the crossbar")),
        out_bytes(
            stats.bytes(port_name + "_out_bytes", "bytes the port delivered out of the crossbar")),
        in_busy(stats.busy(port_name + "_in_utilisation", "fraction of time the port takes data in",
                           {&in_bytes})),
        out_busy(stats.busy(port_name + "_out_utilisation",
                            "fraction of time the port puts data out", {&out_bytes})) {}
  std::string name;
  bool io;
  SerialResource in, out;
  ByteFlow& in_bytes;
  ByteFlow& out_bytes;
  BusyTime& in_busy;
  BusyTime& out_busy;
};

Crossbar::Crossbar(sc_core::sc_module_name name, const CrossbarDefaults& d)
    : Router(name, d.latency_ns),
      peer_to_peer_check_(
          CheckRegistry::instance().check("root complex: no peer-to-peer request between I/O "
                                          "links")) {
  ParamScope p(this->name());
  const double clock =
      p.real("clock", d.clock_hz, "Hz", "crossbar clock", Range::between(1e6, 1e11));
  const auto width = p.integer("width", d.width, "B", "bytes a port moves per cycle, each way",
                               Range::between(1, 256));
  bytes_per_second_ = clock * static_cast<double>(width);
  cycle_ = picoseconds(1e12 / clock);
  forward_peer_to_peer_ =
      p.choice("peer_to_peer", "refuse",
               "an access from one I/O link to another: refuse it (unsupported request, as the "
               "modelled root complexes do) or forward it",
               {"refuse", "forward"}) == "forward";
}

Crossbar::~Crossbar() = default;

void Crossbar::add_port(std::vector<std::unique_ptr<Port>>& ports, const std::string& name,
                        bool io) {
  ports.push_back(std::make_unique<Port>(stats_, name, io));
  Port& port = *ports.back();
  stats_.rate_ceiling(Limit::Kind::PortBandwidth, name + "_in_bytes", bytes_per_second_,
                      {&port.in_bytes});
  stats_.rate_ceiling(Limit::Kind::PortBandwidth, name + "_out_bytes", bytes_per_second_,
                      {&port.out_bytes});
}

int Crossbar::attach(TargetSocket& target, uint64_t base, uint64_t size,
                     const std::string& window_name, bool io, bool translate) {
  const int port = Router::attach(target, base, size, window_name, translate);
  add_port(targets_, window_name, io);
  if (io) io_windows_.push_back({base, size, port, translate, window_name});
  return port;
}

void Crossbar::alias(int port, uint64_t base, uint64_t size, const std::string& window_name,
                     bool io, bool translate) {
  Router::alias(port, base, size, window_name, translate);
  if (io) io_windows_.push_back({base, size, port, translate, window_name});
}

bool Crossbar::admit(const Route& route, tlm::tlm_generic_payload& gp) {
  if (!masters_[static_cast<size_t>(route.from)]->io) return true;
  const uint64_t addr = gp.get_address();
  const bool to_io = std::any_of(io_windows_.begin(), io_windows_.end(), [&](const auto& w) {
    return w.contains(addr, gp.get_data_length());
  });
  const bool refused = to_io && !forward_peer_to_peer_;
  HS_EXPECT(peer_to_peer_check_, !refused, name(),
            fmt::format("{} of {} B to {:#x} from {}: unsupported request (the root complex "
                        "does not forward peer-to-peer requests from one I/O link to another)",
                        gp.is_write() ? "write" : "read", gp.get_data_length(), addr,
                        masters_[static_cast<size_t>(route.from)]->name));
  if (!refused) return true;
  if (auto* r = gp.get_extension<FabricRefusalExt>()) r->reported = true;
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  return false;
}

sc_time Crossbar::move(Port& from, Port& to, uint64_t bytes, const sc_time& earliest) {
  const sc_time duration = transfer_time(bytes, bytes_per_second_);
  const sc_time start = std::max({earliest, from.in.free_at(), to.out.free_at()});
  from.in.reserve(start, duration);
  to.out.reserve(start, duration);
  from.in_bytes.add(start, start + duration, bytes);
  to.out_bytes.add(start, start + duration, bytes);
  return start;
}

void Crossbar::before_target(const Route& route, tlm::tlm_generic_payload& gp, sc_time& delay) {
  Router::before_target(route, gp, delay);  // the pass latency
  if (!gp.is_write()) return;
  const sc_time start =
      move(*masters_[static_cast<size_t>(route.from)], *targets_[static_cast<size_t>(route.to)],
           gp.get_data_length(), hs::now() + delay);
  delay = start + cycle_ - hs::now();  // the head reaches the target
}

void Crossbar::after_target(const Route& route, tlm::tlm_generic_payload& gp, sc_time& delay) {
  if (!gp.is_read() || !gp.is_response_ok()) return;
  const sc_time ready = hs::now() + delay;  // the target has answered in full
  const uint64_t n = gp.get_data_length();
  const sc_time duration = transfer_time(n, bytes_per_second_);
  // The data crossed as the target produced it: its transfer ends with the answer, unless a
  // busy port held it back.
  const sc_time start =
      move(*targets_[static_cast<size_t>(route.to)], *masters_[static_cast<size_t>(route.from)], n,
           ready > duration ? ready - duration : sc_core::SC_ZERO_TIME);
  delay = std::max(ready, start + duration) + cycle_ - hs::now();
}

}  // namespace hs
