/* The PPE part of the program runtime, linked whole into every module `hybridsim-cellcc
 * --target=ppu` links: each function of libspe2.h forwarding to the simulator's PPE binding
 * through the table its services give (libspe2_abi.h). Each records where the program called
 * it from, for the simulator's messages. Its POSIX threads are the simulator's too
 * (sw/cell/program/ppe_threads.h): pthread_create and friends, mutexes that yield while
 * another thread holds them, and condition variables on top (a wait may wake spuriously, as
 * POSIX allows). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sw/cell/runtime/libspe2_abi.h"
#include "sw/user/runtime/runtime_internal.h"

/* Marks the module as a PPE program (the hybrid_program workload refuses anything else). */
__attribute__((visibility("default"))) const unsigned int hybridsim_ppe_program = 1;

static const struct hs_libspe2_table* hs_spe;
static void* hs_spe_self;

static const struct hs_libspe2_table* hs_spe_table(void) {
  if (!hs_spe) {
    hs_spe = (const struct hs_libspe2_table*)hs_rt_api(
        HS_LIBSPE2_API_NAME, HS_LIBSPE2_API_VERSION, &hs_spe_self,
        "this PPE program runs on a machine without Cell accelerators (run it with hybridsim "
        "run hybrid_program --set workload.program=PROGRAM)");
  }
  return hs_spe;
}

#define HS_SPE_FN(ret, name, params, args)             \
  ret name params {                                    \
    hs_rt_note_call_site(__builtin_return_address(0)); \
    const struct hs_libspe2_table* t = hs_spe_table(); \
    return t->name(hs_spe_self, HS_CELL_UNPAREN args); \
  }
#define HS_SPE_OWN HS_SPE_FN
#define HS_SPE_OWN0(ret, name)                         \
  ret name(void) {                                     \
    hs_rt_note_call_site(__builtin_return_address(0)); \
    const struct hs_libspe2_table* t = hs_spe_table(); \
    return t->name(hs_spe_self);                       \
  }
#include "hybridsim_libspe2_functions.h"
#undef HS_SPE_FN
#undef HS_SPE_OWN
#undef HS_SPE_OWN0

/* ---- POSIX threads ---- */

#define HS_HIDDEN __attribute__((visibility("hidden")))

static const struct hs_ppe_thread_table* hs_thr;
static void* hs_thr_self;

static const struct hs_ppe_thread_table* hs_thr_table(void) {
  if (!hs_thr) {
    const struct hs_user_services* s = hs_rt_services();
    hs_thr = (const struct hs_ppe_thread_table*)s->api(s->instance, HS_PPE_THREADS_API_NAME,
                                                       HS_PPE_THREADS_API_VERSION, &hs_thr_self);
    if (!hs_thr) hs_spe_table(); /* says why and aborts */
  }
  return hs_thr;
}

static void hs_thread_entry(void* (*fn)(void*), void* arg) {
  pthread_exit(fn(arg));
}

HS_HIDDEN int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*),
                             void* arg) {
  (void)attr; /* every thread gets program.stack_size */
  hs_rt_note_call_site(__builtin_return_address(0));
  unsigned long id = 0;
  const int rc = hs_thr_table()->create(hs_thr_self, &id, hs_thread_entry, fn, arg);
  if (rc == 0) *thread = (pthread_t)id;
  return rc;
}
HS_HIDDEN int pthread_join(pthread_t thread, void** result) {
  hs_rt_note_call_site(__builtin_return_address(0));
  return hs_thr_table()->join(hs_thr_self, (unsigned long)thread, result);
}
HS_HIDDEN int pthread_detach(pthread_t thread) {
  return hs_thr_table()->detach(hs_thr_self, (unsigned long)thread);
}
HS_HIDDEN pthread_t pthread_self(void) {
  return (pthread_t)hs_thr_table()->self(hs_thr_self);
}
HS_HIDDEN int pthread_equal(pthread_t a, pthread_t b) {
  return a == b;
}
HS_HIDDEN void pthread_exit(void* result) {
  hs_thr_table()->exit(hs_thr_self, result);
  __builtin_unreachable();
}
HS_HIDDEN int sched_yield(void) {
  hs_thr_table()->yield(hs_thr_self);
  return 0;
}
/* All threads share one host thread: a held mutex is busy to every other one. */
HS_HIDDEN int pthread_mutex_lock(pthread_mutex_t* m) {
  for (;;) {
    const int rc = pthread_mutex_trylock(m);
    if (rc != EBUSY) return rc;
    hs_thr_table()->yield(hs_thr_self);
  }
}
/* A condition variable: a count of signals in its first word (PTHREAD_COND_INITIALIZER is 0). */
static volatile uint64_t* hs_cond_count(pthread_cond_t* c) {
  return (volatile uint64_t*)(void*)c;
}
HS_HIDDEN int pthread_cond_init(pthread_cond_t* c, const pthread_condattr_t* attr) {
  (void)attr;
  memset(c, 0, sizeof *c);
  return 0;
}
HS_HIDDEN int pthread_cond_destroy(pthread_cond_t* c) {
  (void)c;
  return 0;
}
HS_HIDDEN int pthread_cond_signal(pthread_cond_t* c) {
  ++*hs_cond_count(c);
  return 0;
}
HS_HIDDEN int pthread_cond_broadcast(pthread_cond_t* c) {
  ++*hs_cond_count(c);
  return 0;
}
HS_HIDDEN int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
  const uint64_t seen = *hs_cond_count(c);
  pthread_mutex_unlock(m);
  while (*hs_cond_count(c) == seen) hs_thr_table()->yield(hs_thr_self);
  return pthread_mutex_lock(m);
}
HS_HIDDEN int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m,
                                     const struct timespec* t) {
  (void)c, (void)m, (void)t;
  static const char why[] =
      "pthread_cond_timedwait: timed waits are not modelled on the PPE (use pthread_cond_wait)";
  const struct hs_user_services* s = hs_rt_services();
  s->write(s->instance, HS_STDERR, why, sizeof why - 1);
  s->write(s->instance, HS_STDERR, "\n", 1);
  s->abort(s->instance, why);
  __builtin_unreachable();
}
