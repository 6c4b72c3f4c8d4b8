/* Conformance of failures: each mode (argv[1]) makes one mistake, and the test checks the run
 * ends as MPI says it must, with the message naming the call, the rank and the line; a mistake
 * no call can see (mismatch) is the MPI checker's to name. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  int x[8] = {0};
  if (rank == 1) {
    if (!strcmp(mode, "rank")) MPI_Send(x, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    if (!strcmp(mode, "tag")) MPI_Send(x, 1, MPI_INT, 0, -3, MPI_COMM_WORLD);
    if (!strcmp(mode, "count")) MPI_Send(x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    if (!strcmp(mode, "comm")) MPI_Send(x, 1, MPI_INT, 0, 0, MPI_COMM_NULL);
    if (!strcmp(mode, "type")) {
      MPI_Datatype t;
      MPI_Type_contiguous(2, MPI_INT, &t);
      MPI_Send(x, 1, t, 0, 0, MPI_COMM_WORLD); /* never committed */
    }
    if (!strcmp(mode, "op")) {
      struct {
        double v;
        int i;
      } p = {1, 1}, q;
      MPI_Reduce(&p, &q, 1, MPI_DOUBLE_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    if (!strcmp(mode, "root")) MPI_Bcast(x, 1, MPI_INT, size, MPI_COMM_WORLD);
    if (!strcmp(mode, "truncate")) MPI_Send(x, 8, MPI_INT, 0, 1, MPI_COMM_WORLD);
    if (!strcmp(mode, "pending")) {
      MPI_Request r;
      MPI_Irecv(x, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r); /* never completed */
    }
    if (!strcmp(mode, "nofinalize")) return 0;
    if (!strcmp(mode, "abort")) MPI_Abort(MPI_COMM_WORLD, 7);
    if (!strcmp(mode, "segv")) x[0] = *(volatile int*)(size_t)8;
    if (!strcmp(mode, "assert")) assert(size == 1000);
    if (!strcmp(mode, "exit")) exit(3);
  }
  if (!strcmp(mode, "truncate") && rank == 0) {
    MPI_Recv(x, 2, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (!strcmp(mode, "deadlock") && rank < 2) {
    MPI_Recv(x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* both wait */
  }
  if (!strcmp(mode, "mismatch")) {
    /* The last rank reduces with another operator: erroneous, yet no call fails; only the MPI
     * checker sees the ranks disagree. The barriers after it are what a run that went on would
     * still do. */
    int in = rank, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, rank == size - 1 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 50; ++i) MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
