#include "sw/slmpm/dma_transfer.h"

#include <fmt/format.h>
#include <cstring>

#include "sw/hal/dma.h"

namespace hs::fw::slmpm {

namespace {

template <class Body>
Packet message(MessageType type, const Body& body) {
  static_assert(sizeof(Body) <= sizeof(Packet::value), "message body fits a packet");
  Packet p;
  p.variable = type;
  p.length = sizeof(Body);
  std::memcpy(p.value, &body, sizeof(Body));
  return p;
}

template <class Body>
Body body_of(const Packet& p) {
  Body b;
  std::memcpy(&b, p.value, sizeof(Body));
  return b;
}

}  // namespace

HostDmaTransfers::HostDmaTransfers(Hal& hal, const RingLayout& to_acc, const RingLayout& from_acc,
                                   os::OsModel& os, RegistrationCache* cache, uint32_t accelerator,
                                   uint32_t process)
    : hal_(hal),
      out_(hal, to_acc, CounterMode::Mirrored),
      in_(hal, from_acc, CounterMode::Mirrored, Publish::Eager, 1),
      os_(os),
      cache_(cache),
      accelerator_(accelerator),
      process_(process) {}

std::optional<uint32_t> HostDmaTransfers::put(uint64_t src, uint64_t dst, uint32_t length,
                                              std::string& error) {
  const uint64_t lo = src, hi = src + length;
  uint64_t dma_addr;
  os::Handle handle;
  if (cache_) {
    auto r = cache_->register_range(hal_, lo, hi, error);
    if (!r) return std::nullopt;
    handle = r->handle;
    dma_addr = lo;  // the handle's pages map the range one to one; r->offset locates it
  } else {
    auto h = os_.register_range(hal_, lo, hi);
    if (!h) {
      error = fmt::format("the OS refused to register [{:#x}, {:#x})", lo, hi);
      return std::nullopt;
    }
    handle = *h;
    dma_addr = lo;
  }
  const uint32_t tag = next_tag_++;
  in_flight_[tag] = {lo, hi, handle};
  pending_.push_back(
      message(kGetRequest, GetRequest{tag, length, dma_addr, dst, accelerator_, process_}));
  out_.flush(pending_);
  return tag;
}

void HostDmaTransfers::progress() {
  if (!pending_.empty()) out_.flush(pending_);
  in_.poll([this](const Packet& p) {
    if (p.variable != kDmaDone)
      hal_.fail(fmt::format("SLMPM: unexpected message type {}", p.variable));
    const DmaDone done = body_of<DmaDone>(p);
    auto it = in_flight_.find(done.tag);
    if (it == in_flight_.end())
      hal_.fail(fmt::format("SLMPM: completion for unknown tag {}", done.tag));
    std::string error;
    if (cache_) {
      if (!cache_->deregister(hal_, it->second.lo, it->second.hi, error)) hal_.fail(error);
    } else {
      os_.deregister(hal_, it->second.handle);
    }
    in_flight_.erase(it);
  });
}

bool HostDmaTransfers::test(uint32_t tag) {
  progress();
  return in_flight_.count(tag) == 0;
}

void HostDmaTransfers::wait(uint32_t tag) {
  while (!test(tag)) hal_.compute(50);
}

AcceleratorDmaService::AcceleratorDmaService(Hal& hal, const RingLayout& from_host,
                                             const RingLayout& to_host, uint64_t engine_regs,
                                             uint64_t request_area, uint64_t host_window)
    : hal_(hal),
      in_(hal, from_host, CounterMode::Mirrored, Publish::Eager, 1),
      out_(hal, to_host, CounterMode::Mirrored),
      engine_(engine_regs),
      requests_(request_area),
      host_window_(host_window) {}

void AcceleratorDmaService::serve(uint64_t count, uint64_t poll_cycles) {
  std::deque<uint32_t> submitted;  // tags in engine order (it completes them in order)
  uint64_t submitted_count = 0, answered = 0;
  constexpr uint64_t kSlots = 64;
  while (answered < count) {
    bool progress = false;
    in_.poll([&](const Packet& p) {
      if (p.variable != kGetRequest)
        hal_.fail(fmt::format("SLMPM: unexpected message type {}", p.variable));
      const GetRequest rq = body_of<GetRequest>(p);
      const uint64_t at = requests_ + (submitted_count % kSlots) * sizeof(hs::dma::Descriptor);
      while (hal_.reg_read(engine_ + hs::dma::kSpace) == 0) hal_.compute(poll_cycles);
      dma::write_request(hal_, at, {dma::copy(host_window_ + rq.src, rq.dst, rq.length)});
      hal_.reg_write(engine_ + hs::dma::kSubmit, at, 8);
      submitted.push_back(rq.tag);
      ++submitted_count;
      progress = true;
    });
    const uint64_t done = dma::completed(hal_, engine_);
    while (submitted_count - submitted.size() < done) {
      pending_.push_back(message(kDmaDone, DmaDone{submitted.front(), 0}));
      submitted.pop_front();
      ++answered;
      progress = true;
    }
    if (!pending_.empty()) out_.flush(pending_);
    if (!progress) hal_.compute(poll_cycles);
  }
  while (!pending_.empty()) {
    out_.flush(pending_);
    hal_.compute(poll_cycles);
  }
}

}  // namespace hs::fw::slmpm
