/* The SPU interface's table between an SPU program module's forwarders (spu_forward.c) and
 * the simulator's SPU binding (sw/cell/program/spu_program.h): one function pointer per
 * function of spu_mfcio.h, each taking the binding's `self` first, and the three words the
 * SDK passes the program's main. Found by the program through its services' api("spu")
 * (sw/user/user_abi.h). C, for both sides. */
#ifndef HYBRIDSIM_SPU_ABI_H
#define HYBRIDSIM_SPU_ABI_H

#include "spu_mfcio.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_SPU_API_NAME "spu"
#define HS_SPU_API_VERSION 1u
#define HS_CELL_UNPAREN(...) __VA_ARGS__

struct hs_spu_table {
#define HS_SPU_FN(ret, name, params, args) ret (*name)(void* self, HS_CELL_UNPAREN params);
#define HS_SPU_FN0(ret, name) ret (*name)(void* self);
#include "hybridsim_spu_functions.h"
#undef HS_SPU_FN
#undef HS_SPU_FN0
  unsigned int (*mfc_tag_reserve)(void* self);
  unsigned int (*mfc_tag_release)(void* self, unsigned int tag);
  unsigned int (*mfc_multi_tag_reserve)(void* self, unsigned int number_of_tags);
  unsigned int (*mfc_multi_tag_release)(void* self, unsigned int tag, unsigned int number_of_tags);
  /* main's parameters for this run: speid, argp, envp. */
  void (*main_parameters)(void* self, unsigned long long words[3]);
};

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_SPU_ABI_H */
