#include "hw/bridge/ht_pcie_bridge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::bridge {

using link::Packet;
using link::PacketKind;
using link::SplitLink;
using sc_core::sc_time;

namespace {
constexpr int kDown = 0, kUp = 1;
constexpr uint64_t kHtChunk = ht::HtConfig::kMaxPayload;

uint32_t ht_chunk(uint64_t addr, uint64_t remaining) {
  return static_cast<uint32_t>(std::min<uint64_t>(remaining, kHtChunk - addr % kHtChunk));
}
}  // namespace

// What one link delivers into the bridge: the HyperTransport link (k < 0) or PCIe link k.
struct HtPcieBridge::Ingress : link::PacketReceiver {
  Ingress(HtPcieBridge& b, int k) : bridge(b), pcie(k) {}
  sc_time take(Packet& p) override {
    return pcie < 0 ? bridge.from_host(p) : bridge.from_accelerator(pcie, p);
  }
  HtPcieBridge& bridge;
  int pcie;
};

struct HtPcieBridge::DownRead : link::ReadRequest {
  link::ReadRequest* up = nullptr;  // the host's read
  int link = 0;
  uint64_t addr = 0;  // in host physical addresses
  std::vector<uint8_t> data;
  bool error = false;
};

// An accelerator's read: its HyperTransport responses are gathered into the completions the
// PCIe link's completer rule gives for it, each sent once its bytes, and every byte before
// them, have arrived.
struct HtPcieBridge::UpRequest {
  link::ReadRequest* up = nullptr;  // the accelerator's read
  int link = 0;
  uint64_t addr = 0;
  uint32_t reads_left = 0;
  bool failed = false;
  std::vector<uint8_t> data;             // the request's bytes, as they arrive
  std::map<uint32_t, uint32_t> arrived;  // offset -> length, beyond `contiguous`
  uint32_t contiguous = 0;               // bytes arrived without a gap from the start
  std::vector<uint32_t> completions;     // their sizes, in address order
  size_t next = 0;                       // the next completion to send
  uint32_t sent = 0;                     // bytes the completions sent so far carried
};

struct HtPcieBridge::UpRead : link::ReadRequest {
  UpRequest* request = nullptr;
  uint32_t offset = 0;  // of its bytes in the request
};

HtPcieBridge::HtPcieBridge(sc_core::sc_module_name name, ht::HtLink& ht,
                           std::vector<pcie::PcieLink*> pcie, std::vector<uint64_t> windows,
                           uint64_t window_size)
    : sc_module(name),
      ht_(ht),
      pcie_(std::move(pcie)),
      windows_(std::move(windows)),
      window_size_(window_size),
      ht_tags_(ht.timing().tags),
      stats_(this->name()),
      down_reads_(stats_.occupancy("reads_downstream", "reads",
                                   "host reads forwarded to an accelerator, not yet answered")),
      up_reads_(stats_.occupancy("reads_upstream", "reads",
                                 "HyperTransport reads the bridge has outstanding for the "
                                 "accelerators")),
      transit_(stats_.histogram("transit", "ns",
                                "from a packet's arrival to its forwarding (internal latency "
                                "and waiting for the outgoing link)")),
      mapped_check_(CheckRegistry::instance().check(
          "HT-to-PCIe bridge: host accesses fall in an accelerator's window")),
      track_(TransactionTrace::instance().track(this->name())) {
  ParamScope p(this->name());
  latency_ = picoseconds(p.real("latency", 100, "ns",
                                "time a packet spends crossing the bridge (decode, translation, "
                                "the internal path)",
                                Range::between(0, 1e6)) *
                         1e3);
  cut_through_ = p.choice("forwarding", "store_and_forward",
                          "forward a packet once it has arrived whole, or once its header has",
                          {"store_and_forward", "cut_through"}) == "cut_through";
  ingress_.push_back(std::make_unique<Ingress>(*this, -1));
  ht_.connect(SplitLink::B, *ingress_.back());
  if (cut_through_) ht_.deliver_at_header(SplitLink::B);
  for (size_t k = 0; k < pcie_.size(); ++k) {
    ingress_.push_back(std::make_unique<Ingress>(*this, static_cast<int>(k)));
    pcie_[k]->connect(SplitLink::A, *ingress_.back());
    if (cut_through_) pcie_[k]->deliver_at_header(SplitLink::A);
    pcie_tags_.push_back(std::make_unique<TokenPool>(pcie_[k]->timing().tags));
  }
  const char* kinds[] = {"writes", "reads", "read_data", "read_errors"};
  const char* dirs[] = {"downstream", "upstream"};
  for (int d = 0; d < 2; ++d) {
    for (int k = 0; k < link::kPacketKinds; ++k) {
      forwarded_[d][k] =
          &stats_.counter(fmt::format("{}_{}", dirs[d], kinds[k]), "packets",
                          fmt::format("{} packets forwarded {}", kinds[k],
                                      d == kDown ? "to the accelerators" : "to the host"));
    }
    bytes_[d] = &stats_.counter(fmt::format("{}_bytes", dirs[d]), "B",
                                fmt::format("payload bytes forwarded {}",
                                            d == kDown ? "to the accelerators" : "to the host"));
  }
  uint32_t down_capacity = 0;
  for (auto& t : pcie_) down_capacity += t->timing().tags;
  stats_.capacity_ceiling("reads_downstream", down_reads_, down_capacity);
  stats_.capacity_ceiling("reads_upstream", up_reads_, ht.timing().tags);
  SignalTrace::instance().add(reads_down_, std::string(this->name()) + ".reads_downstream");
  SignalTrace::instance().add(reads_up_, std::string(this->name()) + ".reads_upstream");
}

HtPcieBridge::~HtPcieBridge() = default;

sc_time HtPcieBridge::ready(const Packet& in, const SplitLink& out_link, const Packet& out) const {
  const sc_time now = hs::now();
  if (!cut_through_) return now + latency_;  // delivered whole: now is its tail
  // Delivered at its header: the outgoing packet may not end before the incoming one has.
  const sc_time earliest_end = in.tail + latency_;
  const sc_time ser = out_link.serialisation(out);
  return std::max(now + latency_, earliest_end > ser ? earliest_end - ser : now);
}

void HtPcieBridge::count(int dir, PacketKind k, uint32_t bytes, const sc_time& arrived,
                         const sc_time& leaves) {
  ++*forwarded_[dir][static_cast<int>(k)];
  *bytes_[dir] += bytes;
  transit_.sample((leaves - arrived).to_seconds() * 1e9);
  if (track_ >= 0) {
    // Named as the packet leaves: PCIe's names towards the accelerators, HyperTransport's up.
    const nlohmann::json args = {{"bytes", bytes}, {"to", dir == kDown ? "accelerator" : "host"}};
    TransactionTrace::instance().span(
        track_, (dir == kDown ? pcie_[0]->format() : ht_.format()).kind_name(k), arrived, leaves,
        &args);
  }
}

sc_time HtPcieBridge::from_host(Packet& p) {
  const sc_time arrived = hs::now();
  if (p.is_completion()) {
    // A response to one of the bridge's reads for an accelerator.
    auto* read = static_cast<UpRead*>(p.request);
    UpRequest* req = read->request;
    ht_tags_.release();
    up_reads_.set(--reads_up_, arrived);
    if (p.kind == PacketKind::ReadError) req->failed = true;
    const bool last = --req->reads_left == 0;
    pcie::PcieLink& l = *pcie_[static_cast<size_t>(req->link)];
    if (req->failed) {
      delete read;
      if (!last) return sc_core::SC_ZERO_TIME;  // the request fails as a whole, at its end
      Packet out;
      out.kind = PacketKind::ReadError;
      out.addr = req->addr + req->sent;
      out.request = req->up;
      out.last = true;
      sc_time local = ready(p, l, out);
      l.send(SplitLink::A, std::move(out), local);
      count(kUp, PacketKind::ReadError, 0, arrived, local);
      delete req;
      return sc_core::SC_ZERO_TIME;
    }
    std::copy(p.data.begin(), p.data.begin() + p.len, req->data.begin() + read->offset);
    req->arrived[read->offset] = p.len;
    delete read;
    for (auto it = req->arrived.begin(); it != req->arrived.end() && it->first == req->contiguous;
         it = req->arrived.erase(it)) {
      req->contiguous += it->second;
    }
    // Every completion whose bytes are all in goes now, in address order.
    while (req->next < req->completions.size() &&
           req->sent + req->completions[req->next] <= req->contiguous) {
      const uint32_t n = req->completions[req->next++];
      Packet out;
      out.kind = PacketKind::ReadData;
      out.addr = req->addr + req->sent;
      out.request = req->up;
      out.offset = req->sent;
      out.len = n;
      out.data = l.spare_buffer();
      out.data.assign(req->data.begin() + req->sent, req->data.begin() + req->sent + n);
      out.last = req->next == req->completions.size();
      req->sent += n;
      sc_time local = ready(p, l, out);
      l.send(SplitLink::A, std::move(out), local);
      count(kUp, PacketKind::ReadData, n, arrived, local);
    }
    if (last) delete req;
    return sc_core::SC_ZERO_TIME;
  }
  // A request from the host: to the accelerator whose window holds it.
  int k = -1;
  for (size_t i = 0; i < windows_.size(); ++i) {
    if (p.addr >= windows_[i] && p.addr - windows_[i] < window_size_) k = static_cast<int>(i);
  }
  HS_EXPECT(mapped_check_, k >= 0, name(),
            fmt::format("{} of {} B at {:#x} is in no accelerator's window",
                        ht_.format().kind_name(p.kind), p.len, p.addr));
  if (k < 0) {
    if (p.kind == PacketKind::Read) {
      Packet err;
      err.kind = PacketKind::ReadError;
      err.addr = p.addr;
      err.request = p.request;
      err.last = true;
      ht_.post(SplitLink::B, std::move(err), arrived + latency_);
    }
    return sc_core::SC_ZERO_TIME;
  }
  pcie::PcieLink& l = *pcie_[static_cast<size_t>(k)];
  Packet out;
  out.kind = p.kind;
  out.addr = p.addr - windows_[static_cast<size_t>(k)];
  out.len = p.len;
  if (p.kind == PacketKind::Read) {
    auto* read = new DownRead;
    read->up = p.request;
    read->link = k;
    read->addr = p.addr;
    read->data.resize(p.len);
    out.request = read;
    pcie_tags_[static_cast<size_t>(k)]->acquire();  // waits while every tag is in use
    down_reads_.set(++reads_down_, hs::now());
  } else {
    out.data = std::move(p.data);
  }
  sc_time local = ready(p, l, out);
  const PacketKind kind = out.kind;
  const uint32_t len = out.kind == PacketKind::Write ? out.len : 0;
  l.send(SplitLink::A, std::move(out), local);
  count(kDown, kind, len, arrived, local);
  return local - hs::now();  // the packet holds its input buffer until it has moved on
}

sc_time HtPcieBridge::from_accelerator(int k, Packet& p) {
  const sc_time arrived = hs::now();
  if (p.is_completion()) {
    // A completion of one of the bridge's reads for the host: gathered into one response.
    auto* read = static_cast<DownRead*>(p.request);
    if (p.kind == PacketKind::ReadError) {
      read->error = true;
    } else {
      std::copy(p.data.begin(), p.data.begin() + p.len, read->data.begin() + p.offset);
    }
    if (!p.last) return sc_core::SC_ZERO_TIME;
    pcie_tags_[static_cast<size_t>(k)]->release();
    down_reads_.set(--reads_down_, arrived);
    Packet out;
    out.kind = read->error ? PacketKind::ReadError : PacketKind::ReadData;
    out.addr = read->addr;
    out.request = read->up;
    out.last = true;
    if (!read->error) {
      out.len = static_cast<uint32_t>(read->data.size());
      out.data = std::move(read->data);
    }
    sc_time local = ready(p, ht_, out);
    const PacketKind kind = out.kind;
    const uint32_t len = out.len;
    ht_.send(SplitLink::B, std::move(out), local);
    count(kDown, kind, len, arrived, local);
    delete read;
    return sc_core::SC_ZERO_TIME;
  }
  // A request from the accelerator, to host memory: in HyperTransport's 64-byte pieces.
  UpRequest* req = nullptr;
  if (p.kind == PacketKind::Read) {
    req = new UpRequest;
    req->up = p.request;
    req->link = k;
    req->addr = p.addr;
    req->data.resize(p.len);
    pcie_[static_cast<size_t>(k)]->format().completion_sizes(p.addr, p.len, req->completions);
    for (uint64_t a = p.addr, r = p.len; r > 0;) {
      const uint32_t n = ht_chunk(a, r);
      a += n;
      r -= n;
      ++req->reads_left;
    }
  }
  // What the pieces still to go take on the outgoing wire (a cut-through bridge ends no
  // earlier than the incoming packet's last byte).
  sc_time to_go = sc_core::SC_ZERO_TIME;
  std::vector<Packet> pieces;
  for (uint64_t off = 0; off < p.len;) {
    const uint32_t n = ht_chunk(p.addr + off, p.len - off);
    Packet out;
    out.kind = p.kind;
    out.addr = p.addr + off;
    out.len = n;
    if (p.kind == PacketKind::Write) {
      out.data = ht_.spare_buffer();
      out.data.assign(p.data.begin() + off, p.data.begin() + off + n);
    } else {
      auto* read = new UpRead;
      read->request = req;
      read->offset = static_cast<uint32_t>(off);
      out.request = read;
    }
    to_go += ht_.serialisation(out);
    pieces.push_back(std::move(out));
    off += n;
  }
  const sc_time now = hs::now();
  sc_time local = now + latency_;
  if (cut_through_ && p.tail + latency_ > to_go) local = std::max(local, p.tail + latency_ - to_go);
  for (Packet& out : pieces) {
    if (out.kind == PacketKind::Read) {
      ht_tags_.acquire();  // waits while every SrcTag is in use
      up_reads_.set(++reads_up_, hs::now());
    }
    const PacketKind kind = out.kind;
    const uint32_t len = kind == PacketKind::Write ? out.len : 0;
    ht_.send(SplitLink::B, std::move(out), local);
    count(kUp, kind, len, arrived, local);
  }
  return local - hs::now();
}

}  // namespace hs::bridge
