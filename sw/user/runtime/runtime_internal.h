/* What the runtime's parts (runtime.c, the API shims such as MPI's) share inside a module. */
#ifndef HYBRIDSIM_RUNTIME_INTERNAL_H
#define HYBRIDSIM_RUNTIME_INTERNAL_H

#include "sw/user/user_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The services the simulator attached this instance with. */
__attribute__((visibility("hidden"))) const struct hs_user_services* hs_rt_services(void);
/* The table of the API `name` at `version` the simulator gives this instance (its own state in
 * *self). Where the machine has no such API, writes `why_missing` to standard error and ends
 * the program with it: an API shim calls this once, on its first call. */
__attribute__((visibility("hidden"))) const void* hs_rt_api(const char* name, uint32_t version,
                                                            void** self, const char* why_missing);
/* Records where the program called an API from (the caller's return address). */
__attribute__((visibility("hidden"))) void hs_rt_note_call_site(const void* site);
/* An interface whose programs have an entry of their own (the SPU's main(speid, argp, envp))
 * defines this: the runtime calls it instead of main(argc, argv, envp). */
__attribute__((weak, visibility("hidden"))) int hs_rt_call_main(int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif
