// A stream of AMI messages from a sender endpoint to a receiver endpoint, with the receiver
// posting each RECEIVE early (before the message arrives), late (when its SEND header
// arrives) or delayed (a fixed time after that), optionally while busy computing. Both sides
// record times on their timebases (the same clock everywhere) and the receiver checks every
// byte it receives.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/ami/ami.h"

namespace hs::fw::ami_stream {

enum class Readiness { Early, Late, Delayed, Random };
bool parse_readiness(const std::string& s, Readiness& out);

struct Config {
  int sender = 0, receiver = 1;  // adapter endpoint numbers
  int messages = 4;
  uint32_t bytes = 65536;
  bool random_sizes = false;  // sizes log-uniform in [32, bytes]
  Readiness readiness = Readiness::Early;
  uint64_t delay_cycles = 0;  // Delayed: after the SEND header; Random: up to this
  int window = 1;             // messages in flight
  double receiver_load = 0;   // share of the receiver's time spent computing between advances
  uint64_t load_slice_cycles = 2000;
  uint64_t seed = 1;
  uint64_t send_buf = 0x4000'0000, recv_buf = 0x6000'0000;
};

struct MessageRecord {
  uint32_t bytes = 0;
  uint64_t send_posted = 0, send_done = 0;  // cycles
  uint64_t recv_posted = 0, recv_done = 0;
  ami::RecvInfo info;
  bool data_ok = false;
};

struct Results {
  std::vector<MessageRecord> messages;
  ami::AmiStats sender_stats, receiver_stats;
  int bad_messages = 0;
  std::string first_error;
};

// The bytes of message i (both sides compute them).
uint8_t pattern(uint64_t seed, int message, uint32_t offset);
uint32_t message_bytes(const Config& cfg, int i);

using AdapterFactory = std::function<std::unique_ptr<ami::Adapter>(Hal&)>;

void sender(Hal& hal, const Config& cfg, const ami::AmiConfig& acfg, const AdapterFactory& make,
            ami::AmiTrace* trace, Results& out);
void receiver(Hal& hal, const Config& cfg, const ami::AmiConfig& acfg, const AdapterFactory& make,
              ami::AmiTrace* trace, Results& out);

}  // namespace hs::fw::ami_stream
