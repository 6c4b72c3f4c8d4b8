/* How a job's ranks print and end, for the tests of partitioned runs: every rank prints to
 * standard output and error at several points (at the same simulated time, after messages,
 * after a collective, a partial line while others may end the job, a partial last line), and
 * argv[1] picks how the job ends: "ok", "abort R S" (rank R calls MPI_Abort with status S),
 * "exit R S" (rank R exits with status S after a partial line), "hang R" (rank R waits for a
 * message nobody sends). R defaults to the last rank, S to 5. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "ok";
  const int who = argc > 2 ? atoi(argv[2]) : size - 1;
  const int status = argc > 3 ? atoi(argv[3]) : 5;
  printf("rank %d of %d: hello\n", rank, size);
  fprintf(stderr, "rank %d: to standard error\n", rank);
  long token = rank;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Sendrecv_replace(&token, 1, MPI_LONG, next, 0, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank %d: got %ld from rank %d\n", rank, token, prev);
  long sum = 0;
  MPI_Allreduce(&token, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: sum %ld\n", rank, sum);
  if (rank == who && !strcmp(mode, "abort")) MPI_Abort(MPI_COMM_WORLD, status);
  if (rank == who && !strcmp(mode, "exit")) {
    printf("rank %d: exiting with %d", rank, status); /* no newline: flushed at the end */
    exit(status);
  }
  if (rank == who && !strcmp(mode, "hang")) {
    MPI_Recv(&token, 1, MPI_LONG, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("rank %d: at the barrier", rank); /* a partial line while the job may end */
  MPI_Barrier(MPI_COMM_WORLD);
  printf(", through\n");
  printf("rank %d: bye", rank);
  MPI_Finalize();
  return 0;
}
