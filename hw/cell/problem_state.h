// An SPE's problem-state and privileged-2 areas: the registers any EIB master reaches by MMIO
// (the PPE, the host through a link, another SPE's SNDSIG). Proxy DMA commands and their
// tag-group query, the mailboxes, the signal-notification registers and run control in the
// problem state; the outbound interrupt mailbox and SPU_Cfg (the signal modes) in the
// privileged-2 area. Offsets and formats in spe_interface.h. None of them ever stalls the
// master: a proxy command that finds the queue full is refused with a status to retry on,
// mailboxes are read by their status.
#pragma once
#include <cstdint>
#include <systemc>

#include "hw/cell/mfc.h"
#include "hw/cell/spu_channels.h"
#include "tlm/bus/register_file.h"

namespace hs::cell {

class ProblemState : public sc_core::sc_module {
 public:
  ProblemState(sc_core::sc_module_name name, Mfc& mfc, SpuChannels& channels);
  tlm::tlm_target_socket<>& problem_state() { return ps_.socket; }  // amap::kSpeProblemState
  tlm::tlm_target_socket<>& priv2() { return priv2_.socket; }       // amap::kSpePriv2

 private:
  sc_core::sc_time latency_;  // declared first: both register files take it
  RegisterFile ps_, priv2_;
  uint32_t lsa_ = 0, size_tag_ = 0, cmd_status_ = spe::ps::kCmdEnqueued;
  uint64_t ea_ = 0;
};

}  // namespace hs::cell
