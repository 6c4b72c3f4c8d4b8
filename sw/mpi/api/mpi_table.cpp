// The table the program's forwarders call: each entry enters the simulator through the
// program instance's call() (compute charged, exceptions kept off the program's frames), as a
// span named after the function on the rank's timeline unless it is a cheap local query.
#include <cstring>

#include "sw/mpi/api/mpi_abi.h"
#include "sw/mpi/api/mpi_rank.h"

namespace hs::fw::mpi::api {

namespace {

// Local queries and constructors that move no data: no span of their own.
bool spanned(const char* name) {
  static const char* const quiet[] = {"MPI_Comm_rank",
                                      "MPI_Comm_size",
                                      "MPI_Comm_compare",
                                      "MPI_Comm_group",
                                      "MPI_Comm_test_inter",
                                      "MPI_Comm_set_name",
                                      "MPI_Comm_get_name",
                                      "MPI_Comm_get_attr",
                                      "MPI_Comm_set_errhandler",
                                      "MPI_Comm_get_errhandler",
                                      "MPI_Comm_create_errhandler",
                                      "MPI_Errhandler_free",
                                      "MPI_Wtime",
                                      "MPI_Wtick",
                                      "MPI_Initialized",
                                      "MPI_Finalized",
                                      "MPI_Query_thread",
                                      "MPI_Is_thread_main",
                                      "MPI_Get_count",
                                      "MPI_Get_elements",
                                      "MPI_Get_processor_name",
                                      "MPI_Get_version",
                                      "MPI_Get_library_version",
                                      "MPI_Get_address",
                                      "MPI_Address",
                                      "MPI_Error_string",
                                      "MPI_Error_class",
                                      "MPI_Dims_create",
                                      "MPI_Cart_coords",
                                      "MPI_Cart_rank",
                                      "MPI_Cart_shift",
                                      "MPI_Cart_get",
                                      "MPI_Cartdim_get",
                                      "MPI_Topo_test",
                                      "MPI_Op_create",
                                      "MPI_Op_free",
                                      "MPI_Op_commutative",
                                      "MPI_Pack_size",
                                      "MPI_Buffer_attach",
                                      "MPI_Test_cancelled",
                                      "MPI_Type_extent"};
  if (std::strncmp(name, "MPI_Type_", 9) == 0 || std::strncmp(name, "MPI_Group_", 10) == 0) {
    return false;
  }
  for (const char* q : quiet) {
    if (std::strcmp(q, name) == 0) return false;
  }
  return true;
}

}  // namespace

const void* MpiRank::table() {
  static const hs_mpi_table table = [] {
    hs_mpi_table t{};
#define HS_MPI_FN(ret, name, params, args)                                          \
  t.name = [](void* self, HS_MPI_UNPAREN params) -> ret {                           \
    static const char* const span = spanned("MPI_" #name) ? "MPI_" #name : nullptr; \
    auto* r = static_cast<MpiRank*>(self);                                          \
    return r->program().call(span, [&] {                                            \
      r->begin_call("MPI_" #name);                                                  \
      const ret v = r->name args;                                                   \
      r->end_call();                                                                \
      return v;                                                                     \
    });                                                                             \
  };
#define HS_MPI_FN0(ret, name)                                                       \
  t.name = [](void* self) -> ret {                                                  \
    static const char* const span = spanned("MPI_" #name) ? "MPI_" #name : nullptr; \
    auto* r = static_cast<MpiRank*>(self);                                          \
    return r->program().call(span, [&] {                                            \
      r->begin_call("MPI_" #name);                                                  \
      const ret v = r->name();                                                      \
      r->end_call();                                                                \
      return v;                                                                     \
    });                                                                             \
  };
#include "hybridsim_mpi_functions.h"
#undef HS_MPI_FN
#undef HS_MPI_FN0
    return t;
  }();
  return &table;
}

}  // namespace hs::fw::mpi::api
