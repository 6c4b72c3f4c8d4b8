/* The speed benchmark's MPI program: the 3D halo exchange of the program language's halo.txt,
 * written in C. Ranks sit on the X x Y x Z torus in XYZT order (rank = x + X (y + Y z), the
 * launcher's default mapping); each iteration computes 16^3 cells at 20 cycles a cell
 * (hybridsim_compute), then swaps a 2 KiB face with each torus neighbour (non-blocking, tags
 * by direction), fills what it sends and checks what it receives. Arguments: X Y Z
 * ITERATIONS. Prints the messages it sent and the time an iteration took. */
#include <hybridsim.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define FACE (16 * 16 * 8)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 5) {
    if (rank == 0) fprintf(stderr, "usage: hs_halo3d X Y Z ITERATIONS\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int d[3] = {atoi(argv[1]), atoi(argv[2]), atoi(argv[3])};
  const int iterations = atoi(argv[4]);
  if (d[0] * d[1] * d[2] != size) MPI_Abort(MPI_COMM_WORLD, 1);
  const int c[3] = {rank % d[0], rank / d[0] % d[1], rank / (d[0] * d[1])};
  unsigned char* out = malloc(6 * FACE);
  unsigned char* in = malloc(6 * FACE);
  long sent = 0;
  double t0 = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    hybridsim_compute(16 * 16 * 16 * 20);
    MPI_Request req[12];
    int n = 0;
    for (int dim = 0; dim < 3; ++dim) {
      if (d[dim] == 1) continue;
      for (int side = 0; side < 2; ++side) {
        int from[3] = {c[0], c[1], c[2]};
        from[dim] = (c[dim] + (side ? 1 : -1) + d[dim]) % d[dim];
        const int src = from[0] + d[0] * (from[1] + d[1] * from[2]);
        MPI_Irecv(in + (2 * dim + side) * FACE, FACE, MPI_BYTE, src, 2 * dim + side, MPI_COMM_WORLD,
                  &req[n++]);
      }
    }
    for (int dim = 0; dim < 3; ++dim) {
      if (d[dim] == 1) continue;
      for (int side = 0; side < 2; ++side) {
        int to[3] = {c[0], c[1], c[2]};
        to[dim] = (c[dim] + (side ? -1 : 1) + d[dim]) % d[dim];
        const int dest = to[0] + d[0] * (to[1] + d[1] * to[2]);
        unsigned char* face = out + (2 * dim + side) * FACE;
        for (int i = 0; i < FACE; ++i) face[i] = (unsigned char)(rank + it + i);
        MPI_Isend(face, FACE, MPI_BYTE, dest, 2 * dim + side, MPI_COMM_WORLD, &req[n++]);
        ++sent;
      }
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    for (int dim = 0; dim < 3; ++dim) {
      if (d[dim] == 1) continue;
      for (int side = 0; side < 2; ++side) {
        int from[3] = {c[0], c[1], c[2]};
        from[dim] = (c[dim] + (side ? 1 : -1) + d[dim]) % d[dim];
        const int src = from[0] + d[0] * (from[1] + d[1] * from[2]);
        const unsigned char* face = in + (2 * dim + side) * FACE;
        for (int i = 0; i < FACE; ++i) {
          if (face[i] != (unsigned char)(src + it + i)) {
            fprintf(stderr, "rank %d: byte %d from rank %d differs\n", rank, i, src);
            MPI_Abort(MPI_COMM_WORLD, 2);
          }
        }
      }
    }
  }
  const double per_iteration = (MPI_Wtime() - t0) / iterations;
  long total = 0;
  double slowest = 0;
  MPI_Reduce(&sent, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&per_iteration, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("hs_halo3d %dx%dx%d: %ld messages, %.2f us an iteration\n", d[0], d[1], d[2], total,
           slowest * 1e6);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
