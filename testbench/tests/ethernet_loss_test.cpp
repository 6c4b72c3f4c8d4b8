// Ethernet frame loss and the SLMPM's recovery from it. A lost frame is never delivered, is
// counted, and returns its receive-buffer credit; the SLMPM's Ethernet rings detect the lost
// packet or counter copy (sequence number and checksum per packet, K without progress) and
// rewrite it after the resend timeout, so every message still arrives intact (the accelerator
// checks every byte). A link that loses everything fails the transfer with an error naming the
// link, the message and its tag; bad parameters are refused naming the parameter.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "testbench/support/scenario_run.h"

using Json = nlohmann::json;
using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;

namespace {

// Sends only, every one over Ethernet (MAC IDs) as a shared-memory transfer.
std::vector<std::string> ethernet_sends(uint64_t messages, std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {"workload.ids=mac", "workload.operations=send",
                                   fmt::format("workload.messages={}", messages),
                                   "workload.max_bytes=1024"};
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

uint64_t stat(const Json& r, const char* group, const char* name) {
  return r["stats"][group][name].get<uint64_t>();
}
uint64_t result(const Json& r, const char* name) {
  return r["results"][name].get<uint64_t>();
}
double elapsed_us(const Json& r) {
  return r["results"]["elapsed_us"].get<double>();
}

constexpr const char* kDown = "node0.eth0.down";
constexpr const char* kUp = "node0.eth0.up";

}  // namespace

// Frame 5 downstream carries a packet of the host-to-accelerator ring. Lost, the accelerator
// stops at its segment (seq and checksum do not match); the host's ring writer, seeing K make
// no progress for the resend timeout, rewrites the one unacknowledged packet and J. The run
// costs about the timeout more than a loss-free run: at least the timeout less 5 us (the timer
// runs from K's last progress, which may precede the lost packet's write by a few packets) and
// at most the timeout plus 10 us (the rewrite's two frames, their flight and the polling).
TEST(EthernetLoss, OneLostFrameCostsOneResendTimeout) {
  const std::vector<std::string> common = {"workload.window=1",
                                           "node0.host.slmpm.ethernet_resend_timeout=100"};
  auto clean_sets = ethernet_sends(6, common);
  auto lossy_sets = clean_sets;
  lossy_sets.push_back(std::string(kDown) + ".frame_loss_at=5");
  const Json clean = run_scenario("slmpm_messages", clean_sets, 1);
  const Json lossy = run_scenario("slmpm_messages", lossy_sets, 1);
  ASSERT_TRUE(passed(clean)) << violations(clean);
  ASSERT_TRUE(passed(lossy)) << violations(lossy);
  EXPECT_EQ(result(lossy, "delivered"), 6u);
  EXPECT_EQ(stat(lossy, kDown, "frames_lost"), 1u);
  EXPECT_EQ(stat(lossy, kUp, "frames_lost"), 0u);
  EXPECT_EQ(stat(clean, kDown, "frames_lost"), 0u);
  EXPECT_EQ(result(lossy, "ethernet_resends"), 1u);
  EXPECT_EQ(result(clean, "ethernet_resends"), 0u);
  // The lost frame occupied the wire: the rewrite sends two more frames than the clean run.
  EXPECT_EQ(stat(lossy, kDown, "frames"), stat(clean, kDown, "frames") + 2);
  const double cost = elapsed_us(lossy) - elapsed_us(clean);
  EXPECT_GE(cost, 95.0);
  EXPECT_LE(cost, 110.0);
}

// A lost counter copy (K, upstream from the reader) is recovered too: the writer's rewrite
// carries a new epoch in J, and the reader publishes K again.
TEST(EthernetLoss, LostReadCounterIsPublishedAgain) {
  // Upstream frame 2 is the accelerator's first K publication (frame 1: the first SMT ack).
  auto sets = ethernet_sends(4, {"workload.window=1", std::string(kUp) + ".frame_loss_at=1,2"});
  const Json r = run_scenario("slmpm_messages", sets, 1);
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(result(r, "delivered"), 4u);
  EXPECT_EQ(stat(r, kUp, "frames_lost"), 2u);
}

// Loss rates up to 1e-2 on both directions over several seeds: every message arrives intact,
// the counters equal the frames lost, and the resends never outnumber the losses.
TEST(EthernetLoss, RateBasedLossDeliversEveryMessageOverSeeds) {
  uint64_t lost_total = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (const char* rate : {"1e-3", "1e-2"}) {
      const Json r = run_scenario(
          "slmpm_messages",
          ethernet_sends(40, {"workload.window=4", "node0.host.slmpm.ethernet_resend_timeout=50",
                              std::string(kDown) + ".frame_loss_rate=" + rate,
                              std::string(kUp) + ".frame_loss_rate=" + rate}),
          seed);
      ASSERT_TRUE(passed(r)) << "seed " << seed << " rate " << rate << ": " << violations(r);
      EXPECT_EQ(result(r, "delivered"), 40u) << "seed " << seed;
      const uint64_t lost = stat(r, kDown, "frames_lost") + stat(r, kUp, "frames_lost");
      const uint64_t frames = stat(r, kDown, "frames") + stat(r, kUp, "frames");
      EXPECT_LE(result(r, "ethernet_resends"), lost) << "seed " << seed;
      EXPECT_LT(lost, frames * 0.05) << "seed " << seed;
      lost_total += lost;
    }
  }
  EXPECT_GT(lost_total, 0u);
}

// A full receive buffer must still drain when frames are lost: the receiver frees a dropped
// frame's buffer slot as for a frame taken. With a one-frame buffer a leaked credit would stop
// the link for good.
TEST(EthernetLoss, LostFramesReturnTheirCredits) {
  const Json r = run_scenario(
      "slmpm_messages",
      ethernet_sends(8, {"node0.eth0.rx_buffer=1", std::string(kDown) + ".frame_loss_at=3,4,9",
                         std::string(kUp) + ".frame_loss_at=2"}),
      1);
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(result(r, "delivered"), 8u);
  EXPECT_EQ(stat(r, kDown, "frames_lost"), 3u);
  EXPECT_EQ(stat(r, kUp, "frames_lost"), 1u);
  EXPECT_GT(stat(r, kDown, "paused_frames"), 0u);
}

// A link losing every frame downstream: the host rewrites the first header `retries` times,
// then the transfer fails naming the link, the message and its tag.
TEST(EthernetLoss, LinkLosingEverythingFailsNamingLinkMessageAndTag) {
  std::string all;
  for (int i = 1; i <= 100; ++i) all += (i > 1 ? "," : "") + std::to_string(i);
  const Json r = run_scenario(
      "slmpm_messages",
      ethernet_sends(2, {"workload.window=1", std::string(kDown) + ".frame_loss_at=" + all,
                         "node0.host.slmpm.ethernet_resend_timeout=20",
                         "node0.host.slmpm.ethernet_resend_retries=3"}),
      1);
  ASSERT_FALSE(passed(r));
  const std::string text = r.dump();
  EXPECT_NE(text.find("Ethernet link 0 (host to accelerator): SMT header of tag 1 (packet 1) not "
                      "acknowledged after 3 resends, 20 us apart: the transfer failed"),
            std::string::npos)
      << text;
  EXPECT_EQ(stat(r, kDown, "frames_lost"), 8u);  // header and J, first and three rewrites
}

TEST(EthernetLoss, BadParametersAreRefusedNamingTheParameter) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"node0.eth0.down.frame_loss_rate=0.6", "'node0.eth0.down.frame_loss_rate'"},
      {"node0.eth0.up.frame_loss_rate=-0.1", "'node0.eth0.up.frame_loss_rate'"},
      {"node0.eth0.up.frame_loss_at=3,x", "'node0.eth0.up.frame_loss_at'"},
      {"node0.eth0.down.frame_loss_at=0", "'node0.eth0.down.frame_loss_at'"},
      {"node0.host.slmpm.ethernet_resend_timeout=0", "'node0.host.slmpm.ethernet_resend_timeout'"},
      {"node0.host.slmpm.ethernet_resend_retries=0", "'node0.host.slmpm.ethernet_resend_retries'"},
  };
  for (const auto& [set, expected] : bad) {
    const Json r = run_scenario("slmpm_messages", ethernet_sends(2, {set}), 1);
    ASSERT_TRUE(r.contains("error")) << set << " was accepted";
    const std::string e = r["error"].get<std::string>();
    EXPECT_NE(e.find(expected), std::string::npos) << set << ": " << e;
  }
}
