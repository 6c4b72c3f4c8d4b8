// Ping-pong between two torus nodes through the messaging layer: node A sends a message, node
// B receives it and sends one of the same size back; A times each round trip on its timebase.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/dcmf/messenger.h"

namespace hs::fw::pingpong {

struct Config {
  int a = 0, b = 1;
  uint32_t bytes = 1024;
  uint32_t recv_bytes = 0;  // size each receive is posted with (0: the message size)
  dcmf::Protocol protocol = dcmf::Protocol::Auto;
  int iterations = 3;
  int warmup = 1;  // round trips not timed
  uint64_t send_buf = dcmf::layout::kAppMemory;
  uint64_t recv_buf = dcmf::layout::kAppMemory + (uint64_t{64} << 20);
};

struct Results {
  std::vector<uint64_t> round_trip_cycles;  // timed round trips, A's core cycles
  dcmf::ReceiveInfo last_at_b;              // how B's last message arrived
  uint64_t a_bytes_copied = 0, b_bytes_copied = 0;
};

void node_a(Hal& hal, const Config& cfg, const dcmf::MessengerConfig& mcfg,
            const hs::torus::TorusShape& shape, Results& out);
void node_b(Hal& hal, const Config& cfg, const dcmf::MessengerConfig& mcfg,
            const hs::torus::TorusShape& shape, Results& out);

}  // namespace hs::fw::pingpong
