// Memory bounds: an access beyond a memory's size is an address error that fails the run,
// never a write outside the storage; loaders and checkers are refused the same way; and a
// memory too small for what is placed in it is refused before the run, naming its size
// parameter.
#include <gtest/gtest.h>

#include <cstdint>
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
