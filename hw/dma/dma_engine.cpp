#include "hw/dma/dma_engine.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::dma {

using sc_core::sc_time;

DmaEngine::DmaEngine(sc_core::sc_module_name name, int initiator_id)
    : sc_module(name),
      bus("bus"),
      regs_("regs", sc_time(2, sc_core::SC_NS)),
      stats_(this->name()),
      requests_done_(stats_.counter("requests", "requests", "requests completed")),
      descriptors_(stats_.counter("descriptors", "descriptors", "descriptors executed")),
      bytes_copied_(stats_.counter("bytes_copied", "B", "bytes moved by copy descriptors")),
      writes_(stats_.counter("writes", "descriptors", "value writes (completion writes)")),
      busy_(stats_.busy("utilisation", "fraction of time executing requests")),
      queue_(stats_.occupancy("queue_depth", "requests", "submitted, not yet finished")),
      request_latency_(stats_.histogram("request_latency", "ns", "submission to completion")),
      track_(TransactionTrace::instance().track(this->name())) {
  ParamScope p(this->name());
  clock_ = Clock(p.real("clock", 1e9, "Hz", "engine clock", Range::between(1e6, 1e10)));
  descriptor_cycles_ = static_cast<uint64_t>(p.integer(
      "descriptor_cycles", 4, "cycles", "cycles to decode a descriptor", Range::between(0, 1000)));
  chunk_ = static_cast<uint32_t>(
      p.integer("chunk", 4096, "B", "bytes read then written per step of a copy",
                Range::one_of({128, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536})));
  queue_depth_ = static_cast<uint32_t>(
      p.integer("queue", 64, "requests", "request slots", Range::between(1, 4096)));
  faults_ = std::make_unique<DescriptorFaults>(DescriptorFaults::declare(p), stats_);
  // 10 ms: a 64 KiB chunk across the slowest PCIe link takes about 0.3 ms.
  liveness_ = std::make_unique<LivenessCheck>(
      p, this->name(), [this] { return outstanding(); }, 1e7);
  buffer_.resize(chunk_);
  txn_.ext.initiator_id = initiator_id;
  regs_.define(kSubmit, 8, "SUBMIT", nullptr, [this](uint64_t v) { submit(v); });
  regs_.define(
      kSpace, 4, "SPACE", [this] { return queue_depth_ - requests_.size(); }, nullptr);
  regs_.define(
      kCompleted, 4, "COMPLETED", [this] { return completed_ | (halt_.halted ? kHalted : 0); },
      nullptr);
  regs_.define(
      kIrqAddress, 8, "IRQ_ADDRESS", [this] { return irq_address_; },
      [this](uint64_t v) { irq_address_ = v; });
  regs_.define(
      kError, 4, "ERROR", [this] { return error_; }, nullptr);
  regs_.define(
      kErrorRequest, 8, "ERROR_REQUEST", [this] { return halt_.halted ? current_request_ : 0; },
      nullptr);
  regs_.define(
      kErrorDescriptor, 8, "ERROR_DESCRIPTOR", [this] { return halt_.descriptor; }, nullptr);
  regs_.define(
      kErrorAddress, 8, "ERROR_ADDRESS", [this] { return halt_.address; }, nullptr);
  SC_THREAD(run);
  SignalTrace::instance().add(completed_, std::string(this->name()) + ".completed");
}

void DmaEngine::reject(Error code, const std::string& why) {
  error_ = code;
  const char* check = code == kQueueOverflow ? "descriptor DMA: requests fit in the queue"
                                             : "descriptor DMA: descriptors are well formed";
  CheckRegistry::instance().fail(check, name(), why);
}

void DmaEngine::halt_on_bus_error(uint64_t addr, const std::string& why) {
  error_ = kBusError;
  halt_.halt(current_descriptor_, addr, why, track_);
}

std::string DmaEngine::outstanding() const {
  std::string s = fmt::format("{} request(s) outstanding", requests_.size());
  if (!requests_.empty()) s += fmt::format(", the first at {:#x}", requests_.front().first);
  if (current_descriptor_ != 0) s += fmt::format(", descriptor at {:#x}", current_descriptor_);
  return s + halt_.describe();
}

void DmaEngine::inject_faults(Descriptor& d) {
  if (faults_->corrupt(track_)) (d.op == kCopy ? d.src : d.dst) = kPoisonAddress;
  if (faults_->stall(track_)) {
    for (;;) sc_core::wait(never_);
  }
}

void DmaEngine::submit(uint64_t request) {
  if (requests_.size() >= queue_depth_) {
    reject(kQueueOverflow, fmt::format("request at {:#x} submitted to a full queue ({} requests): "
                                       "firmware must wait for SPACE",
                                       request, queue_depth_));
    return;
  }
  requests_.emplace_back(request, hs::now());
  liveness_->busy();
  queue_.set(static_cast<int64_t>(requests_.size()), hs::now());
  submitted_.notify(sc_core::SC_ZERO_TIME);
}

bool DmaEngine::access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t len,
                       sc_time& delay) {
  prepare(txn_.gp, cmd, addr, data, len);
  bus->b_transport(txn_.gp, delay);
  if (txn_.gp.is_response_ok()) return true;
  halt_on_bus_error(addr, fmt::format("{} of {} B at {:#x} failed: {}",
                                      cmd == tlm::TLM_READ_COMMAND ? "read" : "write", len, addr,
                                      txn_.gp.get_response_string()));
  return false;
}

bool DmaEngine::execute(const Descriptor& d, uint64_t at, sc_time& delay) {
  switch (d.op) {
    case kCopy:
      if (d.length == 0) {
        reject(kBadDescriptor, fmt::format("copy descriptor at {:#x} has length 0", at));
        return false;
      }
      for (uint32_t off = 0; off < d.length; off += chunk_) {
        const uint32_t n = std::min(chunk_, d.length - off);
        if (!access(tlm::TLM_READ_COMMAND, d.src + off, buffer_.data(), n, delay)) return false;
        if (!access(tlm::TLM_WRITE_COMMAND, d.dst + off, buffer_.data(), n, delay)) return false;
        // The buffer is reused: synchronise before refilling it.
        if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
        delay = sc_core::SC_ZERO_TIME;
        liveness_->progress();
      }
      bytes_copied_ += d.length;
      return true;
    case kWrite: {
      uint8_t v[8];
      std::memcpy(v, &d.value, 8);
      ++writes_;
      return access(tlm::TLM_WRITE_COMMAND, d.dst, v, 8, delay);
    }
    default:
      reject(kBadDescriptor,
             fmt::format("descriptor at {:#x} has unknown op {} (copy is {}, "
                         "write is {})",
                         at, d.op, static_cast<int>(kCopy), static_cast<int>(kWrite)));
      return false;
  }
}

void DmaEngine::run() {
  for (;;) {
    while (requests_.empty()) sc_core::wait(submitted_);
    const auto [request, submitted_at] = requests_.front();
    const sc_time start = hs::now();
    sc_time delay = sc_core::SC_ZERO_TIME;
    bool ok = true;
    // A request ends at the first descriptor flagged kLast; cap the walk so a list without one
    // is reported rather than run into unrelated memory.
    constexpr int kMaxDescriptors = 4096;
    bool last = false;
    for (int i = 0; ok && !last && i < kMaxDescriptors; ++i) {
      const uint64_t at = request + static_cast<uint64_t>(i) * sizeof(Descriptor);
      current_request_ = request;
      current_descriptor_ = at;
      Descriptor d;
      ok = access(tlm::TLM_READ_COMMAND, at, reinterpret_cast<uint8_t*>(&d), sizeof d, delay);
      if (!ok) break;
      inject_faults(d);
      delay += clock_.cycles(descriptor_cycles_);
      ++descriptors_;
      ok = execute(d, at, delay);
      if (ok && (d.flags & kIrq)) {
        uint8_t line[4];
        const uint32_t l = d.irq_line;
        std::memcpy(line, &l, 4);
        ok = access(tlm::TLM_WRITE_COMMAND, irq_address_, line, 4, delay);
      }
      last = (d.flags & kLast) != 0;
    }
    if (ok && !last) {
      reject(kBadDescriptor, fmt::format("request at {:#x}: no descriptor flagged last within "
                                         "{} descriptors",
                                         request, kMaxDescriptors));
    }
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    if (!ok || !last) return;  // halted, or the run is failing: the engine stops
    liveness_->progress();
    requests_.pop_front();
    current_descriptor_ = 0;
    if (requests_.empty()) liveness_->idle();
    ++completed_;
    ++requests_done_;
    busy_.add(start, hs::now());
    queue_.set(static_cast<int64_t>(requests_.size()), hs::now());
    request_latency_.sample((hs::now() - submitted_at).to_seconds() * 1e9);
    if (track_ >= 0) {
      const nlohmann::json args = {{"request", request},
                                   {"queued_ns", (start - submitted_at).to_seconds() * 1e9}};
      TransactionTrace::instance().span(track_, "request", start, hs::now(), &args);
    }
  }
}

}  // namespace hs::dma
