// The Cell SDK's SPU interface (spu_mfcio.h) carried out on an SPU's channels (sw/hal/spu.h):
// every function of it that reaches the simulator, with the SDK's name, parameters and
// meaning, as a member of Spu. Firmware calls them directly; a user's SPU program will reach
// them through its runtime, which forwards each function of the list they are declared from
// (include/hybridsim_spu_functions.h).
//
// Rules:
// - A call does what the SDK's macro does on the hardware: the same channel accesses, in the
//   same order, each stalling as the channel instruction does (a full command queue, an empty
//   inbound mailbox, a tag-status request not yet satisfied). spu_readch and spu_writech
//   stall by the channel's count, as rdch and wrch do.
// - The MFC checks every command (size, alignment, local-store bounds, tags, list limits):
//   a command that breaks a rule fails the run naming the SPE, the command and the rule.
// - A local-store pointer becomes a local-store address through LsAddress: for firmware the
//   pointer's value is the address; a user program's instance, whose memory is its local
//   store, translates its own pointers.
// - The tag-group manager (mfc_tag_reserve and friends) hands out the lowest free tags and
//   refuses, with MFC_TAG_INVALID, a release of a tag not reserved.
#pragma once
#include <cstdint>
#include <functional>

#include "sw/hal/hal.h"

namespace hs::fw::cell_sdk {

using LsAddress = std::function<uint32_t(const volatile void*)>;
// Firmware's translation: the pointer's value is the local-store address.
uint32_t firmware_lsa(const volatile void* p);

constexpr unsigned int kTagInvalid = 0xFFFFFFFFu;  // MFC_TAG_INVALID
constexpr unsigned int kTagValid = 0;              // MFC_TAG_VALID: a release that worked

class Spu {
 public:
  explicit Spu(Hal& hal, LsAddress lsa = firmware_lsa) : hal_(hal), lsa_(std::move(lsa)) {}

#define HS_SPU_FN(ret, name, params, args) ret name params;
#define HS_SPU_FN0(ret, name) ret name();
#include "sw/cell/include/hybridsim_spu_functions.h"
#undef HS_SPU_FN
#undef HS_SPU_FN0

  unsigned int mfc_tag_reserve();
  unsigned int mfc_tag_release(unsigned int tag);
  unsigned int mfc_multi_tag_reserve(unsigned int number_of_tags);
  unsigned int mfc_multi_tag_release(unsigned int tag, unsigned int number_of_tags);

  Hal& hal() {
    return hal_;
  }

 private:
  void dma(uint32_t cmd, const volatile void* ls, uint64_t ea, uint32_t size, uint32_t tag);
  void list(uint32_t cmd, const volatile void* ls, uint64_t ea, const volatile void* list,
            uint32_t list_size, uint32_t tag);
  uint32_t tag_status(uint32_t mode);

  Hal& hal_;
  LsAddress lsa_;
  uint32_t reserved_ = 0;  // tags handed out, one bit each
};

}  // namespace hs::fw::cell_sdk
