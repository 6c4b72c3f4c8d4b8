/* Conformance: a periodic 2D grid (MPI_Dims_create, MPI_Cart_create), each rank's block with a
 * one-cell halo, exchanged with its four neighbours (MPI_Cart_shift, MPI_Sendrecv; columns by a
 * vector datatype), checked cell by cell; then the grid's coordinates and ranks agree, and a
 * row communicator (MPI_Cart_sub) sums each row. */
#include <stdlib.h>

#include "check.h"

#define N 6 /* interior cells a side */

static double value(int gx, int gy) {
  return gx * 1000.0 + gy;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1], "dims %d x %d", dims[0], dims[1]);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Comm_rank(grid, &rank);
  int coords[2];
  MPI_Cart_coords(grid, rank, 2, coords);
  int back;
  MPI_Cart_rank(grid, coords, &back);
  CHECK(back == rank, "coords of %d give back %d", rank, back);
  int topo;
  MPI_Topo_test(grid, &topo);
  CHECK(topo == MPI_CART, "topology %d", topo);

  /* u[(i)*(N+2)+(j)]: i along x (rows of the array), j along y; halo at 0 and N+1. */
  double* u = calloc((N + 2) * (N + 2), sizeof(double));
#define U(i, j) u[(i) * (N + 2) + (j)]
  for (int i = 1; i <= N; ++i)
    for (int j = 1; j <= N; ++j) U(i, j) = value(coords[0] * N + i - 1, coords[1] * N + j - 1);
  MPI_Datatype column;
  MPI_Type_vector(N, 1, N + 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  int left, right, down, up;
  MPI_Cart_shift(grid, 0, 1, &left, &right);
  MPI_Cart_shift(grid, 1, 1, &down, &up);
  /* Rows (contiguous) along x, columns (strided) along y. */
  MPI_Sendrecv(&U(N, 1), N, MPI_DOUBLE, right, 0, &U(0, 1), N, MPI_DOUBLE, left, 0, grid,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&U(1, 1), N, MPI_DOUBLE, left, 1, &U(N + 1, 1), N, MPI_DOUBLE, right, 1, grid,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&U(1, N), 1, column, up, 2, &U(1, 0), 1, column, down, 2, grid, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&U(1, 1), 1, column, down, 3, &U(1, N + 1), 1, column, up, 3, grid,
               MPI_STATUS_IGNORE);
  const int gx = dims[0] * N, gy = dims[1] * N;
  for (int k = 1; k <= N; ++k) {
    const int x0 = coords[0] * N, y0 = coords[1] * N;
    CHECK(U(0, k) == value((x0 - 1 + gx) % gx, y0 + k - 1), "left halo %d", k);
    CHECK(U(N + 1, k) == value((x0 + N) % gx, y0 + k - 1), "right halo %d", k);
    CHECK(U(k, 0) == value(x0 + k - 1, (y0 - 1 + gy) % gy), "lower halo %d", k);
    CHECK(U(k, N + 1) == value(x0 + k - 1, (y0 + N) % gy), "upper halo %d", k);
  }
  OK("halo exchange on a periodic Cartesian grid");

  /* Rows: keep dimension 1. */
  int remain[2] = {0, 1};
  MPI_Comm row;
  MPI_Cart_sub(grid, remain, &row);
  int row_size, row_rank;
  MPI_Comm_size(row, &row_size);
  MPI_Comm_rank(row, &row_rank);
  CHECK(row_size == dims[1] && row_rank == coords[1], "row %d of %d", row_rank, row_size);
  int sum = 0, mine = rank;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, row);
  int expect = 0;
  for (int y = 0; y < dims[1]; ++y) expect += coords[0] * dims[1] + y;
  CHECK(sum == expect, "row sum %d, expected %d", sum, expect);
  OK("MPI_Cart_sub rows");
  MPI_Type_free(&column);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);
  free(u);
  MPI_Finalize();
  return 0;
}
