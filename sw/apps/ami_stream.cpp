#include "sw/apps/ami_stream.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace hs::fw::ami_stream {

bool parse_readiness(const std::string& s, Readiness& out) {
  static const std::map<std::string, Readiness> names = {{"early", Readiness::Early},
                                                         {"late", Readiness::Late},
                                                         {"delayed", Readiness::Delayed},
                                                         {"random", Readiness::Random}};
  auto it = names.find(s);
  if (it == names.end()) return false;
  out = it->second;
  return true;
}

uint8_t pattern(uint64_t seed, int message, uint32_t offset) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + uint64_t(message) * 0xBF58476D1CE4E5B9ull +
               uint64_t(offset / 8) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 29;
  return static_cast<uint8_t>(x >> (8 * (offset % 8)));
}

uint32_t message_bytes(const Config& cfg, int i) {
  if (!cfg.random_sizes) return cfg.bytes;
  std::mt19937_64 rng(cfg.seed * 7919 + uint64_t(i));
  const double lo = std::log(32.0), hi = std::log(double(std::max<uint32_t>(cfg.bytes, 32)));
  const double v = std::exp(lo + (hi - lo) * std::uniform_real_distribution<double>(0, 1)(rng));
  return std::clamp<uint32_t>(static_cast<uint32_t>(v), 1, cfg.bytes);
}

namespace {

uint64_t slot_stride(const Config& cfg) {
  return (uint64_t{cfg.bytes} + 4095) & ~uint64_t{4095};
}
int recv_slots(const Config& cfg) {
  return 2 * cfg.window + 2;
}

void fill(std::vector<uint8_t>& v, uint64_t seed, int message) {
  for (uint32_t j = 0; j < v.size(); ++j) v[j] = pattern(seed, message, j);
}

}  // namespace

void sender(Hal& hal, const Config& cfg, const ami::AmiConfig& acfg, const AdapterFactory& make,
            ami::AmiTrace* trace, Results& out) {
  auto adapter = make(hal);
  ami::Ami ami(hal, *adapter, acfg, cfg.sender, trace);
  ami.init();
  out.messages.resize(cfg.messages);
  // Give the receiver time to post early RECEIVEs.
  ami.wait_until([&] { return hal.cycles() >= 4000; });
  int next = 0, done = 0;
  std::vector<uint8_t> data;
  // Send buffers are reused only once their SEND is done (completions come in any order).
  std::vector<int> free_slots;
  for (int s = cfg.window - 1; s >= 0; --s) free_slots.push_back(s);
  while (done < cfg.messages) {
    while (next < cfg.messages && !free_slots.empty()) {
      const int i = next++;
      const int slot = free_slots.back();
      free_slots.pop_back();
      const uint32_t n = message_bytes(cfg, i);
      data.resize(n);
      fill(data, cfg.seed, i);
      const uint64_t buf = cfg.send_buf + uint64_t(slot) * slot_stride(cfg);
      hal.store(buf, data.data(), n);
      MessageRecord& m = out.messages[i];
      m.bytes = n;
      m.send_posted = hal.cycles();
      ami.send(cfg.receiver, buf, n, static_cast<uint32_t>(i),
               [&hal, &m, &done, &free_slots, slot] {
                 m.send_done = hal.cycles();
                 free_slots.push_back(slot);
                 ++done;
               });
    }
    const int before = done;
    ami.wait_until([&] { return done != before; });
  }
  ami.wait_until([&] { return ami.quiescent(); });
  out.sender_stats = ami.stats();
}

void receiver(Hal& hal, const Config& cfg, const ami::AmiConfig& acfg, const AdapterFactory& make,
              ami::AmiTrace* trace, Results& out) {
  auto adapter = make(hal);
  ami::Ami ami(hal, *adapter, acfg, cfg.receiver, trace);
  ami.init();
  std::vector<MessageRecord> recs(cfg.messages);
  std::mt19937_64 rng(cfg.seed);
  std::vector<Readiness> mode(cfg.messages, cfg.readiness);
  std::vector<uint64_t> delay(cfg.messages, cfg.delay_cycles);
  for (int i = 0; i < cfg.messages; ++i) {
    if (cfg.readiness != Readiness::Random) continue;
    mode[i] = static_cast<Readiness>(rng() % 3);
    delay[i] = cfg.delay_cycles ? rng() % (cfg.delay_cycles + 1) : 0;
  }
  int received = 0, next_early = 0;
  std::multimap<uint64_t, int> due;  // cycle -> message whose RECEIVE to post then
  std::vector<uint8_t> got;
  // Receive buffers are reused only once their message has completed.
  std::vector<int> free_slots;
  for (int s = recv_slots(cfg) - 1; s >= 0; --s) free_slots.push_back(s);
  auto post = [&](int i) {
    const uint32_t n = message_bytes(cfg, i);
    const int slot = free_slots.back();
    free_slots.pop_back();
    const uint64_t buf = cfg.recv_buf + uint64_t(slot) * slot_stride(cfg);
    recs[i].recv_posted = hal.cycles();
    recs[i].bytes = n;
    ami.receive(cfg.sender, static_cast<uint32_t>(i), buf, n,
                [&, i, buf, n, slot](const ami::RecvInfo& info) {
                  MessageRecord& m = recs[i];
                  m.recv_done = hal.cycles();
                  m.info = info;
                  got.resize(n);
                  hal.load(buf, got.data(), n);
                  m.data_ok = info.bytes == n;
                  for (uint32_t j = 0; j < n && m.data_ok; ++j) {
                    if (got[j] != pattern(cfg.seed, i, j)) {
                      m.data_ok = false;
                      if (out.first_error.empty()) {
                        out.first_error =
                            fmt::format("message {} byte {} of {}: got {:#04x}, sent {:#04x}", i, j,
                                        n, got[j], pattern(cfg.seed, i, j));
                      }
                    }
                  }
                  if (!m.data_ok) ++out.bad_messages;
                  free_slots.push_back(slot);
                  ++received;
                });
  };
  ami.set_dispatch([&](int, uint32_t tag, uint32_t) {
    const int i = static_cast<int>(tag);
    if (i < 0 || i >= cfg.messages || mode[i] == Readiness::Early) return;
    due.emplace(hal.cycles() + (mode[i] == Readiness::Delayed ? delay[i] : 0), i);
  });
  while (received < cfg.messages) {
    // Early RECEIVEs stay `window` messages ahead of what has completed.
    // Early RECEIVEs go out while buffers are free (late ones get theirs first).
    while (next_early < cfg.messages && free_slots.size() > due.size() + 1) {
      if (mode[next_early] == Readiness::Early) post(next_early);
      ++next_early;
    }
    while (!due.empty() && due.begin()->first <= hal.cycles() && !free_slots.empty()) {
      post(due.begin()->second);
      due.erase(due.begin());
    }
    ami.advance();
    if (cfg.receiver_load > 0) {
      // The application's own work between progress calls.
      const auto busy = static_cast<uint64_t>(cfg.load_slice_cycles * cfg.receiver_load /
                                              std::max(1e-9, 1 - cfg.receiver_load));
      hal.compute(busy);
    } else {
      ami.idle();
    }
  }
  // Let the last ACKs and credits leave.
  ami.wait_until([&] { return ami.quiescent(); });
  out.messages = std::move(recs);
  out.receiver_stats = ami.stats();
}

}  // namespace hs::fw::ami_stream
