// Memory bounds: an access beyond a memory's size is an address error that fails the run,
// never a write outside the storage; loaders and checkers are refused the same way; and a
// memory too small for what is placed in it is refused before the run, naming its size
// parameter. Host windows: a range of simulated memory that is host memory, for reads, writes
// (timed and debug) and accesses straddling their edges; read-only ones refuse writes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "testbench/support/scripted_initiator.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/memory/memory.h"
#include "tlm/params/param_registry.h"

using namespace hs;
using hs::testing::ScriptedInitiator;

namespace {
constexpr MemoryDefaults kSmall{4096, 10, 1, uint64_t{1} << 30};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(MemoryBounds, AccessesBeyondTheEndAreAddressErrorsThatFailTheRun) {
  Memory mem("mem", kSmall);
  std::vector<tlm::tlm_response_status> got;
  ScriptedInitiator cpu("cpu", [&](ScriptedInitiator& self) {
    uint8_t buf[64] = {};
    got.push_back(self.write(4096 - 64, buf, 64));       // the last 64 bytes: fine
    got.push_back(self.write(4096 - 32, buf, 64));       // straddles the end
    got.push_back(self.read(0x10'0000, buf, 8));         // far beyond
    got.push_back(self.read(~uint64_t{0} - 3, buf, 8));  // the length wraps the address
  });
  cpu.socket.bind(mem.socket);
  // Each failure pauses the kernel at the end of its delta; resume until the script is done.
  for (int i = 0; i < 4 && got.size() < 4; ++i) sc_core::sc_start();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(got[1], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(got[2], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(got[3], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  const auto& v = CheckRegistry::instance().violations();
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].component, "mem");
  EXPECT_NE(v[0].message.find("write of 64 B at 0xfe0 is beyond the memory's 4096 B (mem.size)"),
            std::string::npos)
      << v[0].message;
}

TEST(MemoryBounds, PeekAndPokeBeyondTheEndThrowModelErrorsNamingTheAccess) {
  Memory mem("dram", kSmall);
  uint8_t buf[16] = {};
  mem.poke(4096 - 16, buf, 16);
  mem.peek(4096 - 16, buf, 16);
  EXPECT_THROW(mem.poke(4096 - 8, buf, 16), ModelError);
  const std::string e = error_of([&] { mem.peek(1 << 20, buf, 16); });
  EXPECT_NE(e.find("dram: peek of 16 B at 0x100000 is beyond the memory's 4096 B (dram.size)"),
            std::string::npos)
      << e;
  EXPECT_THROW(mem.peek(~uint64_t{0}, buf, 2), ModelError);
}

TEST(MemoryBounds, RequireRefusesASizeThatCannotHoldTheLayoutNamingTheParameter) {
  Memory mem("host_dram", kSmall);
  mem.require(4096, "all of it");
  const std::string e = error_of([&] { mem.require(8192, "two pages"); });
  EXPECT_EQ(e,
            "parameter 'host_dram.size' = 4096 B is too small for two pages: it needs at "
            "least 8192 B");
}

TEST(MemoryBounds, ReplicatedMemoriesNameTheirSharedSizeParameter) {
  struct Node : sc_core::sc_module {
    explicit Node(sc_core::sc_module_name n) : sc_module(n), dram("dram", kSmall) {}
    Memory dram;
  };
  std::unique_ptr<Node> node;
  {
    SharedParams shared("n3", "node");
    node = std::make_unique<Node>("n3");
  }
  EXPECT_EQ(node->dram.size_parameter(), "node.dram.size");
  const std::string e = error_of([&] { node->dram.require(4097, "a buffer"); });
  EXPECT_NE(e.find("parameter 'node.dram.size' = 4096 B"), std::string::npos) << e;
}

namespace {
constexpr MemoryDefaults kLarge{64 << 20, 10, 1, uint64_t{1} << 30};  // sparse, 4 KiB pages

// Page-aligned host memory.
struct HostPages {
  explicit HostPages(size_t n) : bytes(n), p(static_cast<uint8_t*>(std::aligned_alloc(4096, n))) {
    std::memset(p, 0, n);
  }
  ~HostPages() { std::free(p); }
  size_t bytes;
  uint8_t* p;
};
}  // namespace

TEST(HostWindows, SimulatedAccessesReachTheHostBytesAndStraddleTheEdges) {
  for (const MemoryDefaults& d : {kSmall, kLarge}) {
    SCOPED_TRACE(d.size_bytes);
    Memory mem(d.size_bytes == kSmall.size_bytes ? "flat" : "sparse", d);
    HostPages host(4096);
    const uint64_t at = d.size_bytes == kSmall.size_bytes ? 0 : 8192;
    uint8_t before[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    if (at > 0) mem.poke(at, before, 8);  // dropped by the window
    mem.map_host_window(at, host.p, 4096, true);
    uint8_t v[8];
    mem.peek(at, v, 8);
    EXPECT_EQ(v[0], 0);  // what the range held is gone
    host.p[100] = 42;
    mem.peek(at + 100, v, 1);
    EXPECT_EQ(v[0], 42);
    const uint8_t w[4] = {9, 8, 7, 6};
    mem.poke(at + 200, w, 4);
    EXPECT_EQ(host.p[203], 6);
    EXPECT_EQ(mem.host_pointer(at + 200, 4), host.p + 200);
    EXPECT_EQ(mem.host_pointer(at + 4090, 16), nullptr);  // not all in the window
    if (at > 0) {
      // An access straddling the window's lower edge: part pages, part host bytes.
      const uint8_t x[8] = {11, 12, 13, 14, 15, 16, 17, 18};
      mem.poke(at - 4, x, 8);
      EXPECT_EQ(host.p[0], 15);
      uint8_t y[8];
      mem.peek(at - 4, y, 8);
      EXPECT_EQ(0, std::memcmp(x, y, 8));
    }
    mem.unmap_host_window(at);
    mem.peek(at + 100, v, 1);
    EXPECT_EQ(v[0], 0);  // reads as zero again
  }
}

TEST(HostWindows, MisalignedOrOverlappingWindowsAreRefused) {
  Memory mem("dram", kLarge);
  HostPages host(3 * 4096);
  EXPECT_NE(error_of([&] {
              mem.map_host_window(100, host.p, 4096, true);
            }).find("windows cover whole 4 KiB pages"),
            std::string::npos);
  mem.map_host_window(4096, host.p, 2 * 4096, true);
  EXPECT_NE(error_of([&] {
              mem.map_host_window(8192, host.p + 8192, 4096, true);
            }).find("overlaps the window [0x1000, 0x3000)"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              mem.map_host_window(64 << 20, host.p, 4096, true);
            }).find("host window of 4096 B at 0x4000000 is beyond the memory"),
            std::string::npos);
}

TEST(HostWindows, AWriteIntoAReadOnlyWindowIsACommandErrorThatFailsTheRun) {
  Memory mem("mem", kLarge);
  HostPages host(4096);
  host.p[0] = 5;
  mem.map_host_window(4096, host.p, 4096, false);
  std::vector<tlm::tlm_response_status> got;
  ScriptedInitiator cpu("cpu", [&](ScriptedInitiator& self) {
    uint8_t buf[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    got.push_back(self.read(4096, buf, 8));
    got.push_back(self.write(4096 - 4, buf, 8));  // touches it: refused whole
  });
  cpu.socket.bind(mem.socket);
  for (int i = 0; i < 3 && got.size() < 2; ++i) sc_core::sc_start();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(got[1], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(host.p[0], 5);
  uint8_t v[4];
  mem.peek(4096 - 4, v, 4);
  EXPECT_EQ(v[0], 0);  // nothing of the refused write landed below the window either
  const auto& viol = CheckRegistry::instance().violations();
  ASSERT_FALSE(viol.empty());
  EXPECT_NE(viol[0].message.find("write of 8 B at 0xffc touches a read-only host window"),
            std::string::npos)
      << viol[0].message;
  EXPECT_THROW(mem.poke(4096, v, 4), ModelError);
}
