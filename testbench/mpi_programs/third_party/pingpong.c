/* A ping-pong benchmark as a site would write it: warm-up iterations, a timing loop with
 * MPI_Wtime, results in globals, and MPI_Reduce of every rank's figure to rank 0. Even ranks
 * ping the odd rank above them. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define WARMUP 5
#define ITERATIONS 50

int main(int argc, char** argv) {
  int rank, size, bytes = argc > 1 ? atoi(argv[1]) : 8;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* buf = malloc(bytes > 0 ? (size_t)bytes : 1);
  const int peer = rank ^ 1;
  for (int i = 0; i < WARMUP + ITERATIONS; ++i) {
    double t0 = MPI_Wtime();
    if (peer < size) {
      if (rank % 2 == 0) {
        MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      }
    }
    if (i >= WARMUP) record((MPI_Wtime() - t0) / 2);
  }
  double mine = mean_us(), sum = 0, worst = 0;
  MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&t_max, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("pingpong %d B: mean one-way %.3f us over %d ranks (sqrt check %.1f), worst %.3f us\n",
           bytes, sum / size, size, sqrt(16.0), worst * 1e6);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
