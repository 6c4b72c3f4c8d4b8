/* Conformance: a token travels the ring of ranks twice, each rank adding its rank; then every
 * rank checks the sum, and rank 0 reports. Blocking send and receive, MPI_Wtime. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  long token = 0;
  double t0 = MPI_Wtime();
  for (int lap = 0; lap < 2; ++lap) {
    if (rank == 0) {
      token += rank;
      MPI_Send(&token, 1, MPI_LONG, next, lap, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_LONG, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_LONG, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token += rank;
      MPI_Send(&token, 1, MPI_LONG, next, lap, MPI_COMM_WORLD);
    }
  }
  double t1 = MPI_Wtime();
  const long expect = 2L * size * (size - 1) / 2;
  if (rank == 0) {
    printf("ring of %d ranks: token %ld (expected %ld), %.2f us a lap\n", size, token, expect,
           (t1 - t0) * 1e6 / 2);
    if (token != expect) MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return 0;
}
