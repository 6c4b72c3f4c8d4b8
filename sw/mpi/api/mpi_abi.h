/* The MPI interface's table between a program module's MPI forwarders (sw/mpi/runtime/) and
 * the simulator's MPI binding (sw/mpi/api/): one function pointer per function of mpi.h, each
 * taking the binding's `self` first. Found by a program through its services' api("mpi")
 * (sw/user/user_abi.h). C, for both sides. */
#ifndef HYBRIDSIM_MPI_ABI_H
#define HYBRIDSIM_MPI_ABI_H

#include "mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_MPI_API_NAME "mpi"
#define HS_MPI_API_VERSION 1u

#define HS_MPI_UNPAREN(...) __VA_ARGS__

struct hs_mpi_table {
#define HS_MPI_FN(ret, name, params, args) ret (*name)(void* self, HS_MPI_UNPAREN params);
#define HS_MPI_FN0(ret, name) ret (*name)(void* self);
#include "hybridsim_mpi_functions.h"
#undef HS_MPI_FN
#undef HS_MPI_FN0
};

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_MPI_ABI_H */
