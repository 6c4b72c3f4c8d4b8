#include "sw/apps/cell_mfc_mix.h"

#include <algorithm>

#include "hw/hybrid/address_map.h"
#include "sw/hal/mfc.h"
#include "sw/hal/spe_mmio.h"

namespace hs::fw::cell_mix {

namespace op = cell::spe::op;
namespace amap = hybrid::amap;

uint64_t dram_source(int spe) {
  return 0x0100'0000 + static_cast<uint64_t>(spe) * 0x4'0000;
}
uint64_t dram_destination(int spe) {
  return 0x0200'0000 + static_cast<uint64_t>(spe) * 0x10'0000;
}

uint8_t source_byte(int spe, bool dram, uint64_t offset) {
  return static_cast<uint8_t>(spe * 37 + (dram ? 101 : 7) + offset * 13 + (offset >> 9));
}

namespace {

constexpr uint32_t kLsGet = 0x1'0000, kLsGetEnd = 0x3'0000;
constexpr uint32_t kLsList = 0x3'0000, kLsListEnd = 0x3'C000;
constexpr uint32_t kLsProxy = 0x3'C000, kLsProxyEnd = 0x4'0000;
constexpr uint64_t kSourceBytes = 0x4'0000;
constexpr uint64_t kHalf = 0x8'0000;

// A bump allocator over [next, end): 16-byte chunks, some on 128-byte boundaries.
struct Area {
  uint64_t next, end;
  bool take(uint32_t bytes, uint32_t align, uint64_t& at) {
    const uint64_t a = (next + align - 1) / align * align;
    const uint64_t span = std::max<uint32_t>(16, (bytes + 15) / 16 * 16);
    if (a + span > end) return false;
    at = a;
    next = a + span;
    return true;
  }
};

class Planner {
 public:
  Planner(const Config& cfg, int spe, uint64_t seed)
      : cfg_(cfg),
        spe_(spe),
        rng_(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(spe) + 1),
        ls_get_{kLsGet, kLsGetEnd},
        ls_list_{kLsList, kLsListEnd},
        ls_proxy_{kLsProxy, kLsProxyEnd},
        dram_put_{dram_destination(spe), dram_destination(spe) + kHalf},
        dram_proxy_{dram_destination(spe) + kHalf, dram_destination(spe) + 2 * kHalf} {}

  Plan make() {
    Plan p;
    for (int i = 0; i < cfg_.commands; ++i) p.spu.push_back(step(p, false));
    for (int i = 0; i < cfg_.proxy_commands; ++i) p.proxy.push_back(step(p, true));
    return p;
  }

 private:
  uint32_t draw(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
  uint32_t size() {
    if (draw(10) < 3) return 1u << draw(4);  // 1, 2, 4 or 8
    return 16 * (1 + draw(std::max<uint32_t>(1, cfg_.max_bytes / 16)));
  }
  // A quadword offset for a transfer of `bytes` (0 from 16 bytes up).
  uint32_t offset(uint32_t bytes) { return bytes >= 16 ? 0 : draw(16 / bytes) * bytes; }
  uint32_t align() { return draw(4) == 0 ? 128 : 16; }
  uint32_t ordering(uint32_t base) {
    const uint32_t r = draw(20);
    return base | (r < 3 ? op::kFenceBit : r < 6 ? op::kBarrierBit : 0);
  }
  uint32_t tag() { return draw(cfg_.tags); }

  // A GET from the DRAM source into `dst`, or a PUT from the local-store source into `dst`.
  bool copy(Plan& p, bool get, Area& dst, uint32_t bytes, uint32_t& lsa, uint64_t& ea) {
    const uint32_t q = offset(bytes);
    uint64_t at = 0;
    if (!dst.take(bytes + q, align(), at)) return false;
    if (get) {
      const uint64_t src = (rng_() % ((kSourceBytes - bytes - 16) / 16)) * 16 + q;
      lsa = static_cast<uint32_t>(at + q);
      ea = amap::kAccDram + dram_source(spe_) + src;
      p.copies.push_back({true, src, lsa, bytes});
    } else {
      lsa = static_cast<uint32_t>((rng_() % ((kLsSourceBytes - bytes - 16) / 16)) * 16 + q);
      ea = amap::kAccDram + at + q;
      p.copies.push_back({false, lsa, at + q, bytes});
    }
    return true;
  }

  Step list(Plan& p) {
    const bool get = draw(2) == 0;
    const auto n = 1 + draw(draw(4) == 0 ? 32 : 8);
    std::vector<uint32_t> sizes(n);
    uint64_t span = 0;
    for (auto& s : sizes) {
      s = draw(8) == 0 ? 0 : size();
      span += std::max<uint32_t>(s, 16);
    }
    Step st;
    st.kind = Step::List;
    uint64_t list_at = 0, start = 0;
    if (!ls_list_.take(n * 8, 16, list_at)) return wait();
    if (get) {
      if (!ls_get_.take(static_cast<uint32_t>(span), 16, start)) return wait();
    } else {
      if (span + 32 > kLsSourceBytes) return wait();
      start = (rng_() % ((kLsSourceBytes - span - 16) / 16)) * 16;
    }
    std::vector<Copy> copies;  // the plan's only once the whole list is drawn
    uint64_t running = start;
    for (uint32_t s : sizes) {
      const uint32_t q = s == 0 ? 0 : offset(s);
      uint64_t ea = 0;
      if (get) {
        ea = dram_source(spe_) + (rng_() % ((kSourceBytes - s - 16) / 16)) * 16 + q;
      } else {
        uint64_t at = 0;
        if (!dram_put_.take(s + q, align(), at)) return wait();
        ea = at + q;
      }
      const auto lsa = static_cast<uint32_t>((running & ~uint64_t{15}) | (ea & 15));
      if (s > 0) {
        copies.push_back(get ? Copy{true, ea - dram_source(spe_), lsa, s}
                             : Copy{false, lsa, ea, s});
      }
      st.list.push_back({s, static_cast<uint32_t>(amap::kAccDram + ea)});
      running = (running & ~uint64_t{15}) + std::max<uint32_t>(s, 16);
    }
    p.copies.insert(p.copies.end(), copies.begin(), copies.end());
    if (n >= 2 && draw(5) == 0) {
      st.list[draw(n - 1)].word0 |= 0x8000'0000u;
      st.stalls = true;
    }
    st.opcode = ordering(get ? op::kGet : op::kPut) | op::kListBit;
    st.lsa = static_cast<uint32_t>(start);
    st.list_lsa = static_cast<uint32_t>(list_at);
    st.size = n * 8;
    st.tag = tag();
    return st;
  }

  Step wait() {
    Step st;
    st.kind = Step::Wait;
    st.wait_mask = 1u << tag();
    if (draw(2) == 0) st.wait_mask |= 1u << tag();
    st.wait_mode = draw(3);
    return st;
  }

  Step step(Plan& p, bool proxy) {
    const uint32_t r = draw(100);
    if (!proxy && r < 12) return list(p);
    if (!proxy && r < 22) return wait();
    Step st;
    st.kind = Step::Command;
    st.tag = tag();
    if (r < 27) {
      const uint32_t kinds[] = {op::kBarrier, op::kEieio, op::kSync};
      st.opcode = kinds[draw(3)];
      return st;
    }
    const bool get = draw(2) == 0;
    st.size = size();
    Area& dst = get ? (proxy ? ls_proxy_ : ls_get_) : (proxy ? dram_proxy_ : dram_put_);
    if (!copy(p, get, dst, st.size, st.lsa, st.ea)) return proxy ? barrier() : wait();
    st.opcode = ordering(get ? op::kGet : op::kPut);
    return st;
  }
  Step barrier() {
    Step st;
    st.kind = Step::Command;
    st.opcode = op::kBarrier;
    st.tag = tag();
    return st;
  }

  const Config& cfg_;
  int spe_;
  std::mt19937_64 rng_;
  Area ls_get_, ls_list_, ls_proxy_, dram_put_, dram_proxy_;
};

}  // namespace

Plan make_plan(const Config& cfg, int spe, uint64_t seed) {
  return Planner(cfg, spe, seed).make();
}

void spu_program(Hal& hal, const Plan& plan) {
  Phase ph(hal, "MFC command mix");
  for (const Step& s : plan.spu) {
    switch (s.kind) {
      case Step::Command:
        mfc::command(hal, s.opcode, s.lsa, s.ea, s.size, s.tag);
        break;
      case Step::List:
        hal.store(amap::kSpeLocalStore + s.list_lsa, s.list.data(), s.list.size() * 8);
        mfc::command(hal, s.opcode, s.lsa, s.list_lsa, s.size, s.tag);
        if (s.stalls) {
          mfc::list_stall_status(hal);
          mfc::ack_list_stall(hal, s.tag);
        }
        break;
      case Step::Wait:
        mfc::tag_status(hal, s.wait_mask, s.wait_mode);
        break;
    }
  }
  mfc::wait_tags(hal, ~0u);
}

void ppe_program(Hal& hal, const std::vector<const Plan*>& plans) {
  Phase ph(hal, "proxy command mix");
  for (size_t i = 0; i < plans.size(); ++i) {
    const spe_mmio::Spe s{0, static_cast<int>(i)};
    for (const Step& st : plans[i]->proxy) {
      spe_mmio::proxy_command(hal, s, st.opcode, st.lsa, st.ea, st.size, st.tag);
    }
    spe_mmio::proxy_tag_status(hal, s, ~0u, 2);
  }
}

}  // namespace hs::fw::cell_mix
