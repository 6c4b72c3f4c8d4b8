/* The DaCS part of the program runtime, linked whole into every module `hybridsim-cellcc
 * --target=host` or `--target=ppu` links: each function of dacs.h forwarding to the
 * simulator's element binding through the table its services give (dacs_abi.h), and
 * dacs_strerror. Each records where the program called it from, for the simulator's
 * messages. */
#include <stddef.h>

#include "sw/cell/runtime/dacs_abi.h"
#include "sw/user/runtime/runtime_internal.h"

static const struct hs_dacs_table* hs_dacs;
static void* hs_dacs_self;

static const struct hs_dacs_table* hs_dacs_table(void) {
  if (!hs_dacs) {
    hs_dacs = (const struct hs_dacs_table*)hs_rt_api(
        HS_DACS_API_NAME, HS_DACS_API_VERSION, &hs_dacs_self,
        "this DaCS program runs outside the hybrid node (run a host program with hybridsim run "
        "hybrid_program --set workload.host_program=PROGRAM; it starts its PPE program with "
        "dacs_de_start)");
  }
  return hs_dacs;
}

#define HS_DACS_FN(ret, name, params, args)             \
  ret name params {                                     \
    hs_rt_note_call_site(__builtin_return_address(0));  \
    const struct hs_dacs_table* t = hs_dacs_table();    \
    return t->name(hs_dacs_self, HS_DACS_UNPAREN args); \
  }
#define HS_DACS_FN0(ret, name)                         \
  ret name(void) {                                     \
    hs_rt_note_call_site(__builtin_return_address(0)); \
    const struct hs_dacs_table* t = hs_dacs_table();   \
    return t->name(hs_dacs_self);                      \
  }
#include "hybridsim_dacs_functions.h"
#undef HS_DACS_FN
#undef HS_DACS_FN0

const char* dacs_strerror(DACS_ERR_T err) {
  static const char* const kErrors[] = {"DACS_ERR_INTERNAL",         "DACS_ERR_SYSTEM",
                                        "DACS_ERR_INVALID_ARGV",     "DACS_ERR_INVALID_ENV",
                                        "DACS_ERR_INVALID_HANDLE",   "DACS_ERR_INVALID_ADDR",
                                        "DACS_ERR_INVALID_ATTR",     "DACS_ERR_INVALID_DE",
                                        "DACS_ERR_INVALID_PID",      "DACS_ERR_INVALID_TARGET",
                                        "DACS_ERR_BUF_OVERFLOW",     "DACS_ERR_NOT_ALIGNED",
                                        "DACS_ERR_INVALID_SIZE",     "DACS_ERR_BYTESWAP_MISMATCH",
                                        "DACS_ERR_NO_RESOURCE",      "DACS_ERR_PROC_LIMIT",
                                        "DACS_ERR_NO_PERM",          "DACS_ERR_OWNER",
                                        "DACS_ERR_NOT_OWNER",        "DACS_ERR_RESOURCE_BUSY",
                                        "DACS_ERR_GROUP_CLOSED",     "DACS_ERR_GROUP_OPEN",
                                        "DACS_ERR_GROUP_DUPLICATE",  "DACS_ERR_INVALID_WID",
                                        "DACS_ERR_INVALID_STREAM",   "DACS_ERR_NO_WIDS",
                                        "DACS_ERR_WID_ACTIVE",       "DACS_ERR_WID_NOT_ACTIVE",
                                        "DACS_ERR_INITIALIZED",      "DACS_ERR_NOT_INITIALIZED",
                                        "DACS_ERR_MUTEX_BUSY",       "DACS_ERR_NOT_SUPPORTED_YET",
                                        "DACS_ERR_VERSION_MISMATCH", "DACS_ERR_DACSD_FAILURE",
                                        "DACS_ERR_INVALID_PROG",     "DACS_ERR_ARCH_MISMATCH",
                                        "DACS_ERR_INVALID_USERNAME", "DACS_ERR_INVALID_CWD",
                                        "DACS_ERR_NOT_FOUND",        "DACS_ERR_TOO_LONG",
                                        "DACS_ERR_DE_TERM"};
  static const char* const kStatus[] = {"DACS_SUCCESS",          "DACS_WID_BUSY",
                                        "DACS_STS_PROC_RUNNING", "DACS_STS_PROC_FINISHED",
                                        "DACS_STS_PROC_FAILED",  "DACS_STS_PROC_ABORTED",
                                        "DACS_STS_PROC_KILLED"};
  if (err >= 0 && err <= DACS_STS_PROC_KILLED) return kStatus[err];
  if (err >= DACS_ERR_FIRST && err <= DACS_ERR_LAST) return kErrors[err - DACS_ERR_FIRST];
  return "unknown DaCS return code";
}
