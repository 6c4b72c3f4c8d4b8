/* Conformance: MPI_Alltoallv with irregular counts (rank i sends (i + j) % 4 elements to rank
 * j, some of them none), displacements with gaps and in reverse order, blocking and not, then
 * in place; every element checked. */
#include <stdlib.h>

#include "check.h"

static int count(int from, int to) {
  return (from + to) % 4;
}
static int value(int from, int to, int k) {
  return from * 10000 + to * 100 + k;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
  int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
  int stotal = 0, rtotal = 0;
  for (int j = 0; j < size; ++j) {
    sc[j] = count(rank, j);
    sd[j] = stotal;
    stotal += sc[j] + 1; /* a gap after each block */
  }
  for (int i = size - 1; i >= 0; --i) { /* received blocks in reverse order */
    rc[i] = count(i, rank);
    rd[i] = rtotal;
    rtotal += rc[i] + 2;
  }
  int* s = malloc(sizeof(int) * (stotal + 1));
  int* r = malloc(sizeof(int) * (rtotal + 1));
  for (int j = 0; j < size; ++j)
    for (int k = 0; k < sc[j]; ++k) s[sd[j] + k] = value(rank, j, k);
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < rtotal; ++i) r[i] = -1;
    if (pass == 0) {
      MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD);
    } else {
      MPI_Request q;
      MPI_Ialltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD, &q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < size; ++i) {
      for (int k = 0; k < rc[i]; ++k)
        CHECK(r[rd[i] + k] == value(i, rank, k), "block from %d element %d: %d", i, k,
              r[rd[i] + k]);
      CHECK(r[rd[i] + rc[i]] == -1, "a gap was written");
    }
  }
  OK("alltoallv with irregular counts, gaps and reversed displacements (blocking and not)");
  /* In place: each rank's buffer holds its outgoing blocks laid out as its incoming ones. */
  int* inplace = malloc(sizeof(int) * (rtotal + 1));
  int* ic = malloc(sizeof(int) * size);
  for (int i = 0; i < size; ++i) ic[i] = count(rank, i); /* symmetric: count(i, r) = count(r, i) */
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < ic[i]; ++k) inplace[rd[i] + k] = value(rank, i, k);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, inplace, ic, rd, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < ic[i]; ++k)
      CHECK(inplace[rd[i] + k] == value(i, rank, k), "in place from %d", i);
  OK("alltoallv in place");
  free(s), free(r), free(sc), free(sd), free(rc), free(rd), free(inplace), free(ic);
  MPI_Finalize();
  return 0;
}
