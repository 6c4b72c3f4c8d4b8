// Mirrored packet counters: a ring of N segments in the reader's shared memory,
// with no remote reads. The writer owns J (packets written) and the reader owns K (packets
// read); each keeps its own counter locally and writes it into the peer's memory, so both
// sides only ever read their own memory and only ever write across the link.
//
//   reader's memory: ring[N], J copy (written by the writer), K home (baseline only)
//   writer's memory: K copy (written by the reader),          J home (baseline only)
//
// Packet p (1-based) lives in segment p mod N. The writer never has more than N unread
// packets outstanding (J - K <= N by its local view of K); it writes the data, then J, on one
// posted path, so J never becomes visible before the data it announces.
//
// The baseline is the conventional ring: the writer reads K from the reader's memory across
// the link, and the reader reads J from the writer's memory across the link.
//
// Read-counter publication: eager (after every read batch); lazy with the working rule
// (publish when the backlog the writer sees, J - K_published, reaches the threshold, and
// whenever the reader catches up); or lazy with the source's literal rule (publish only when
// the reader's own unread count reaches the threshold), which can stall forever.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "sw/hal/hal.h"

namespace hs::fw::slmpm {

enum class CounterMode { Mirrored, Baseline };
enum class Publish { Eager, Lazy, LazyLiteral };

// One packet: a change to a tracked application value. 64 bytes, one per ring segment.
struct Packet {
  uint64_t seq = 0;        // 1-based packet number (checked by the reader)
  uint64_t sent_ps = 0;    // writer's time stamp (picoseconds), for latency
  uint32_t variable = 0;   // which tracked value
  uint16_t length = 0;     // bytes of value used
  uint16_t check = 0;      // checksum of the packet with this field 0 (resend rings only)
  uint8_t value[40] = {};  // the new contents
};
static_assert(sizeof(Packet) == 64, "one packet per 64-byte segment");

// Where one ring direction lives. Each address is given as its own side sees it, plus the
// windows through which each side sees the other's memory.
struct RingLayout {
  uint32_t segments = 16;  // N
  // In the reader's memory (reader-local addresses).
  uint64_t ring = 0, j_copy = 0, k_home = 0;
  // In the writer's memory (writer-local addresses).
  uint64_t k_copy = 0, j_home = 0;
  uint64_t reader_memory_from_writer =
      0;  // add to a reader-local address to reach it from the writer
  uint64_t writer_memory_from_reader =
      0;  // add to a writer-local address to reach it from the reader
};

// Lost-write recovery of one ring (see the top of this file); off unless `on`.
struct Resend {
  bool on = false;
  double timeout_ns = 200e3;  // K without progress this long, packets outstanding: rewrite
  uint32_t retries = 16;      // rewrites without progress before the writer gives up
};

// The checksum a resend ring's packets carry (Fletcher-16 over the packet, `check` as 0).
uint16_t packet_checksum(const Packet& p);

// Protocol invariants checked as the firmware runs; a violation fails the run.
// Reports name each rule (see the constants below).
void check(Hal& hal, bool ok, const char* rule, const std::string& what);
constexpr const char* kRuleKMonotonic = "SLMPM ring: the read counter K never goes backwards";
constexpr const char* kRuleKBehindJ = "SLMPM ring: K never passes the write counter J";
constexpr const char* kRuleJMonotonic = "SLMPM ring: J never goes backwards";
constexpr const char* kRuleAtMostN = "SLMPM ring: at most N packets unread (J - K <= N)";
constexpr const char* kRuleInSequence = "SLMPM ring: each segment read holds the next packet";

class RingWriter {
 public:
  RingWriter(Hal& hal, const RingLayout& layout, CounterMode mode, const Resend& resend = {});
  // Writes as many queued packets as the ring has room for (stamping seq and time); returns
  // how many. Never overwrites an unread segment and never drops a packet.
  size_t flush(std::deque<Packet>& pending);
  // Resend rings: rewrites the unacknowledged packets and J when K has shown no progress for
  // the timeout. Cheap when nothing is due (no memory access). False once `retries` rewrites
  // went unanswered: the oldest unacknowledged packet is then oldest_unacked().
  bool service();
  // Reads the peer's K now (a local load), updating what is acknowledged.
  void acknowledge() { peer_read_count(); }
  const Packet& oldest_unacked() const { return unacked_.front(); }
  uint64_t resends() const { return resends_; }
  // The cycle K last progressed (or packets were first outstanding).
  uint64_t last_progress() const { return last_progress_; }
  bool all_acknowledged() const { return k_seen_ == j_; }
  uint64_t written() const { return j_; }
  uint64_t remote_reads() const { return remote_reads_; }
  // (J - K) / N with the K last seen: the ring's utilisation as the writer knows it.
  double utilisation() const { return static_cast<double>(j_ - k_seen_) / m_.segments; }

 private:
  uint64_t peer_read_count();
  void write_j();
  Hal& hal_;
  RingLayout m_;
  CounterMode mode_;
  Resend resend_;
  uint64_t timeout_cycles_ = 0;
  uint64_t j_ = 0;
  uint64_t k_seen_ = 0;
  uint64_t remote_reads_ = 0;
  std::deque<Packet> unacked_;  // resend rings: packets k_seen_ + 1 .. j_
  uint64_t last_progress_ = 0, resends_ = 0;
  uint32_t unanswered_ = 0;  // rewrites since K last progressed
  uint16_t epoch_ = 0;
};

class RingReader {
 public:
  RingReader(Hal& hal, const RingLayout& layout, CounterMode mode, Publish publish,
             uint32_t threshold, const Resend& resend = {});
  // Reads every packet the writer has announced, in order, handing each to `apply`; returns
  // how many. Publishes K as its policy says.
  size_t poll(const std::function<void(const Packet&)>& apply);
  uint64_t read() const { return k_; }
  uint64_t publications() const { return publications_; }
  uint64_t remote_reads() const { return remote_reads_; }
  // Resend rings: the writer's resends this reader has seen (new epochs of J).
  uint64_t resends_seen() const { return resends_seen_; }

 private:
  void publish();
  Hal& hal_;
  RingLayout m_;
  CounterMode mode_;
  Publish policy_;
  uint32_t threshold_;
  bool resend_;
  uint16_t epoch_seen_ = 0;
  uint64_t resends_seen_ = 0;
  uint64_t k_ = 0, k_published_ = 0, j_seen_ = 0;
  uint64_t publications_ = 0, remote_reads_ = 0;
};

// Ends one side of a resend ring pair (its writer `out`, its reader polled by `poll`): resends
// until the peer has acknowledged every packet, then keeps answering the peer's resends (its
// last view of this side's K may have been lost) until the peer has been quiet for four
// timeouts (three of its resends in a row lost), as TCP's TIME-WAIT does. False if the writer gave up (out.oldest_unacked() is
// the packet lost).
bool close_resend(Hal& hal, RingWriter& out, const RingReader& in,
                  const std::function<void()>& poll, const Resend& resend, uint64_t poll_cycles);

}  // namespace hs::fw::slmpm
