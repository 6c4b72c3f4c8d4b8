// Set on a transaction by a fabric that refused it and reported why under a check of its own
// (the root complex's peer-to-peer rule), so the link that delivered it does not report the
// same refusal again as a write its target did not accept. A link's transaction port attaches
// one to the payload it delivers with, and clears it before each delivery.
#pragma once
#include <tlm>

namespace hs {

struct FabricRefusalExt : tlm::tlm_extension<FabricRefusalExt> {
  bool reported = false;
  tlm::tlm_extension_base* clone() const override { return new FabricRefusalExt(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const FabricRefusalExt&>(e);
  }
};

}  // namespace hs
