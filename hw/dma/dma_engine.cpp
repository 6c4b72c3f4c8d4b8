#include "hw/dma/dma_engine.h"

#include <fmt/format.h>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>
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
  const auto buffers = p.integer("buffers", 2, "chunks",
                                 "chunk buffers: a copy reads the next chunk into a free one while "
                                 "the ones before it are written",
                                 Range::between(1, 64));
  faults_ = std::make_unique<DescriptorFaults>(DescriptorFaults::declare(p), stats_);
  // 10 ms: a 64 KiB chunk across the slowest PCIe link takes about 0.3 ms.
  liveness_ = std::make_unique<LivenessCheck>(
      p, this->name(), [this] { return outstanding(); }, 1e7);
  for (int b = 0; b < buffers; ++b) {
    buffers_.emplace_back(chunk_);
    free_buffers_.push_back(b);
    fetching_.push_back(nullptr);
    fetch_.push_back(std::make_unique<sc_core::sc_event>());
    fetch_txn_.push_back(std::make_unique<TaggedPayload<InitiatorExt>>());
    fetch_txn_.back()->ext.initiator_id = initiator_id;
    sc_core::sc_spawn([this, b] { fetch_unit(b); }, sc_core::sc_gen_unique_name("fetch"));
  }
  txn_.ext.initiator_id = initiator_id;
  write_txn_.ext.initiator_id = initiator_id;
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
  SC_THREAD(write_side);
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

bool DmaEngine::access(TaggedPayload<InitiatorExt>& txn, tlm::tlm_command cmd, uint64_t addr,
                       uint8_t* data, uint32_t len, sc_time& delay, uint64_t request,
                       uint64_t descriptor) {
  prepare(txn.gp, cmd, addr, data, len);
  bus->b_transport(txn.gp, delay);
  if (txn.gp.is_response_ok()) return true;
  current_request_ = request;  // what the error registers name
  current_descriptor_ = descriptor;
  halt_on_bus_error(addr, fmt::format("{} of {} B at {:#x} failed: {}",
                                      cmd == tlm::TLM_READ_COMMAND ? "read" : "write", len, addr,
                                      txn.gp.get_response_string()));
  return false;
}

void DmaEngine::hand_over(WriteItem item) {
  write_queue_.push_back(item);
  write_queued_.notify(sc_core::SC_ZERO_TIME);
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
        // A free buffer: the write side frees one as each of its writes completes.
        while (free_buffers_.empty() && !halt_.halted) sc_core::wait(buffer_freed_);
        if (halt_.halted) return false;
        const int b = free_buffers_.front();
        free_buffers_.pop_front();
        // Queued for writing now, in order; its fetch unit reads it.
        if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
        delay = sc_core::SC_ZERO_TIME;
        hand_over(
            {WriteItem::Chunk, current_request_, at, d.dst + off, n, b, 0, {}, false, d.src + off});
        fetching_[static_cast<size_t>(b)] = &write_queue_.back();
        fetch_[static_cast<size_t>(b)]->notify(sc_core::SC_ZERO_TIME);
      }
      bytes_copied_ += d.length;
      return true;
    case kWrite:
      ++writes_;
      // Handed over once the descriptor's own time (its fetch and decoding) has passed.
      if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
      delay = sc_core::SC_ZERO_TIME;
      hand_over({WriteItem::Value, current_request_, at, d.dst, 8, -1, d.value, {}});
      return true;
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
    while (started_ == requests_.size()) sc_core::wait(submitted_);
    const uint64_t request = requests_[started_].first;
    ++started_;
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
      ok = access(txn_, tlm::TLM_READ_COMMAND, at, reinterpret_cast<uint8_t*>(&d), sizeof d, delay,
                  request, at);
      if (!ok) break;
      inject_faults(d);
      delay += clock_.cycles(descriptor_cycles_);
      ++descriptors_;
      ok = execute(d, at, delay);
      if (ok && (d.flags & kIrq)) {
        if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
        delay = sc_core::SC_ZERO_TIME;
        hand_over({WriteItem::Value, current_request_, at, irq_address_, 4, -1, d.irq_line, {}});
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
    hand_over({WriteItem::Done, request, current_descriptor_, 0, 0, -1, 0, start});
  }
}

void DmaEngine::fetch_unit(int buffer) {
  TaggedPayload<InitiatorExt>& txn = *fetch_txn_[static_cast<size_t>(buffer)];
  for (;;) {
    while (!fetching_[static_cast<size_t>(buffer)])
      sc_core::wait(*fetch_[static_cast<size_t>(buffer)]);
    WriteItem& item = *fetching_[static_cast<size_t>(buffer)];
    fetching_[static_cast<size_t>(buffer)] = nullptr;
    if (halt_.halted) continue;
    sc_time delay = sc_core::SC_ZERO_TIME;
    if (!access(txn, tlm::TLM_READ_COMMAND, item.src, buffers_[static_cast<size_t>(buffer)].data(),
                item.len, delay, item.request, item.descriptor)) {
      write_queued_.notify(sc_core::SC_ZERO_TIME);  // the write side sees the halt
      buffer_freed_.notify(sc_core::SC_ZERO_TIME);  // and so does the read side
      continue;
    }
    // The chunk is in its buffer once the read's time has passed.
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    item.ready = true;
    liveness_->progress();
    write_queued_.notify(sc_core::SC_ZERO_TIME);
  }
}

void DmaEngine::write_side() {
  for (;;) {
    while (write_queue_.empty() || !write_queue_.front().ready) {
      if (halt_.halted) return;  // nothing further runs once the engine has halted
      sc_core::wait(write_queued_);
    }
    if (halt_.halted) return;
    const WriteItem item = write_queue_.front();
    write_queue_.pop_front();
    if (item.kind == WriteItem::Done) {
      finish(item);
      continue;
    }
    sc_time delay = sc_core::SC_ZERO_TIME;
    uint8_t v[8];
    uint8_t* data = v;
    if (item.kind == WriteItem::Chunk) {
      data = buffers_[static_cast<size_t>(item.buffer)].data();
    } else {
      std::memcpy(v, &item.value, 8);
    }
    if (!access(write_txn_, tlm::TLM_WRITE_COMMAND, item.dst, data, item.len, delay, item.request,
                item.descriptor)) {
      buffer_freed_.notify(sc_core::SC_ZERO_TIME);  // the read side sees the halt
      return;
    }
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    if (item.kind == WriteItem::Chunk) {
      free_buffers_.push_back(item.buffer);
      buffer_freed_.notify(sc_core::SC_ZERO_TIME);
      liveness_->progress();
    }
  }
}

void DmaEngine::finish(const WriteItem& done) {
  const auto [request, submitted_at] = requests_.front();
  liveness_->progress();
  requests_.pop_front();
  --started_;
  if (started_ == 0) current_descriptor_ = 0;
  if (requests_.empty()) liveness_->idle();
  ++completed_;
  ++requests_done_;
  // Requests overlap in the pipeline (the next one's reads begin before this one's writes
  // end): the engine is busy over the union of their spans, which finish in order.
  busy_.add(std::max(done.start, busy_until_), hs::now());
  busy_until_ = hs::now();
  queue_.set(static_cast<int64_t>(requests_.size()), hs::now());
  request_latency_.sample((hs::now() - submitted_at).to_seconds() * 1e9);
  if (track_ >= 0) {
    const nlohmann::json args = {{"request", request},
                                 {"queued_ns", (done.start - submitted_at).to_seconds() * 1e9}};
    // Pipelined requests overlap: async spans, which may.
    TransactionTrace::instance().async_span(track_, "request", done.start, hs::now(), &args);
  }
}

}  // namespace hs::dma
