#include "tlm/link/transaction_port.h"

#include <fmt/format.h>

#include <cstring>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/payload/fabric_refusal.h"
#include "tlm/trace/signal_trace.h"

namespace hs::link {

using sc_core::sc_time;

// A blocking read in progress: lives on the initiator's stack until its last completion.
struct TransactionPort::Access {
  uint32_t requests_pending = 0;
  bool error = false;
  sc_core::sc_event done;
};

struct TransactionPort::Read : ReadRequest {
  Access* access = nullptr;
  uint8_t* dst = nullptr;  // where this request's bytes go
};

TransactionPort::TransactionPort(sc_core::sc_module_name name, SplitLink& link,
                                 SplitLink::Side side)
    : sc_module(name),
      in("in"),
      out("out"),
      link_(link),
      side_(side),
      tags_(link.timing().tags),
      accepted_check_(CheckRegistry::instance().check(
          fmt::format("{}: posted writes accepted by their target", link.format().protocol()))),
      tags_check_(CheckRegistry::instance().check(fmt::format(
          "{}: reads in flight within the requester's tags", link.format().protocol()))) {
  in.register_b_transport(this, &TransactionPort::transport);
  delivery_.ext.protocol = link.format().protocol();
  delivery_.ext.link_id = link.link_id();
  delivery_.ext.coherent = link.timing().coherent;
  delivery_.gp.set_extension(new FabricRefusalExt);  // the payload frees it
  SignalTrace::instance().add(tags_.in_use(), std::string(this->name()) + ".tags_in_use");
}

void TransactionPort::fabric_never_waits() {
  link_.receiver_never_waits(side_);
}

void TransactionPort::transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  if (gp.get_byte_enable_ptr() || gp.get_streaming_width() < gp.get_data_length()) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  // The caller's local time (loosely timed: now + its annotated delay) is when its packets are
  // ready; the thread blocks only while the transmit buffer is full or a read is in flight.
  sc_time local = hs::now() + delay;
  if (gp.is_write()) {
    post_writes(gp, local);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);  // posted: no completion comes back
  } else if (gp.is_read()) {
    issue_reads(gp, local);
  } else {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  delay = local - hs::now();
}

void TransactionPort::post_writes(tlm::tlm_generic_payload& gp, sc_time& local) {
  uint64_t addr = gp.get_address();
  const uint8_t* src = gp.get_data_ptr();
  uint64_t remaining = gp.get_data_length();
  while (remaining > 0) {
    const uint32_t n = link_.format().write_chunk(addr, remaining);
    Packet p;
    p.kind = PacketKind::Write;
    p.addr = addr;
    p.len = n;
    p.data = link_.spare_buffer();  // recycle delivered packets' buffers
    p.data.assign(src, src + n);
    link_.send(side_, std::move(p), local);
    addr += n;
    src += n;
    remaining -= n;
  }
}

void TransactionPort::issue_reads(tlm::tlm_generic_payload& gp, sc_time& local) {
  Access access;
  uint64_t addr = gp.get_address();
  uint8_t* dst = gp.get_data_ptr();
  uint64_t remaining = gp.get_data_length();
  // One bookkeeping entry per request, all alive until the last completion.
  uint32_t requests = 0;
  for (uint64_t a = addr, r = remaining; r > 0;) {
    const uint32_t n = link_.format().read_chunk(a, r);
    a += n;
    r -= n;
    ++requests;
  }
  std::vector<Read> reads(requests);
  for (Read& read : reads) {
    const uint32_t n = link_.format().read_chunk(addr, remaining);
    // Hold a tag first, then wait for a transmit slot: once held, a tag cannot be lost.
    tags_.acquire();
    HS_EXPECT(tags_check_, tags_.in_use() <= link_.timing().tags, name(),
              "more reads outstanding than tags");
    ++access.requests_pending;
    read.access = &access;
    read.dst = dst;
    Packet p;
    p.kind = PacketKind::Read;
    p.addr = addr;
    p.len = n;
    p.request = &read;
    link_.send(side_, std::move(p), local);
    addr += n;
    dst += n;
    remaining -= n;
  }
  while (access.requests_pending > 0) sc_core::wait(access.done);
  local = std::max(local, hs::now());
  gp.set_response_status(access.error ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
}

sc_time TransactionPort::take(Packet& p) {
  switch (p.kind) {
    case PacketKind::Write:
      return deliver_write(p);
    case PacketKind::Read:
      return complete_read(p);
    case PacketKind::ReadData:
    case PacketKind::ReadError:
      complete(p);
      return sc_core::SC_ZERO_TIME;  // the requester takes completions at once
  }
  return sc_core::SC_ZERO_TIME;
}

sc_time TransactionPort::deliver_write(Packet& p) {
  tlm::tlm_generic_payload& gp = delivery_.gp;
  delivery_.ext.kind = PacketKind::Write;
  auto* refusal = gp.get_extension<FabricRefusalExt>();
  refusal->reported = false;
  prepare(gp, tlm::TLM_WRITE_COMMAND, p.addr, p.data.data(), p.len);
  sc_time delay = sc_core::SC_ZERO_TIME;
  out->b_transport(gp, delay);
  // Posted: the requester never hears of a rejection. The model reports it as a fault, unless
  // the fabric that refused it already has.
  HS_EXPECT(accepted_check_, gp.is_response_ok() || refusal->reported, name(),
            fmt::format("{} write of {} B to {:#x} was not accepted ({}): unsupported request",
                        link_.format().kind_name(PacketKind::Write), p.len, p.addr,
                        gp.get_response_string()));
  return delay;  // taken when the fabric's delay ends
}

sc_time TransactionPort::complete_read(Packet& p) {
  // The completer reads when the request arrives, so every earlier posted write on this wire
  // is already visible: a read never passes a write.
  tlm::tlm_generic_payload& gp = delivery_.gp;
  delivery_.ext.kind = PacketKind::Read;
  read_buffer_.resize(p.len);
  prepare(gp, tlm::TLM_READ_COMMAND, p.addr, read_buffer_.data(), p.len);
  sc_time delay = sc_core::SC_ZERO_TIME;
  out->b_transport(gp, delay);
  const sc_time ready = hs::now() + delay;
  if (!gp.is_response_ok()) {
    Packet cpl;  // a completion without data: unsupported request
    cpl.kind = PacketKind::ReadError;
    cpl.addr = p.addr;
    cpl.request = p.request;
    cpl.last = true;
    link_.post(side_, std::move(cpl), ready);
    return delay;
  }
  link_.format().completion_sizes(p.addr, p.len, completion_sizes_);
  uint32_t offset = 0;
  for (size_t i = 0; i < completion_sizes_.size(); ++i) {
    const uint32_t n = completion_sizes_[i];
    Packet cpl;
    cpl.kind = PacketKind::ReadData;
    cpl.addr = p.addr + offset;
    cpl.len = n;
    cpl.data = link_.spare_buffer();
    cpl.data.assign(read_buffer_.begin() + offset, read_buffer_.begin() + offset + n);
    cpl.request = p.request;
    cpl.offset = offset;
    cpl.last = i + 1 == completion_sizes_.size();
    link_.post(side_, std::move(cpl), ready);
    offset += n;
  }
  return delay;  // the request is taken once its data is read
}

void TransactionPort::complete(Packet& p) {
  auto* read = static_cast<Read*>(p.request);
  if (p.kind == PacketKind::ReadError) {
    read->access->error = true;
  } else {
    std::memcpy(read->dst + p.offset, p.data.data(), p.len);
  }
  if (!p.last) return;
  tags_.release();
  if (--read->access->requests_pending == 0) read->access->done.notify();
}

}  // namespace hs::link
