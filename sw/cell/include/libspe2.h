/* libspe2.h: a PPE program's interface to the SPEs, for C and C++.
 *
 * The project's own header, written from the published documentation of the SPE Runtime
 * Management Library (version 2): a PPE program that builds against libspe2.h builds against
 * this one unchanged as long as it calls what is declared here; a call to anything else fails
 * when it is compiled or linked, naming it. Everything declared works (docs/cell-programs.md
 * has the coverage table). Build with `hybridsim-cellcc --target=ppu`, and embed SPU programs
 * with `hybridsim-cellcc --embed SYMBOL NAME.spu -o OBJ.o`.
 *
 * spe_context_run blocks until the SPU program stops, so a program runs each context in its
 * own POSIX thread, as on the hardware. Functions set errno and return -1 (or NULL) on
 * failure, as libspe2's do. The problem-state areas (spe_ps_area_get) are not provided: the
 * model reaches an SPE's registers through these calls only. */
#ifndef HYBRIDSIM_LIBSPE2_H
#define HYBRIDSIM_LIBSPE2_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "hybridsim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HYBRIDSIM_LIBSPE2 1

typedef struct spe_context* spe_context_ptr_t;
typedef struct spe_gang_context* spe_gang_context_ptr_t;
typedef void* spe_event_handler_ptr_t;

/* An SPU program image: what `hybridsim-cellcc --embed` and spe_image_open make. */
typedef struct spe_program_handle {
  unsigned int handle_size;
  void* elf_image;
  void* toe_shadow;
} spe_program_handle_t;

/* Why spe_context_run returned. */
typedef struct spe_stop_info {
  unsigned int stop_reason;
  union {
    int spe_exit_code;
    int spe_signal_code;
    int spe_runtime_error;
    int spe_runtime_exception;
    int spe_runtime_fatal;
    int spe_callback_error;
    int spe_isolation_error;
    void* __reserved_ptr;
    unsigned long long __reserved_u64;
  } result;
  int spu_status;
} spe_stop_info_t;

typedef union spe_event_data {
  void* ptr;
  unsigned int u32;
  unsigned long long u64;
} spe_event_data_t;

typedef struct spe_event_unit {
  unsigned int events;
  spe_context_ptr_t spe;
  spe_event_data_t data;
} spe_event_unit_t;

/* Context flags. */
#define SPE_CFG_SIGNOTIFY1_OR 0x00000010
#define SPE_CFG_SIGNOTIFY2_OR 0x00000020
#define SPE_MAP_PS 0x00000040
#define SPE_EVENTS_ENABLE 0x00001000

/* spe_context_run. */
#define SPE_DEFAULT_ENTRY UINT_MAX
#define SPE_RUN_USER_REGS 0x00000001
#define SPE_NO_CALLBACKS 0x00000002
#define SPE_EXIT 1
#define SPE_STOP_AND_SIGNAL 2
#define SPE_RUNTIME_ERROR 3
#define SPE_RUNTIME_EXCEPTION 4
#define SPE_RUNTIME_FATAL 5
#define SPE_CALLBACK_ERROR 6
#define SPE_ISOLATION_ERROR 7

/* Mailbox behaviours, signal registers, tag-status behaviours. */
#define SPE_MBOX_ALL_BLOCKING 1
#define SPE_MBOX_ANY_BLOCKING 2
#define SPE_MBOX_ANY_NONBLOCKING 3
#define SPE_SIG_NOTIFY_REG_1 0x0001
#define SPE_SIG_NOTIFY_REG_2 0x0002
#define SPE_TAG_ALL 1
#define SPE_TAG_ANY 2
#define SPE_TAG_IMMEDIATE 3

/* Events. */
#define SPE_EVENT_OUT_INTR_MBOX 0x00000001
#define SPE_EVENT_IN_MBOX 0x00000002
#define SPE_EVENT_TAG_GROUP 0x00000004
#define SPE_EVENT_SPE_STOPPED 0x00000008
#define SPE_EVENT_ALL_EVENTS 0x0000000F

/* spe_cpu_info_get. */
#define SPE_COUNT_PHYSICAL_CPU_NODES 1
#define SPE_COUNT_PHYSICAL_SPES 2
#define SPE_COUNT_USABLE_SPES 3

#define HS_SPE_FN(ret, name, params, args) ret name params;
#define HS_SPE_OWN HS_SPE_FN
#define HS_SPE_OWN0(ret, name) ret name(void);
#include "hybridsim_libspe2_functions.h"
#undef HS_SPE_FN
#undef HS_SPE_OWN
#undef HS_SPE_OWN0

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_LIBSPE2_H */
