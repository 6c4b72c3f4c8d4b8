/* dacs.h: hybridsim's host-accelerator library (Data Communication and Synchronization), the
 * project's own header written from the published interface. A host program (built with
 * `hybridsim-cellcc --target=host`) on an Opteron core is the host element; it reserves its
 * Cell (the accelerator element), starts a PPE program there (built with --target=ppu) and
 * moves data to and from it. The PPE program calls the same functions with the parent as its
 * peer. Only a parent and its child talk to each other.
 *
 * What is declared here works; calls the library has but hybridsim does not (the mutexes,
 * the error handlers, embedded programs and program lists for dacs_de_start) are not
 * declared, so a program using one fails to build, naming it. Every call returns DACS_SUCCESS or a
 * DACS_ERR_* code; misuse gets the code, never a crash. Byte swapping is checked but moves no
 * bytes: both programs run in the simulator's own byte order. */
#ifndef HYBRIDSIM_DACS_H
#define HYBRIDSIM_DACS_H

#include <stddef.h> /* NULL, for dacs_runtime_init(NULL, NULL) */
#include <stdint.h>

#ifdef HYBRIDSIM       /* a program's build (the wrappers define it), not the simulator's own */
#include "hybridsim.h" /* hybridsim_time, hybridsim_compute */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The argument types below take every value of their C type in C++ too, as they do in C: a
 * program may pass any value, and a call refuses one it does not name (DACS_ERR_INVALID_ATTR),
 * where C++ would leave a value its enumerators do not span undefined. */
#ifdef __cplusplus
#define HS_DACS_ARGUMENT_ENUM(name) enum name : unsigned
#else
#define HS_DACS_ARGUMENT_ENUM(name) enum name
#endif

/* ---- Return codes ---- */
typedef enum DACS_ERR {
  DACS_SUCCESS = 0,
  DACS_WID_READY = 0, /* dacs_test and dacs_wait: every transfer of the wid is complete */
  DACS_WID_BUSY = 1,  /* dacs_test: some are not */
  DACS_STS_PROC_RUNNING = 2,
  DACS_STS_PROC_FINISHED = 3, /* the process returned or exited; its status is in *exit_status */
  DACS_STS_PROC_FAILED = 4,   /* it ended with a nonzero status */
  DACS_STS_PROC_ABORTED = 5,  /* it aborted or crashed */
  DACS_STS_PROC_KILLED = 6,   /* dacs_de_kill ended it */
  DACS_ERR_FIRST = -35000,
  DACS_ERR_INTERNAL = -35000,
  DACS_ERR_SYSTEM = -34999,
  DACS_ERR_INVALID_ARGV = -34998,
  DACS_ERR_INVALID_ENV = -34997,
  DACS_ERR_INVALID_HANDLE = -34996,
  DACS_ERR_INVALID_ADDR = -34995,
  DACS_ERR_INVALID_ATTR = -34994,
  DACS_ERR_INVALID_DE = -34993,
  DACS_ERR_INVALID_PID = -34992,
  DACS_ERR_INVALID_TARGET = -34991,
  DACS_ERR_BUF_OVERFLOW = -34990,
  DACS_ERR_NOT_ALIGNED = -34989,
  DACS_ERR_INVALID_SIZE = -34988,
  DACS_ERR_BYTESWAP_MISMATCH = -34987,
  DACS_ERR_NO_RESOURCE = -34986,
  DACS_ERR_PROC_LIMIT = -34985,
  DACS_ERR_NO_PERM = -34984,
  DACS_ERR_OWNER = -34983,
  DACS_ERR_NOT_OWNER = -34982,
  DACS_ERR_RESOURCE_BUSY = -34981,
  DACS_ERR_GROUP_CLOSED = -34980,
  DACS_ERR_GROUP_OPEN = -34979,
  DACS_ERR_GROUP_DUPLICATE = -34978,
  DACS_ERR_INVALID_WID = -34977,
  DACS_ERR_INVALID_STREAM = -34976,
  DACS_ERR_NO_WIDS = -34975,
  DACS_ERR_WID_ACTIVE = -34974,
  DACS_ERR_WID_NOT_ACTIVE = -34973,
  DACS_ERR_INITIALIZED = -34972,
  DACS_ERR_NOT_INITIALIZED = -34971,
  DACS_ERR_MUTEX_BUSY = -34970,
  DACS_ERR_NOT_SUPPORTED_YET = -34969,
  DACS_ERR_VERSION_MISMATCH = -34968,
  DACS_ERR_DACSD_FAILURE = -34967,
  DACS_ERR_INVALID_PROG = -34966,
  DACS_ERR_ARCH_MISMATCH = -34965,
  DACS_ERR_INVALID_USERNAME = -34964,
  DACS_ERR_INVALID_CWD = -34963,
  DACS_ERR_NOT_FOUND = -34962,
  DACS_ERR_TOO_LONG = -34961,
  DACS_ERR_DE_TERM = -34960,
  DACS_ERR_LAST = -34960
} DACS_ERR_T;

/* ---- Elements, processes, handles ---- */
typedef uint32_t de_id_t;
typedef uint64_t dacs_process_id_t;
typedef uint64_t dacs_remote_mem_t;
typedef uint32_t dacs_wid_t;
typedef uint64_t dacs_group_t;

#define DACS_DE_SELF ((de_id_t)0xFFFFFFFFu)
#define DACS_DE_PARENT ((de_id_t)0xFFFFFFFEu)
#define DACS_PID_SELF ((dacs_process_id_t)0xFFFFFFFFFFFFFFFFull)
#define DACS_PID_PARENT ((dacs_process_id_t)0xFFFFFFFFFFFFFFFEull)
#define DACS_INVALID_DE ((de_id_t)0xFFFFFFFDu)
#define DACS_INVALID_PID ((dacs_process_id_t)0xFFFFFFFFFFFFFFFDull)
#define DACS_STREAM_ALL 0xFFFFFFFFu /* dacs_recv: a message on any stream */
#define DACS_STREAM_UB 0x7FFFFFFFu  /* streams are 0 .. DACS_STREAM_UB */
#define DACS_MAX_WIDS 32u           /* wait identifiers a process may hold */
#define DACS_MAILBOX_DEPTH 4u       /* 32-bit messages a mailbox holds unread */

/* clang-format would read the macro as a call and lay the enumerators out as its arguments. */
/* clang-format off */
typedef HS_DACS_ARGUMENT_ENUM(DACS_DE_TYPE) {
  DACS_DE_INVALID = 0,
  DACS_DE_SYSTEMX = 1, /* the host: no element reserves it */
  DACS_DE_CBE = 3      /* a Cell: the host's children (a PPE program's SPEs are libspe2's) */
} DACS_DE_TYPE_T;

typedef HS_DACS_ARGUMENT_ENUM(DACS_PROC_CREATION_FLAG) {
  DACS_PROC_INVALID = 0,
  DACS_PROC_LOCAL_FILE = 1, /* prog: the PPE program's path on the host */
  DACS_PROC_REMOTE_FILE = 2 /* prog: its path as the accelerator sees it (the same file) */
} DACS_PROC_CREATION_FLAG_T;

typedef HS_DACS_ARGUMENT_ENUM(DACS_MEMORY_ACCESS_MODE) {
  DACS_READ_ONLY = 1,
  DACS_WRITE_ONLY = 2,
  DACS_READ_WRITE = 3
} DACS_MEMORY_ACCESS_MODE_T;

typedef HS_DACS_ARGUMENT_ENUM(DACS_REMOTE_MEM_ATTR) {
  DACS_REMOTE_MEM_ADDR = 1, /* the owner's address (meaningful to the owner only) */
  DACS_REMOTE_MEM_SIZE = 2,
  DACS_REMOTE_MEM_PERM = 3 /* its DACS_MEMORY_ACCESS_MODE_T */
} DACS_REMOTE_MEM_ATTR_T;

typedef HS_DACS_ARGUMENT_ENUM(DACS_ORDER_ATTR) {
  DACS_ORDER_ATTR_NONE = 0,
  DACS_ORDER_ATTR_FENCE = 1,  /* after the wid's earlier transfers */
  DACS_ORDER_ATTR_BARRIER = 2 /* after every earlier transfer of the process */
} DACS_ORDER_ATTR_T;

typedef HS_DACS_ARGUMENT_ENUM(DACS_BYTE_SWAP) {
  DACS_BYTE_SWAP_DISABLE = 0,
  DACS_BYTE_SWAP_HALF_WORD = 1,
  DACS_BYTE_SWAP_WORD = 2,
  DACS_BYTE_SWAP_DOUBLE_WORD = 3
} DACS_BYTE_SWAP_T;

typedef HS_DACS_ARGUMENT_ENUM(DACS_TEST_MAILBOX) {
  DACS_TEST_MAILBOX_READ = 1, /* *status: messages waiting to be read */
  DACS_TEST_MAILBOX_WRITE = 2 /* *status: messages that can be written without waiting */
} DACS_TEST_MAILBOX_T;
/* clang-format on */

/* One element of a put or get list: a block at `offset` (in the remote memory, or from the
 * local address) of `size` bytes. */
typedef struct dacs_dma_list {
  uint64_t offset;
  uint64_t size;
} dacs_dma_list_t;

/* ---- The functions ---- */
#define HS_DACS_FN(ret, name, params, args) ret name params;
#define HS_DACS_FN0(ret, name) ret name(void);
#include "hybridsim_dacs_functions.h"
#undef HS_DACS_FN
#undef HS_DACS_FN0

/* A readable name for a return code (not a call into the simulator). */
const char* dacs_strerror(DACS_ERR_T err);

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_DACS_H */
