/* The micro-benchmarks' shared options and output, in the manner of the widely used MPI
 * micro-benchmark suites: -m MAX (largest message, bytes), -n MIN (smallest), -i ITERATIONS,
 * -x WARMUP (untimed first), -l ITERATIONS for messages above 8 KiB; a header and one line a
 * size. Plain MPI and C: nothing of the simulator's. */
#ifndef HS_BENCH_COMMON_H
#define HS_BENCH_COMMON_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long opt_min = 0, opt_max = 1 << 22;
static int opt_iters = 100, opt_warmup = 10, opt_large_iters = 20;
#define LARGE 8192

static void parse_options(int argc, char** argv) {
  int c;
  while ((c = getopt(argc, argv, "m:n:i:x:l:")) != -1) {
    switch (c) {
      case 'm':
        opt_max = atol(optarg);
        break;
      case 'n':
        opt_min = atol(optarg);
        break;
      case 'i':
        opt_iters = atoi(optarg);
        break;
      case 'x':
        opt_warmup = atoi(optarg);
        break;
      case 'l':
        opt_large_iters = atoi(optarg);
        break;
      default:
        fprintf(stderr, "usage: %s [-m max] [-n min] [-i iterations] [-x warmup] [-l large]\n",
                argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

static long next_size(long s) {
  return s == 0 ? 1 : s * 2;
}

static char* aligned_buffer(long bytes) {
  void* p = NULL;
  if (posix_memalign(&p, 64, (size_t)(bytes > 0 ? bytes : 1)) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
  for (long i = 0; i < bytes; ++i) ((char*)p)[i] = (char)i;
  return p;
}
#endif
