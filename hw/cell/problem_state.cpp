#include "hw/cell/problem_state.h"

#include "hw/cell/spe_interface.h"
#include "tlm/params/param_registry.h"

namespace hs::cell {

namespace ps = spe::ps;
namespace priv2 = spe::priv2;

namespace {
sc_core::sc_time mmio_latency(const char* scope) {
  return sc_core::sc_time(ParamScope(scope).real("latency", 2.0, "ns",
                                                 "a problem-state register access, once it "
                                                 "has reached the SPE",
                                                 Range::between(0, 1000)),
                          sc_core::SC_NS);
}
}  // namespace

ProblemState::ProblemState(sc_core::sc_module_name name, Mfc& mfc, SpuChannels& channels)
    : sc_module(name),
      latency_(mmio_latency(this->name())),
      ps_("regs", latency_),
      priv2_("priv2", latency_) {
  auto w32 = [](uint32_t& r) { return [&r](uint64_t v) { r = static_cast<uint32_t>(v); }; };
  ps_.define(
      ps::kMfcLsa, 4, "MFC_LSA", [this] { return lsa_; }, w32(lsa_));
  ps_.define(
      ps::kMfcEa, 8, "MFC_EA", [this] { return ea_; }, [this](uint64_t v) { ea_ = v; });
  ps_.define(
      ps::kMfcSizeTag, 4, "MFC_Size_Tag", [this] { return size_tag_; }, w32(size_tag_));
  ps_.define(
      ps::kMfcClassCmd, 4, "MFC_ClassID_CMD", [this] { return cmd_status_; },
      [this, &mfc](uint64_t v) {
        cmd_status_ = mfc.proxy_command(
            {static_cast<uint32_t>(v), lsa_, ea_, size_tag_ >> 16, size_tag_ & 0xFFFF});
      });
  ps_.define(
      ps::kMfcQStatus, 4, "MFC_QStatus",
      [&mfc] {
        return mfc.free_entries(MfcIssuer::Proxy) |
               (mfc.queue_empty(MfcIssuer::Proxy) ? ps::kQStatusEmpty : 0u);
      },
      nullptr);
  ps_.define(
      ps::kPrxyQueryType, 4, "Prxy_QueryType", [&mfc] { return mfc.proxy_query_type(); },
      [&mfc](uint64_t v) { mfc.set_proxy_query_type(static_cast<uint32_t>(v)); });
  ps_.define(
      ps::kPrxyQueryMask, 4, "Prxy_QueryMask", [&mfc] { return mfc.proxy_query_mask(); },
      [&mfc](uint64_t v) { mfc.set_proxy_query_mask(static_cast<uint32_t>(v)); });
  ps_.define(
      ps::kPrxyTagStatus, 4, "Prxy_TagStatus", [&mfc] { return mfc.read_proxy_tag_status(); },
      nullptr);
  ps_.define(
      ps::kSpuOutMbox, 4, "SPU_Out_Mbox", [&channels] { return channels.mmio_read_out_mbox(); },
      nullptr);
  ps_.define(ps::kSpuInMbox, 4, "SPU_In_Mbox", nullptr,
             [&channels](uint64_t v) { channels.mmio_write_in_mbox(static_cast<uint32_t>(v)); });
  ps_.define(
      ps::kSpuMboxStat, 4, "SPU_Mbox_Stat", [&channels] { return channels.mbox_stat(); }, nullptr);
  ps_.define(
      ps::kSpuRunCntl, 4, "SPU_RunCntl", [&channels] { return channels.run_control(); },
      [&channels](uint64_t v) { channels.run_control(static_cast<uint32_t>(v)); });
  ps_.define(
      ps::kSpuStatus, 4, "SPU_Status", [&channels] { return channels.status(); }, nullptr);
  ps_.define(
      ps::kSpuNpc, 4, "SPU_NPC", [&channels] { return channels.npc(); },
      [&channels](uint64_t v) { channels.set_npc(static_cast<uint32_t>(v)); });
  for (int r = 1; r <= 2; ++r) {
    ps_.define(
        r == 1 ? ps::kSigNotify1 : ps::kSigNotify2, 4,
        r == 1 ? "SPU_Sig_Notify_1" : "SPU_Sig_Notify_2",
        [&channels, r] { return channels.signal(r); },
        [&channels, r](uint64_t v) { channels.write_signal(r, static_cast<uint32_t>(v)); });
  }
  priv2_.define(
      priv2::kSpuOutIntrMbox, 8, "SPU_Out_Intr_Mbox",
      [&channels] { return channels.mmio_read_out_intr_mbox(); }, nullptr);
  priv2_.define(
      priv2::kSpuCfg, 8, "SPU_Cfg", [&channels] { return channels.config(); },
      [&channels](uint64_t v) { channels.set_config(v); });
}

}  // namespace hs::cell
