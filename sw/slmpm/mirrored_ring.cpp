#include "sw/slmpm/mirrored_ring.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstddef>

namespace hs::fw::slmpm {

namespace {
uint64_t now_ps(Hal& hal) {
  return static_cast<uint64_t>(static_cast<double>(hal.cycles()) / hal.clock_hz() * 1e12);
}
// J's copy on a resend ring: the count in the low 48 bits, the resend epoch above.
constexpr int kEpochShift = 48;
constexpr uint64_t kCountMask = (uint64_t{1} << kEpochShift) - 1;
}  // namespace

uint16_t packet_checksum(const Packet& p) {
  Packet q = p;
  q.check = 0;
  const auto* b = reinterpret_cast<const uint8_t*>(&q);
  uint32_t s1 = 0, s2 = 0;
  for (size_t i = 0; i < sizeof q; ++i) {
    s1 = (s1 + b[i]) % 255;
    s2 = (s2 + s1) % 255;
  }
  return static_cast<uint16_t>(s2 << 8 | s1);
}

void check(Hal& hal, bool ok, const char* rule, const std::string& what) {
  hal.check(ok, rule, "mirrored-counter invariant violated: " + what);
}

RingWriter::RingWriter(Hal& hal, const RingLayout& layout, CounterMode mode, const Resend& resend)
    : hal_(hal),
      m_(layout),
      mode_(mode),
      resend_(resend),
      timeout_cycles_(static_cast<uint64_t>(resend.timeout_ns * 1e-9 * hal.clock_hz())) {}

uint64_t RingWriter::peer_read_count() {
  uint64_t k;
  if (mode_ == CounterMode::Mirrored) {
    k = hal_.load<uint64_t>(m_.k_copy);  // local: the reader writes it here
  } else {
    k = hal_.load<uint64_t>(m_.k_home + m_.reader_memory_from_writer);  // across the link
    ++remote_reads_;
  }
  check(hal_, k >= k_seen_, kRuleKMonotonic,
        fmt::format("K went backwards ({} after {})", k, k_seen_));
  check(hal_, k <= j_, kRuleKBehindJ, fmt::format("K = {} is ahead of J = {}", k, j_));
  if (resend_.on && k > k_seen_) {
    unacked_.erase(unacked_.begin(), unacked_.begin() + static_cast<ptrdiff_t>(k - k_seen_));
    last_progress_ = hal_.cycles();
    unanswered_ = 0;
  }
  k_seen_ = k;
  return k;
}

size_t RingWriter::flush(std::deque<Packet>& pending) {
  if (pending.empty()) return 0;
  const uint64_t k = peer_read_count();
  const uint64_t unread = j_ - k;
  check(hal_, unread <= m_.segments, kRuleAtMostN,
        fmt::format("J - K = {} exceeds N = {}", unread, m_.segments));
  const uint64_t room = m_.segments - unread;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(room, pending.size()));
  for (size_t i = 0; i < n; ++i) {
    Packet p = pending.front();
    pending.pop_front();
    p.seq = j_ + 1 + i;
    p.sent_ps = now_ps(hal_);
    if (resend_.on) {
      p.check = packet_checksum(p);
      if (unacked_.empty()) last_progress_ = hal_.cycles();  // the timer starts
      unacked_.push_back(p);
    }
    const uint64_t segment = p.seq % m_.segments;
    hal_.store(m_.ring + segment * sizeof(Packet) + m_.reader_memory_from_writer, p);
  }
  if (n == 0) return 0;
  j_ += n;
  write_j();
  return n;
}

void RingWriter::write_j() {
  // Same posted path as the data: J arrives after the packets it announces.
  if (mode_ == CounterMode::Mirrored) {
    const uint64_t word = resend_.on ? j_ | uint64_t{epoch_} << kEpochShift : j_;
    hal_.store<uint64_t>(m_.j_copy + m_.reader_memory_from_writer, word);
  } else {
    hal_.store<uint64_t>(m_.j_home, j_);  // local; the reader fetches it
  }
}

bool RingWriter::service() {
  if (!resend_.on || j_ == k_seen_) return true;
  if (hal_.cycles() - last_progress_ < timeout_cycles_) return true;
  peer_read_count();  // progress restarts the timer
  if (j_ == k_seen_ || hal_.cycles() - last_progress_ < timeout_cycles_) return true;
  if (unanswered_ >= resend_.retries) return false;
  for (const Packet& p : unacked_) {
    hal_.store(m_.ring + (p.seq % m_.segments) * sizeof(Packet) + m_.reader_memory_from_writer, p);
  }
  ++epoch_;  // tells the reader to publish K again, in case that was what was lost
  write_j();
  ++unanswered_;
  ++resends_;
  last_progress_ = hal_.cycles();
  return true;
}

RingReader::RingReader(Hal& hal, const RingLayout& layout, CounterMode mode, Publish publish,
                       uint32_t threshold, const Resend& resend)
    : hal_(hal),
      m_(layout),
      mode_(mode),
      policy_(publish),
      threshold_(threshold),
      resend_(resend.on) {}

void RingReader::publish() {
  if (mode_ == CounterMode::Mirrored) {
    hal_.store<uint64_t>(m_.k_copy + m_.writer_memory_from_reader, k_);  // one posted write
  } else {
    hal_.store<uint64_t>(m_.k_home, k_);  // local; the writer fetches it
  }
  k_published_ = k_;
  ++publications_;
}

size_t RingReader::poll(const std::function<void(const Packet&)>& apply) {
  uint64_t j;
  if (mode_ == CounterMode::Mirrored) {
    j = hal_.load<uint64_t>(m_.j_copy);
  } else {
    j = hal_.load<uint64_t>(m_.j_home + m_.writer_memory_from_reader);
    ++remote_reads_;
  }
  bool resent = false;
  if (resend_) {
    const auto epoch = static_cast<uint16_t>(j >> kEpochShift);
    resent = epoch != epoch_seen_;
    resends_seen_ += resent;
    epoch_seen_ = epoch;
    j &= kCountMask;
  }
  check(hal_, j >= j_seen_, kRuleJMonotonic,
        fmt::format("J went backwards ({} after {})", j, j_seen_));
  check(hal_, j - k_ <= m_.segments, kRuleAtMostN, fmt::format("J - K = {} exceeds N", j - k_));
  j_seen_ = j;
  size_t n = 0;
  while (k_ < j) {
    Packet p;
    hal_.load(m_.ring + ((k_ + 1) % m_.segments) * sizeof(Packet), &p, sizeof p);
    if (resend_ && (p.seq != k_ + 1 || p.check != packet_checksum(p))) {
      // Not yet valid: its write was lost (an older packet is still there) or damaged. The
      // writer's rewrite fills it; never a newer packet, which would have overwritten one unread.
      check(hal_, p.seq <= k_ + 1, kRuleInSequence,
            fmt::format("segment {} holds packet {}, expected {} (overwritten unread)",
                        (k_ + 1) % m_.segments, p.seq, k_ + 1));
      break;
    }
    check(hal_, p.seq == k_ + 1, kRuleInSequence,
          fmt::format("segment {} holds packet {}, expected {} (read before its data arrived, "
                      "or overwritten unread)",
                      (k_ + 1) % m_.segments, p.seq, k_ + 1));
    apply(p);
    ++k_;
    ++n;
  }
  const uint64_t published_before = publications_;
  switch (policy_) {
    case Publish::Eager:
      if (n > 0) publish();
      break;
    case Publish::Lazy:
      // The backlog the writer sees is J - K_published. A poll that finds nothing new (the
      // reader is idle) publishes whatever is left, so a writer waiting for room always
      // learns of it.
      if (j - k_published_ >= threshold_ || (n == 0 && k_ != k_published_)) publish();
      break;
    case Publish::LazyLiteral:
      // The source's rule: the reader's own unread count. Once the reader has caught up it is
      // 0 and nothing is ever published again: a writer waiting for room waits forever.
      if (n >= threshold_) publish();
      break;
  }
  // The writer resent: what it lacks may be K's last publication.
  if (resent && publications_ == published_before) publish();
  return n;
}

bool close_resend(Hal& hal, RingWriter& out, const RingReader& in,
                  const std::function<void()>& poll, const Resend& resend, uint64_t poll_cycles) {
  const auto quiet_cycles = static_cast<uint64_t>(4 * resend.timeout_ns * 1e-9 * hal.clock_hz());
  uint64_t quiet_since = hal.cycles(), seen = in.resends_seen();
  for (;;) {
    poll();
    out.acknowledge();
    if (!out.service()) return false;
    if (!out.all_acknowledged() || in.resends_seen() != seen) {
      seen = in.resends_seen();
      quiet_since = hal.cycles();
    } else if (hal.cycles() - quiet_since >= quiet_cycles) {
      return true;
    }
    hal.compute(poll_cycles);
  }
}

}  // namespace hs::fw::slmpm
