/* The DaCS interface's table between a program module's forwarders (dacs_forward.c) and the
 * simulator's element binding (sw/cell/program/dacs_element.h): one function pointer per
 * function of dacs.h, each taking the binding's `self` first. Found by the program through its
 * services' api("dacs") (sw/user/user_abi.h): a host program's binding is the host element's,
 * a PPE program's its accelerator element's. C, for both sides. */
#ifndef HYBRIDSIM_DACS_ABI_H
#define HYBRIDSIM_DACS_ABI_H

#include "dacs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_DACS_API_NAME "dacs"
#define HS_DACS_API_VERSION 1u
#define HS_DACS_UNPAREN(...) __VA_ARGS__

struct hs_dacs_table {
#define HS_DACS_FN(ret, name, params, args) ret (*name)(void* self, HS_DACS_UNPAREN params);
#define HS_DACS_FN0(ret, name) ret (*name)(void* self);
#include "hybridsim_dacs_functions.h"
#undef HS_DACS_FN
#undef HS_DACS_FN0
};

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_DACS_ABI_H */
