/* The MPI part of the program runtime, linked whole into every module hybridsim-mpicc builds:
 * each function of mpi.h as PMPI_name, forwarding to the simulator's MPI binding through the
 * table its services give (sw/mpi/api/mpi_abi.h), with MPI_name a weak alias of it (a
 * profiling library may define MPI_name itself and call PMPI_name). Each records where the
 * program called it from, for the simulator's messages. */
#include <stdio.h>
#include <unistd.h>

#include "sw/mpi/api/mpi_abi.h"
#include "sw/user/runtime/runtime_internal.h"

static const struct hs_mpi_table* hs_mpi;
static void* hs_mpi_self;

static const struct hs_mpi_table* hs_mpi_table(void) {
  if (!hs_mpi) {
    hs_mpi = (const struct hs_mpi_table*)hs_rt_api(
        HS_MPI_API_NAME, HS_MPI_API_VERSION, &hs_mpi_self,
        "this program calls MPI, but the machine it runs on has no MPI (run it with "
        "hybridsim mpirun)");
  }
  return hs_mpi;
}

#define HS_MPI_FN(ret, name, params, args)             \
  ret PMPI_##name params {                             \
    hs_rt_note_call_site(__builtin_return_address(0)); \
    const struct hs_mpi_table* t = hs_mpi_table();     \
    return t->name(hs_mpi_self, HS_MPI_UNPAREN args);  \
  }                                                    \
  ret MPI_##name params __attribute__((weak, alias("PMPI_" #name)));
#define HS_MPI_FN0(ret, name)                          \
  ret PMPI_##name(void) {                              \
    hs_rt_note_call_site(__builtin_return_address(0)); \
    const struct hs_mpi_table* t = hs_mpi_table();     \
    return t->name(hs_mpi_self);                       \
  }                                                    \
  ret MPI_##name(void) __attribute__((weak, alias("PMPI_" #name)));
#include "hybridsim_mpi_functions.h"
