// A workload of one's own: SPEs scale a vector of 32-bit words in the Cell's memory, each SPE
// a slice: GET it into the local store, multiply, PUT it back. Registered with the runner like
// the built-in workloads, so a scenario file names it and the report shows its results.
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "sw/hal/mfc.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace amap = hs::hybrid::amap;

namespace {

constexpr uint64_t kVector = 0x10'0000;  // in the accelerator's DRAM
constexpr uint32_t kMaxWords = 4096;     // 16 KiB per SPE: one MFC command

void scale_slice(hs::fw::Hal& hal, uint64_t ea, uint32_t words, uint32_t factor) {
  namespace mfc = hs::fw::mfc;
  mfc::get(hal, 0, ea, words * 4, 0);
  mfc::wait_tags(hal, 1u << 0);
  std::vector<uint32_t> slice(words);
  hal.load(amap::kSpeLocalStore, slice.data(), words * 4);
  for (auto& w : slice) w *= factor;
  hal.compute(words);  // one multiply per cycle
  hal.store(amap::kSpeLocalStore, slice.data(), words * 4);
  mfc::put(hal, 0, ea, words * 4, 1);
  mfc::wait_tags(hal, 1u << 1);
}

}  // namespace

HYBRIDSIM_WORKLOAD(spe_scale, hs::runner::HybridModel,
                   "SPEs scale a vector in the Cell's memory, a slice each") {
  m.results_declared.declare({
      {"words", "words", "the vector's length"},
      {"time_us", "us", "until the last SPE's PUT completed"},
      {"GBps", "GB/s", "bytes read and written per second, all SPEs together"},
  });
  hs::ParamScope p("workload");
  const auto spes = static_cast<uint32_t>(
      p.integer("spes", 4, "", "SPEs sharing the vector", hs::Range::between(1, 8)));
  const auto words = static_cast<uint32_t>(p.integer("words", kMaxWords, "words",
                                                     "words per SPE (a multiple of 4)",
                                                     hs::Range::between(4, kMaxWords)));
  const auto factor = static_cast<uint32_t>(
      p.integer("factor", 3, "", "what every word is multiplied by", hs::Range::between(0, 1000)));
  if (words % 4 != 0) {
    throw hs::InputError(fmt::format("workload.words = {}: must be a multiple of 4", words));
  }
  auto& acc = *m.node.accelerators[0];
  if (spes > acc.spes.size()) {
    throw hs::InputError(fmt::format("workload.spes = {}: node0.acc0.spes = {} SPEs are built",
                                     spes, acc.spes.size()));
  }
  // The input, written into the model's memory before the run (a backdoor: no time passes).
  std::vector<uint32_t> input(static_cast<size_t>(spes) * words);
  std::iota(input.begin(), input.end(), 1u);
  acc.dram->poke(kVector, input.data(), input.size() * 4);

  auto end = std::make_shared<sc_core::sc_time>();
  for (uint32_t s = 0; s < spes; ++s) {
    const uint64_t ea = amap::kAccDram + kVector + uint64_t{s} * words * 4;
    acc.spes[s]->spu.set_firmware([=](hs::fw::Hal& hal) {
      scale_slice(hal, ea, words, factor);
      *end = std::max(*end, sc_core::sc_time_stamp());
    });
  }
  hs::Memory* dram = acc.dram.get();
  m.results = [=] {
    std::vector<uint32_t> out(input.size());
    dram->peek(kVector, out.data(), out.size() * 4);
    size_t wrong = 0;
    for (size_t i = 0; i < out.size(); ++i) wrong += out[i] != input[i] * factor;
    hs::CheckRegistry::instance().check_finished_work(
        "spe_scale: every word is scaled", wrong == 0, "workload",
        [&] { return fmt::format("{} of {} words are not", wrong, out.size()); });
    const double us = end->to_seconds() * 1e6;
    return nlohmann::json{
        {"words", out.size()},
        {"time_us", us},
        {"GBps", us > 0 ? 8.0 * static_cast<double>(out.size()) / us / 1e3 : 0.0}};
  };
}
