/* Point-to-point bandwidth: rank 0 posts a window of 64 non-blocking sends to rank 1, which
 * posts 64 receives; after each window rank 1 answers with a short message. Bandwidth is the
 * bytes of the timed windows over their time; -b makes it bidirectional (both ranks send a
 * window to each other). */
#include <string.h>

#include "common.h"

#define WINDOW 64

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bidirectional = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-b")) {
      bidirectional = 1;
      for (int k = i; k < argc - 1; ++k) argv[k] = argv[k + 1];
      --argc;
      break;
    }
  }
  opt_min = 1;
  opt_iters = 20;
  opt_warmup = 2;
  opt_large_iters = 5;
  parse_options(argc, argv);
  if (size < 2) MPI_Abort(MPI_COMM_WORLD, 1);
  char* s = aligned_buffer(opt_max);
  char* r = aligned_buffer(opt_max);
  MPI_Request req[2 * WINDOW];
  if (rank == 0) {
    printf("# hs_%s: ranks 0 and 1, window %d\n# %-10s %14s\n", bidirectional ? "bibw" : "bw",
           WINDOW, "Size", "Bandwidth (MB/s)");
  }
  for (long bytes = opt_min; bytes <= opt_max; bytes = next_size(bytes)) {
    const int iters = bytes > LARGE ? opt_large_iters : opt_iters;
    double t0 = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + opt_warmup; ++i) {
      if (i == opt_warmup) t0 = MPI_Wtime();
      if (rank < 2) {
        const int peer = 1 - rank;
        int n = 0;
        if (rank == 1 || bidirectional) {
          for (int w = 0; w < WINDOW; ++w)
            MPI_Irecv(r, (int)bytes, MPI_CHAR, peer, 10, MPI_COMM_WORLD, &req[n++]);
        }
        if (rank == 0 || bidirectional) {
          for (int w = 0; w < WINDOW; ++w)
            MPI_Isend(s, (int)bytes, MPI_CHAR, peer, 10, MPI_COMM_WORLD, &req[n++]);
        }
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
        if (!bidirectional) {
          if (rank == 1) MPI_Send(s, 4, MPI_CHAR, 0, 11, MPI_COMM_WORLD);
          if (rank == 0) MPI_Recv(r, 4, MPI_CHAR, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      }
    }
    const double t = MPI_Wtime() - t0;
    const double mb = (double)bytes * WINDOW * iters * (bidirectional ? 2 : 1) / 1e6;
    if (rank == 0) printf("  %-10ld %14.2f\n", bytes, mb / t);
  }
  free(s);
  free(r);
  MPI_Finalize();
  return 0;
}
