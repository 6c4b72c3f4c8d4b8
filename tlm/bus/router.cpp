#include "tlm/bus/router.h"

#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"

namespace hs {

using sc_core::sc_time;

Router::Router(sc_core::sc_module_name name, double default_latency_ns)
    : sc_module(name),
      upstream("upstream"),
      downstream("downstream"),
      stats_(this->name()),
      transactions_(stats_.counter("transactions", "transactions", "transactions routed")),
      unmapped_(stats_.counter("unmapped", "transactions", "accesses to unmapped addresses")) {
  ParamScope p(this->name());
  hop_latency_ =
      picoseconds(p.real("latency", default_latency_ns, "ns",
                         "latency of one pass through the interconnect", Range::between(0, 1e6)) *
                  1e3);
  upstream.register_b_transport(this, &Router::b_transport);
  upstream.register_transport_dbg(this, &Router::transport_dbg);
}

int Router::attach(TargetSocket& target, uint64_t base, uint64_t size,
                   const std::string& window_name, bool translate) {
  downstream.bind(target);
  decoder_.add({base, size, ports_, translate, window_name});
  return ports_++;
}

void Router::alias(int port, uint64_t base, uint64_t size, const std::string& window_name,
                   bool translate) {
  decoder_.add({base, size, port, translate, window_name});
}

void Router::before_target(const Route&, tlm::tlm_generic_payload&, sc_time& delay) {
  delay += hop_latency_;
}

void Router::after_target(const Route&, tlm::tlm_generic_payload&, sc_time&) {}

void Router::b_transport(int port, tlm::tlm_generic_payload& gp, sc_time& delay) {
  const uint64_t addr = gp.get_address();
  const AddressWindow* w = decoder_.find(addr, gp.get_data_length());
  if (!w) {
    ++unmapped_;
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  ++transactions_;
  const Route route{port, w->port};
  if (!admit(route, gp)) return;
  before_target(route, gp, delay);
  if (w->translate) gp.set_address(addr - w->base);
  downstream[w->port]->b_transport(gp, delay);
  gp.set_address(addr);
  after_target(route, gp, delay);
}

unsigned int Router::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  const AddressWindow* w = decoder_.find(addr, gp.get_data_length());
  if (!w) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  if (w->translate) gp.set_address(addr - w->base);
  unsigned int n = downstream[w->port]->transport_dbg(gp);
  gp.set_address(addr);
  return n;
}

}  // namespace hs
