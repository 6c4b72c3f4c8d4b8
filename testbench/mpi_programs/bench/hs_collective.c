/* Collective latency: -c allreduce|alltoall|bcast|reduce|allgather|barrier, every rank taking
 * part, timed over the iterations after a warm-up; the mean over ranks of each rank's mean
 * latency, with the smallest and largest, by MPI_Reduce of the ranks' times. Sizes are bytes
 * per rank (alltoall: to each rank); doubles (allreduce, reduce) or bytes. */
#include <string.h>

#include "common.h"

static const char* collective = "allreduce";

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i + 1 < argc; ++i) {
    if (!strcmp(argv[i], "-c")) {
      collective = argv[i + 1];
      for (int k = i; k + 2 < argc; ++k) argv[k] = argv[k + 2];
      argc -= 2;
      break;
    }
  }
  opt_min = 8;
  opt_max = 1 << 16;
  opt_iters = 20;
  opt_warmup = 2;
  opt_large_iters = 5;
  parse_options(argc, argv);
  const int barrier = !strcmp(collective, "barrier");
  const long per = barrier ? 0 : opt_max;
  const long span =
      !strcmp(collective, "alltoall") || !strcmp(collective, "allgather") ? per * size : per;
  char* s = aligned_buffer(span);
  char* r = aligned_buffer(span);
  if (rank == 0) {
    printf("# hs_collective %s: %d ranks\n# %-10s %14s %14s %14s\n", collective, size, "Size",
           "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)");
  }
  for (long bytes = barrier ? 0 : opt_min; bytes <= per;
       bytes = barrier ? per + 1 : next_size(bytes)) {
    const int iters = bytes > LARGE ? opt_large_iters : opt_iters;
    const int count = (int)(bytes / 8);
    double t0 = 0, elapsed = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + opt_warmup; ++i) {
      if (i == opt_warmup) t0 = MPI_Wtime();
      if (barrier)
        MPI_Barrier(MPI_COMM_WORLD);
      else if (!strcmp(collective, "allreduce"))
        MPI_Allreduce(s, r, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      else if (!strcmp(collective, "reduce"))
        MPI_Reduce(s, r, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      else if (!strcmp(collective, "bcast"))
        MPI_Bcast(s, (int)bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
      else if (!strcmp(collective, "alltoall"))
        MPI_Alltoall(s, (int)bytes, MPI_CHAR, r, (int)bytes, MPI_CHAR, MPI_COMM_WORLD);
      else if (!strcmp(collective, "allgather"))
        MPI_Allgather(s, (int)bytes, MPI_CHAR, r, (int)bytes, MPI_CHAR, MPI_COMM_WORLD);
      else {
        if (rank == 0) fprintf(stderr, "unknown collective %s\n", collective);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    elapsed = (MPI_Wtime() - t0) * 1e6 / iters;
    double sum = 0, min = 0, max = 0;
    MPI_Reduce(&elapsed, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&elapsed, &min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&elapsed, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("  %-10ld %14.2f %14.2f %14.2f\n", bytes, sum / size, min, max);
  }
  free(s);
  free(r);
  MPI_Finalize();
  return 0;
}
