/* spu_mfcio.h: an SPU program's interface to its MFC and channels, for C and C++.
 *
 * The project's own header, written from the Cell SDK's published documentation of the MFC
 * and channel interface: an SPU program that builds against the SDK's spu_mfcio.h builds
 * against this one unchanged as long as it calls what is declared here; a call to anything
 * else fails when it is compiled or linked, naming it. Everything declared works
 * (docs/cell-programs.md has the coverage table). Build with `hybridsim-cellcc --target=spu`.
 *
 * The program runs natively and its memory is its local store: a pointer to any of its
 * variables (globals, stack, heap) is a local-store address. An effective address is what the
 * PPE program handed over (a pointer of the PPE program, spe_ls_area_get's local stores),
 * passed as an unsigned long long. The SDK's mfc_* calls are macros over the channel
 * intrinsics; here they are functions, one span each on the SPU's timeline. The SPU's SIMD
 * intrinsics (spu_intrinsics.h, vector types) are not provided. */
#ifndef HYBRIDSIM_SPU_MFCIO_H
#define HYBRIDSIM_SPU_MFCIO_H

#include <stdint.h>

#include "hybridsim.h" /* hybridsim_compute(cycles): the SPU computes, in its own cycles */

#ifdef __cplusplus
extern "C" {
#endif

#define HYBRIDSIM_SPU 1

/* ---- Channels ---- */
#define SPU_RdEventStat 0
#define SPU_WrEventMask 1
#define SPU_WrEventAck 2
#define SPU_RdSigNotify1 3
#define SPU_RdSigNotify2 4
#define SPU_WrDec 7
#define SPU_RdDec 8
#define SPU_RdEventMask 11
#define MFC_RdTagMask 12
#define MFC_LSA 16
#define MFC_EAH 17
#define MFC_EAL 18
#define MFC_Size 19
#define MFC_TagID 20
#define MFC_Cmd 21
#define MFC_WrTagMask 22
#define MFC_WrTagUpdate 23
#define MFC_RdTagStat 24
#define MFC_RdListStallStat 25
#define MFC_WrListStallAck 26
#define MFC_RdAtomicStat 27
#define SPU_WrOutMbox 28
#define SPU_RdInMbox 29
#define SPU_WrOutIntrMbox 30

/* ---- Commands ---- */
#define MFC_PUT_CMD 0x20
#define MFC_PUTB_CMD 0x21
#define MFC_PUTF_CMD 0x22
#define MFC_PUTL_CMD 0x24
#define MFC_PUTLB_CMD 0x25
#define MFC_PUTLF_CMD 0x26
#define MFC_GET_CMD 0x40
#define MFC_GETB_CMD 0x41
#define MFC_GETF_CMD 0x42
#define MFC_GETL_CMD 0x44
#define MFC_GETLB_CMD 0x45
#define MFC_GETLF_CMD 0x46
#define MFC_SNDSIG_CMD 0xA0
#define MFC_SNDSIGB_CMD 0xA1
#define MFC_SNDSIGF_CMD 0xA2
#define MFC_BARRIER_CMD 0xC0
#define MFC_EIEIO_CMD 0xC8
#define MFC_SYNC_CMD 0xCC
#define MFC_GETLLAR_CMD 0xD0
#define MFC_PUTLLC_CMD 0xB4
#define MFC_PUTLLUC_CMD 0xB0
#define MFC_PUTQLLUC_CMD 0xB8
/* A command word: transfer class, replacement class, opcode (the classes have no effect). */
#define MFC_CMD_WORD(tid, rid, cmd) (((tid) << 24) | ((rid) << 16) | (cmd))

#define MFC_MIN_DMA_SIZE 1
#define MFC_MAX_DMA_SIZE 0x4000
#define MFC_MIN_DMA_LIST_SIZE 0x0008
#define MFC_MAX_DMA_LIST_SIZE 0x4000
#define MFC_MAX_DMA_LIST_ELEMENTS 2048

/* ---- Tag groups, atomic status ---- */
#define MFC_TAG_UPDATE_IMMEDIATE 0
#define MFC_TAG_UPDATE_ANY 1
#define MFC_TAG_UPDATE_ALL 2
#define MFC_TAG_INVALID 0xFFFFFFFF
#define MFC_TAG_VALID 0x00000000
#define MFC_PUTLLC_STATUS 0x00000001
#define MFC_PUTLLUC_STATUS 0x00000002
#define MFC_GETLLAR_STATUS 0x00000004

/* ---- Events ---- */
#define MFC_TAG_STATUS_UPDATE_EVENT 0x00000001
#define MFC_LIST_STALL_NOTIFY_EVENT 0x00000002
#define MFC_COMMAND_QUEUE_AVAILABLE_EVENT 0x00000008
#define MFC_IN_MBOX_AVAILABLE_EVENT 0x00000010
#define MFC_DECREMENTER_EVENT 0x00000020
#define MFC_OUT_INTR_MBOX_AVAILABLE_EVENT 0x00000040
#define MFC_OUT_MBOX_AVAILABLE_EVENT 0x00000080
#define MFC_SIGNAL_NOTIFY_2_EVENT 0x00000100
#define MFC_SIGNAL_NOTIFY_1_EVENT 0x00000200
#define MFC_LLR_LOST_EVENT 0x00000400

/* ---- A DMA list element ----
 * As the SDK defines it: the stall-and-notify bit, 16 reserved bits, 15 bits of transfer size
 * and the effective address's low word. The fields keep the SDK's meaning in the host's bit
 * order (the model keeps every memory in the host's byte order). */
typedef struct mfc_list_element {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  unsigned long long size : 15;
  unsigned long long reserved : 16;
  unsigned long long notify : 1;
  unsigned long long eal : 32;
#else
  unsigned long long notify : 1;
  unsigned long long reserved : 16;
  unsigned long long size : 15;
  unsigned long long eal : 32;
#endif
} mfc_list_element_t;

/* ---- Effective addresses ---- */
static inline unsigned int mfc_ea2h(unsigned long long ea) {
  return (unsigned int)(ea >> 32);
}
static inline unsigned int mfc_ea2l(unsigned long long ea) {
  return (unsigned int)ea;
}
static inline unsigned long long mfc_hl2ea(unsigned int high, unsigned int low) {
  return ((unsigned long long)high << 32) | low;
}
static inline unsigned int mfc_ceil128(unsigned int value) {
  return (value + 127) & ~127u;
}

/* ---- The functions ---- */
#define HS_SPU_FN(ret, name, params, args) ret name params;
#define HS_SPU_FN0(ret, name) ret name(void);
#include "hybridsim_spu_functions.h"
#undef HS_SPU_FN
#undef HS_SPU_FN0

/* Tag-group manager: tags handed out and given back (MFC_TAG_INVALID when none is free). */
unsigned int mfc_tag_reserve(void);
unsigned int mfc_tag_release(unsigned int tag);
unsigned int mfc_multi_tag_reserve(unsigned int number_of_tags);
unsigned int mfc_multi_tag_release(unsigned int tag, unsigned int number_of_tags);

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_SPU_MFCIO_H */
