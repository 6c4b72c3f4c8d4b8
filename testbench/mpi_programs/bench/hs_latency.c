/* Point-to-point latency: ping-pong between ranks 0 and 1 (MPI_Send and MPI_Recv); the
 * latency is half the mean round trip. */
#include "common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  parse_options(argc, argv);
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "needs two ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char* s = aligned_buffer(opt_max);
  char* r = aligned_buffer(opt_max);
  if (rank == 0) printf("# hs_latency: ranks 0 and 1\n# %-10s %12s\n", "Size", "Latency (us)");
  for (long bytes = opt_min; bytes <= opt_max; bytes = next_size(bytes)) {
    const int iters = bytes > LARGE ? opt_large_iters : opt_iters;
    double t0 = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + opt_warmup; ++i) {
      if (i == opt_warmup) t0 = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(s, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(r, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(r, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(s, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      }
    }
    const double latency = (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
    if (rank == 0) printf("  %-10ld %12.2f\n", bytes, latency);
  }
  free(s);
  free(r);
  MPI_Finalize();
  return 0;
}
