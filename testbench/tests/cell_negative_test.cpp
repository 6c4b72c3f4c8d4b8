// Every rule an SPE's hardware enforces, broken once: the run fails, naming the SPE, the
// command (or channel) and the rule.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "sw/hal/mfc.h"
#include "sw/hal/spe_mmio.h"
#include "sw/hal/spu.h"
#include "testbench/support/node_fixture.h"

using namespace hs;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
namespace amap = hs::hybrid::amap;
namespace spe = hs::cell::spe;
namespace op = hs::cell::spe::op;
namespace ch = hs::cell::spe::ch;
namespace mfc = hs::fw::mfc;
namespace spu = hs::fw::spu;

namespace {

constexpr uint64_t kDram = amap::kAccDram + 0x100000;

struct Case {
  const char* name;
  std::function<void(fw::Hal&)> spu1;  // SPE1's firmware
  std::function<void(fw::Hal&)> ppe;   // or the PPE's
  std::vector<std::string> expect;     // in the first violation
};

void put_list(fw::Hal& hal, const std::vector<spe::ListElement>& list, uint32_t at) {
  hal.store(amap::kSpeLocalStore + at, list.data(), list.size() * sizeof list[0]);
}

std::vector<Case> cases() {
  return {
      {"SizeOfThreeBytes",
       [](fw::Hal& h) { mfc::get(h, 0, kDram, 3, 0); },
       nullptr,
       {"spe1: SPU command GET", "transfer size 3 B", "1, 2, 4 or 8 bytes"}},
      {"SmallTransferMisaligned",
       [](fw::Hal& h) { mfc::get(h, 2, kDram + 2, 4, 0); },
       nullptr,
       {"spe1: SPU command GET", "4-byte aligned"}},
      {"SmallTransferAtAnotherQuadwordOffset",
       [](fw::Hal& h) { mfc::put(h, 4, kDram + 8, 4, 0); },
       nullptr,
       {"spe1: SPU command PUT", "same offset within a quadword"}},
      {"TransferAbove16KiB",
       [](fw::Hal& h) { mfc::get(h, 0, kDram, 16400, 0); },
       nullptr,
       {"spe1: SPU command GET", "multiple of 16 up to 16384"}},
      {"LargeTransferMisaligned",
       [](fw::Hal& h) { mfc::get(h, 16, kDram + 8, 32, 0); },
       nullptr,
       {"spe1: SPU command GET", "16-byte aligned"}},
      {"TransferPastTheLocalStore",
       [](fw::Hal& h) { mfc::get(h, 0x3FF80, kDram, 256, 0); },
       nullptr,
       {"spe1: SPU command GET", "runs past the 256 KiB local store"}},
      {"TagAbove31",
       [](fw::Hal& h) { mfc::get(h, 0, kDram, 16, 32); },
       nullptr,
       {"spe1: SPU command GET", "tag 32 (tags are 0 to 31)"}},
      {"UnknownOpcode",
       [](fw::Hal& h) { mfc::command(h, 0x99, 0, kDram, 16, 0); },
       nullptr,
       {"spe1: SPU command 0x99", "not an MFC command"}},
      {"SndsigOfEightBytes",
       [](fw::Hal& h) {
         mfc::command(h, op::kSndsig, 8, amap::acc_spe(2) + amap::kSpeProblemState + 8, 8, 0);
       },
       nullptr,
       {"spe1: SPU command SNDSIG", "SNDSIG moves 4 bytes"}},
      {"ListOf2049Elements",
       [](fw::Hal& h) { mfc::list(h, op::kGet, 0, 0, 0x30000, 2049 * 8, 0); },
       nullptr,
       {"spe1: SPU command GETL", "1 to 2048 elements"}},
      {"ListNotEightByteAligned",
       [](fw::Hal& h) { mfc::list(h, op::kPut | op::kFenceBit, 0, 0, 0x30004, 16, 0); },
       nullptr,
       {"spe1: SPU command PUTLF", "8-byte aligned"}},
      {"ListElementOfABadSize",
       [](fw::Hal& h) {
         put_list(h, {{128, 0x100000}, {128, 0x100080}, {20, 0x100100}}, 0x30000);
         mfc::list(h, op::kGet, 0, 0, 0x30000, 24, 6);
         mfc::wait_tags(h, 1u << 6);
       },
       nullptr,
       {"spe1: SPU command GETL (tag 6", "list element 2 of 3", "transfer size 20 B"}},
      {"CommandIntoAFullQueue",
       [](fw::Hal& h) {
         // Writes the command channel without waiting for its count, as no SPU can.
         for (int i = 0; i < 17; ++i) {
           spu::write_now(h, ch::kMfcLsa, 0);
           spu::write_now(h, ch::kMfcEal, static_cast<uint32_t>(kDram));
           spu::write_now(h, ch::kMfcSize, 16384);
           spu::write_now(h, ch::kMfcTagId, 0);
           spu::write_now(h, ch::kMfcCmd, op::kGet);
         }
       },
       nullptr,
       {"spe1: channel 21 (MFC_Cmd) written while its count is 0"}},
      {"ReadOfAnEmptyInboundMailbox",
       [](fw::Hal& h) { spu::read_now(h, ch::kRdInMbox); },
       nullptr,
       {"spe1: channel 29 (SPU_RdInMbox) read while its count is 0"}},
      {"WriteOfAFullOutboundMailbox",
       [](fw::Hal& h) {
         spu::write_now(h, ch::kWrOutMbox, 1);
         spu::write_now(h, ch::kWrOutMbox, 2);
       },
       nullptr,
       {"spe1: channel 28 (SPU_WrOutMbox) written while its count is 0"}},
      {"TagUpdateRequestOutOfRange",
       [](fw::Hal& h) { spu::write_now(h, ch::kWrTagUpdate, 3); },
       nullptr,
       {"spe1: tag-status update request 3"}},
      {"AtomicCommandOffItsLine",
       [](fw::Hal& h) { mfc::getllar(h, 0x1000, kDram + 64); },
       nullptr,
       {"spe1: SPU command GETLLAR", "128-byte aligned"}},
      {"AtomicCommandBeforeTheLastStatusWasRead",
       [](fw::Hal& h) {
         mfc::command(h, op::kGetllar, 0x1000, kDram, 128, 0);
         mfc::command(h, op::kGetllar, 0x1000, kDram, 128, 0);
       },
       nullptr,
       {"spe1: SPU command GETLLAR", "before the previous one's atomic status was read"}},
      {"ProxyListCommand",
       nullptr,
       [](fw::Hal& h) {
         fw::spe_mmio::try_proxy_command(h, {0, 1}, op::kGet | op::kListBit, 0, 0x30000, 16, 0);
       },
       {"spe1: proxy command GETL", "the proxy queue takes no list or atomic commands"}},
      {"ProxyTransferMisaligned",
       nullptr,
       [](fw::Hal& h) {
         fw::spe_mmio::try_proxy_command(h, {0, 1}, op::kPut, 8, kDram, 64, 0);
       },
       {"spe1: proxy command PUT", "16-byte aligned"}},
  };
}

class CellRule : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST_P(CellRule, BrokenOnceFailsTheRunNamingTheSpeTheCommandAndTheRule) {
  const Case& c = GetParam();
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  if (c.spu1) acc.spes[1]->spu.set_firmware(c.spu1);
  if (c.ppe) acc.ppe->set_firmware(c.ppe);
  sc_core::sc_start();
  ASSERT_FALSE(CheckRegistry::instance().ok());
  const std::string v = first_violation();
  for (const std::string& e : c.expect) EXPECT_NE(v.find(e), std::string::npos) << e << "\n" << v;
}

INSTANTIATE_TEST_SUITE_P(Spe, CellRule, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });
