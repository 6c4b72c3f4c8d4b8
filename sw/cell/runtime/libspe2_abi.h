/* The libspe2 interface's table between a PPE program module's forwarders (ppe_forward.c) and
 * the simulator's PPE binding (sw/cell/program/ppe_program.h): one function pointer per
 * function of libspe2.h, each taking the binding's `self` first. Found by the program through
 * its services' api("libspe2") (sw/user/user_abi.h). C, for both sides. */
#ifndef HYBRIDSIM_LIBSPE2_ABI_H
#define HYBRIDSIM_LIBSPE2_ABI_H

#include "libspe2.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_LIBSPE2_API_NAME "libspe2"
#define HS_LIBSPE2_API_VERSION 2u
#define HS_CELL_UNPAREN(...) __VA_ARGS__

struct hs_libspe2_table {
#define HS_SPE_FN(ret, name, params, args) ret (*name)(void* self, HS_CELL_UNPAREN params);
#define HS_SPE_OWN HS_SPE_FN
#define HS_SPE_OWN0(ret, name) ret (*name)(void* self);
#include "hybridsim_libspe2_functions.h"
#undef HS_SPE_FN
#undef HS_SPE_OWN
#undef HS_SPE_OWN0
};

/* The PPE program's POSIX threads (sw/cell/program/ppe_threads.h): the forwarders' pthread_create,
 * pthread_join, pthread_detach, pthread_self, pthread_exit and sched_yield (a contended mutex
 * and a condition variable's wait yield). Found by api("ppe_threads"). */
#define HS_PPE_THREADS_API_NAME "ppe_threads"
#define HS_PPE_THREADS_API_VERSION 1u

struct hs_ppe_thread_table {
  int (*create)(void* self, unsigned long* id, void (*entry)(void* (*)(void*), void*),
                void* (*fn)(void*), void* arg);
  int (*join)(void* self, unsigned long id, void** result);
  int (*detach)(void* self, unsigned long id);
  unsigned long (*self)(void* self);
  void (*exit)(void* self, void* result);
  void (*yield)(void* self);
};

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_LIBSPE2_ABI_H */
