/* The conformance programs' checks: CHECK(cond, ...) prints what failed with the rank and line
 * and ends the job with MPI_Abort (status 2); OK(name) notes a passed part on rank 0. */
#ifndef CONFORMANCE_CHECK_H
#define CONFORMANCE_CHECK_H
#include <mpi.h>
#include <stdio.h>

#define CHECK(cond, ...)                                                                     \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      int check_rank_;                                                                       \
      MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                                           \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", check_rank_, __FILE__, __LINE__, \
              #cond);                                                                        \
      fprintf(stderr, __VA_ARGS__);                                                          \
      fprintf(stderr, "\n");                                                                 \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                          \
    }                                                                                        \
  } while (0)

#define OK(name)                                 \
  do {                                           \
    int ok_rank_;                                \
    MPI_Comm_rank(MPI_COMM_WORLD, &ok_rank_);    \
    if (ok_rank_ == 0) printf("ok: %s\n", name); \
  } while (0)

#endif
