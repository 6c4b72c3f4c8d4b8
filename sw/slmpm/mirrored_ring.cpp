#include "sw/slmpm/mirrored_ring.h"

#include <fmt/format.h>
#include <algorithm>

namespace hs::fw::slmpm {

namespace {
uint64_t now_ps(Hal& hal) {
  return static_cast<uint64_t>(static_cast<double>(hal.cycles()) / hal.clock_hz() * 1e12);
}
}  // namespace

void check(Hal& hal, bool ok, const char* rule, const std::string& what) {
  hal.check(ok, rule, "mirrored-counter invariant violated: " + what);
}

RingWriter::RingWriter(Hal& hal, const RingLayout& layout, CounterMode mode)
    : hal_(hal), m_(layout), mode_(mode) {}

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
    const uint64_t segment = p.seq % m_.segments;
    hal_.store(m_.ring + segment * sizeof(Packet) + m_.reader_memory_from_writer, p);
  }
  if (n == 0) return 0;
  j_ += n;
  // Same posted path as the data: J arrives after the packets it announces.
  if (mode_ == CounterMode::Mirrored) {
    hal_.store<uint64_t>(m_.j_copy + m_.reader_memory_from_writer, j_);
  } else {
    hal_.store<uint64_t>(m_.j_home, j_);  // local; the reader fetches it
  }
  return n;
}

RingReader::RingReader(Hal& hal, const RingLayout& layout, CounterMode mode, Publish publish,
                       uint32_t threshold)
    : hal_(hal), m_(layout), mode_(mode), policy_(publish), threshold_(threshold) {}

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
  check(hal_, j >= j_seen_, kRuleJMonotonic,
        fmt::format("J went backwards ({} after {})", j, j_seen_));
  check(hal_, j - k_ <= m_.segments, kRuleAtMostN, fmt::format("J - K = {} exceeds N", j - k_));
  j_seen_ = j;
  size_t n = 0;
  while (k_ < j) {
    Packet p;
    hal_.load(m_.ring + ((k_ + 1) % m_.segments) * sizeof(Packet), &p, sizeof p);
    check(hal_, p.seq == k_ + 1, kRuleInSequence,
          fmt::format("segment {} holds packet {}, expected {} (read before its data arrived, "
                      "or overwritten unread)",
                      (k_ + 1) % m_.segments, p.seq, k_ + 1));
    apply(p);
    ++k_;
    ++n;
  }
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
  return n;
}

}  // namespace hs::fw::slmpm
