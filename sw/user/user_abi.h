/* The binary interface between a user program module and the simulator that runs it.
 *
 * A user program (an MPI rank, an SPU or PPE program, a host program) is the user's own C or
 * C++ code, built by a compiler wrapper (hybridsim-mpicc and its siblings) into a module: an
 * ELF shared object linked with the program runtime (sw/user/runtime/). The simulator loads
 * one private copy of the module per program instance (sw/user/program_instance.h) and hands
 * each copy this table of services; everything the program does beyond plain computation
 * (its heap, its output, exit, the simulated clock, an API such as MPI) goes through it.
 *
 * Rules:
 * - The module exports hybridsim_user_attach and hybridsim_user_abi (= HS_USER_ABI_VERSION);
 *   a module whose version differs is refused before the run.
 * - Every service takes the `instance` pointer of the table first: nothing in the simulator
 *   needs to know which program runs now, so instances share no state.
 * - A programming interface (MPI) is a table of its own, found by name with `api`; its
 *   functions also take their own `self` first.
 * - The runtime records the return address of each call into an API in `call_site` before
 *   the call, so the simulator can name the program's line (file:line with -g).
 * C, so that the runtime (C) and the simulator (C++) share it. */
#ifndef HYBRIDSIM_USER_ABI_H
#define HYBRIDSIM_USER_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HS_USER_ABI_VERSION 1u

/* Output streams a program writes. */
enum { HS_STDOUT = 1, HS_STDERR = 2 };

struct hs_user_services {
  uint32_t version;
  void* instance;
  /* The instance's private heap (malloc and friends). alloc returns NULL when the heap is
   * full; free and realloc accept pointers the C library allocated (strdup, getline) and
   * pass them on to it. */
  void* (*alloc)(void* instance, size_t bytes, size_t align);
  void* (*realloc)(void* instance, void* p, size_t bytes);
  void (*free)(void* instance, void* p);
  size_t (*usable_size)(void* instance, const void* p);
  /* Bytes the program wrote to HS_STDOUT or HS_STDERR. */
  void (*write)(void* instance, int stream, const char* data, size_t len);
  /* exit(status) after the program's exit handlers ran; never returns. */
  void (*exit)(void* instance, int status);
  /* The program stops abnormally (abort(), a failed assertion): `why` says how. Never returns. */
  void (*abort)(void* instance, const char* why);
  /* hybridsim_compute(cycles): the program's core computes for `cycles` of its clock. */
  void (*compute)(void* instance, uint64_t cycles);
  /* Simulated time passes without host time (sleep, usleep, nanosleep). */
  void (*sleep)(void* instance, uint64_t nanoseconds);
  /* The simulated time, in seconds since the run started. */
  double (*now)(void* instance);
  /* A programming interface's table ("mpi"), or NULL when the program's machine has none;
   * `self` receives the pointer its functions take first. */
  const void* (*api)(void* instance, const char* name, uint32_t version, void** self);
};

/* What the runtime in a module shows the simulator. */
struct hs_user_runtime {
  uint32_t version;
  /* The return address of the program's latest call into an API (set before the call). */
  const void* call_site;
  /* Runs main(argc, argv) and then exit's path with its result; never returns. */
  void (*run_main)(int argc, char** argv);
  /* Flushes the program's standard output and error. */
  void (*flush)(void);
  /* The instance is gone: from now on the module's code (a destructor function the C library
   * runs at the simulator's exit) gets inert services, and its exit handlers are dropped. */
  void (*detach)(void);
};

/* Exported by every module. */
typedef const struct hs_user_runtime* (*hs_user_attach_fn)(const struct hs_user_services*);
#define HS_USER_ATTACH_SYMBOL "hybridsim_user_attach"
#define HS_USER_ABI_SYMBOL "hybridsim_user_abi"

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_USER_ABI_H */
