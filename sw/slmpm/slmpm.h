// The SLMPM (system level message passing module) on the hybrid node: a DaCS-like interface
// on the host, and the accelerator side that serves it.
//
//   put(id, src, dst, n)  move n bytes of host memory to accelerator address dst (DMA by default)
//   send(id, src, n)      deliver n bytes to the accelerator's receive buffer (SMT by default)
//   get(id, src, dst, n)  move n bytes of accelerator memory at src into host memory at dst: a
//                         request the accelerator serves with a DMA PUT into the registered buffer
//   test(tag) / wait(tag) completion
//
// Each message picks a mode (fabric, link, protocol) with select_mode(): the accelerator-ID
// form picks the fabric, monitored data (bytes this SLMPM has in flight per channel, the
// ring's utilisation) and the message size pick the rest. Messages travel through mirrored
// rings, one pair per fabric (no remote reads; rings only write across a fabric, so Ethernet
// carries them too).
//
// - Shared-memory transfer (SMT): a header (accelerator id, process id, tag, length) that the
//   accelerator answers with an acknowledgement naming where the data goes (the handshake),
//   the data in packets, and a done message once all of it has arrived.
// - DMA: the host registers its buffer (registration cache, or the OS for the baseline) and
//   asks the accelerator, which alone has a DMA engine, for a remote GET; the accelerator's
//   done message lets the host deregister.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "sw/hal/hal.h"
#include "sw/os/os_model.h"
#include "sw/slmpm/mirrored_ring.h"
#include "sw/slmpm/mode_selection.h"
#include "sw/slmpm/registration_cache.h"

namespace hs::fw::slmpm {

enum MessageType : uint32_t {
  kGetRequest = 1,  // host -> acc: pull [src, src + length) into dst with your DMA engine
  kDmaDone = 2,     // acc -> host: that GET is complete
  kSmtHeader = 3,   // host -> acc: an SMT of `length` bytes begins
  kSmtAck = 4,      // acc -> host: go ahead; the data lands at dst
  kSmtData = 5,     // host -> acc: up to kSmtChunk bytes at offset
  kSmtDone = 6,     // acc -> host: every byte has arrived
  kPutRequest = 7,  // host -> acc: push [src, src + length) into host dst with your DMA engine
};
constexpr uint32_t kSmtChunk = 32;

// One ring pair to the accelerator over one fabric.
struct Channel {
  RingLayout to_acc, from_acc;
  Fabric fabric = Fabric::Pcie;
  int link = 0;
  Resend resend;  // on for a fabric that may lose writes (Ethernet)
};

struct HostSlmpmConfig {
  Channel pcie;
  std::optional<Channel> ethernet;
  Thresholds thresholds;
  uint32_t accelerator = 0, process = 1;
};

class HostSlmpm {
 public:
  // `cache` null: DMA buffers are registered through the OS on every transfer (baseline).
  HostSlmpm(Hal& hal, const HostSlmpmConfig& cfg, os::OsModel& os, RegistrationCache* cache);
  ~HostSlmpm();

  std::optional<uint32_t> put(const AcceleratorId& id, uint64_t src, uint64_t dst, uint32_t n,
                              std::string& error);
  std::optional<uint32_t> send(const AcceleratorId& id, uint64_t src, uint32_t n,
                               std::string& error);
  std::optional<uint32_t> get(const AcceleratorId& id, uint64_t src, uint64_t dst, uint32_t n,
                              std::string& error);
  bool test(uint32_t tag);
  void wait(uint32_t tag);
  // Once every transfer is complete: ends the resending channels (close_resend), so the
  // accelerator learns that its last messages arrived.
  void close();
  size_t outstanding() const { return transfers_.size(); }
  const Mode& last_mode() const { return last_mode_; }

  struct Counters {
    uint64_t smt = 0, dma = 0, pcie = 0, ethernet = 0;
  };
  const Counters& counters() const { return counters_; }
  // Rewrites (of every unacknowledged packet and J) by the host on resending channels.
  uint64_t resends() const;

 private:
  struct Link;
  struct Transfer {
    Link* link;
    bool dma;
    uint64_t src, dst;
    uint32_t n;
    uint64_t host_lo;  // the registered host buffer (src of a put, dst of a get)
    os::Handle handle = 0;
    bool acked = false;
  };
  Mode choose(Operation op, uint32_t n, const AcceleratorId& id);
  // A transfer's step in the trace spans start to its done message.
  std::optional<uint32_t> start(Operation op, const AcceleratorId& id, uint64_t src, uint64_t dst,
                                uint32_t n, std::string& error);
  std::optional<uint32_t> start_transfer(Operation op, const Mode& mode, uint64_t src, uint64_t dst,
                                         uint32_t n, std::string& error);
  // Registers the host buffer [host_lo, host_lo + n) and queues the accelerator's request.
  std::optional<uint32_t> start_dma(Link& l, MessageType request, uint64_t host_lo, uint64_t src,
                                    uint64_t dst, uint32_t n, std::string& error);
  void start_smt(Link& l, uint32_t tag, uint64_t src, uint32_t n);
  void progress();

  Hal& hal_;
  HostSlmpmConfig cfg_;
  os::OsModel& os_;
  RegistrationCache* cache_;
  std::deque<Link> links_;  // stable addresses
  std::map<uint32_t, Transfer> transfers_;
  uint32_t next_tag_ = 1;
  Mode last_mode_;
  Counters counters_;
};

// The accelerator's side: answers SMTs into its receive area and serves GET requests with
// its DMA engine, on every channel, until `messages` transfers have completed.
struct AcceleratorSlmpmConfig {
  RingLayout pcie_from_host, pcie_to_host;
  std::optional<std::pair<RingLayout, RingLayout>> ethernet;  // from host, to host
  Resend ethernet_resend;                                     // the Ethernet rings' resend
  int ethernet_link = 0;                                      // named in failures
  uint64_t engine_regs = 0, request_area = 0, host_window = 0;
  uint32_t accelerator = 0;   // headers must name this accelerator
  uint64_t receive_area = 0;  // where sends land: a free slot each, round robin
  uint32_t receive_slots = 8, receive_slot_bytes = 1 << 20;
};

// `delivered` (optional) sees every completed transfer: tag, where its bytes landed, length.
using Delivered = std::function<void(uint32_t tag, uint64_t dst, uint32_t length)>;

// The accelerator's side as a service its firmware steps: poll() serves what has arrived from
// the host (headers, data, GET and PUT requests), answers completed DMAs and flushes the
// answers, once; the firmware calls it while it has nothing else to do. The accelerator owns
// the DMA engine, so its own transfers (local_dma: the accelerator's program moving its memory
// to or from the host's) go through the same request slots and completion count as the
// host's requests.
class AcceleratorSlmpm {
 public:
  AcceleratorSlmpm(Hal& hal, const AcceleratorSlmpmConfig& cfg, Delivered delivered = nullptr,
                   uint64_t poll_cycles = 50);
  ~AcceleratorSlmpm();
  AcceleratorSlmpm(const AcceleratorSlmpm&) = delete;
  AcceleratorSlmpm& operator=(const AcceleratorSlmpm&) = delete;

  // One pass; returns whether anything happened.
  bool poll();
  // Host transfers completed so far (SMTs delivered, DMAs answered).
  uint64_t completed() const;
  // Queues a copy of n bytes from src to dst (engine addresses: the host's through
  // cfg.host_window) on the engine; returns a ticket for local_done().
  uint64_t local_dma(uint64_t src, uint64_t dst, uint64_t n);
  bool local_done(uint64_t ticket) const;
  // Flushes every answer and closes the resending channels (after the last transfer).
  void finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Serves until `transfers` host transfers have completed, then finish()es.
void accelerator_serve(Hal& hal, const AcceleratorSlmpmConfig& cfg, uint64_t transfers,
                       const Delivered& delivered = nullptr, uint64_t poll_cycles = 50);

}  // namespace hs::fw::slmpm
