/* Conformance: derived datatypes. A matrix column (vector), a lower triangle (indexed), the
 * fields of a struct array (struct, resized to the struct's size), every other element (hvector)
 * and a block list (indexed_block), each sent with one type and received with another of the
 * same signature; sizes, extents and true extents; MPI_Pack and MPI_Unpack; MPI_Get_elements;
 * and every predefined C type's size. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define N 8

typedef struct {
  char tag;
  double value;
  int count[3];
} Item;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int peer = rank ^ 1;
  const int active = peer < size;

  /* Sizes of the predefined types. */
  int s;
  MPI_Type_size(MPI_INT, &s);
  CHECK(s == sizeof(int), "MPI_INT");
  MPI_Type_size(MPI_LONG_DOUBLE, &s);
  CHECK(s == sizeof(long double), "MPI_LONG_DOUBLE");
  MPI_Type_size(MPI_DOUBLE_INT, &s);
  CHECK(s == 12, "MPI_DOUBLE_INT size %d", s);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &extent);
  CHECK(extent == 16, "MPI_DOUBLE_INT extent %ld", (long)extent);
  MPI_Type_size(MPI_C_DOUBLE_COMPLEX, &s);
  CHECK(s == 16, "MPI_C_DOUBLE_COMPLEX");
  MPI_Type_size(MPI_AINT, &s);
  CHECK(s == sizeof(MPI_Aint), "MPI_AINT");

  double m[N][N], got[N][N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) m[i][j] = rank * 1000 + i * N + j, got[i][j] = -1;

  /* A column: a vector of N doubles, N apart; received as N contiguous doubles. */
  MPI_Datatype column;
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  MPI_Type_size(column, &s);
  CHECK(s == N * 8, "column size %d", s);
  MPI_Type_get_extent(column, &lb, &extent);
  CHECK(extent == ((N - 1) * N + 1) * 8, "column extent %ld", (long)extent);
  if (active) {
    double col[N];
    MPI_Sendrecv(&m[0][3], 1, column, peer, 1, col, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < N; ++i) CHECK(col[i] == peer * 1000 + i * N + 3, "column %d", i);
    /* Contiguous doubles received into a column. */
    MPI_Sendrecv(col, N, MPI_DOUBLE, peer, 2, &got[0][5], 1, column, peer, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < N; ++i) {
      CHECK(got[i][5] == rank * 1000 + i * N + 3, "column back %d", i);
      CHECK(got[i][4] == -1 && got[i][6] == -1, "neighbours of the column untouched");
    }
  }
  OK("vector (a matrix column) against contiguous");

  /* The lower triangle, by indexed. */
  int lens[N], displs[N];
  for (int i = 0; i < N; ++i) lens[i] = i + 1, displs[i] = i * N;
  MPI_Datatype lower;
  MPI_Type_indexed(N, lens, displs, MPI_DOUBLE, &lower);
  MPI_Type_commit(&lower);
  MPI_Type_size(lower, &s);
  CHECK(s == N * (N + 1) / 2 * 8, "triangle size");
  if (active) {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) got[i][j] = -1;
    MPI_Sendrecv(m, 1, lower, peer, 3, got, 1, lower, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        CHECK(got[i][j] == (j <= i ? peer * 1000 + i * N + j : -1), "triangle %d %d", i, j);
  }
  OK("indexed (a lower triangle)");

  /* Structs: the fields by MPI_Type_create_struct, resized to sizeof(Item). */
  Item items[4], in[4];
  for (int k = 0; k < 4; ++k) {
    items[k].tag = (char)('a' + rank + k);
    items[k].value = rank + k / 4.0;
    for (int c = 0; c < 3; ++c) items[k].count[c] = rank * 10 + k + c;
  }
  int blens[3] = {1, 1, 3};
  MPI_Aint fdispl[3] = {offsetof(Item, tag), offsetof(Item, value), offsetof(Item, count)};
  MPI_Datatype ftypes[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
  MPI_Datatype item0, item;
  MPI_Type_create_struct(3, blens, fdispl, ftypes, &item0);
  MPI_Type_create_resized(item0, 0, sizeof(Item), &item);
  MPI_Type_commit(&item);
  MPI_Type_size(item, &s);
  CHECK(s == 1 + 8 + 12, "struct size %d", s);
  MPI_Type_get_extent(item, &lb, &extent);
  CHECK(extent == sizeof(Item), "resized extent");
  MPI_Aint tlb, textent;
  MPI_Type_get_true_extent(item0, &tlb, &textent);
  CHECK(tlb == 0 && textent == (MPI_Aint)(offsetof(Item, count) + 12), "true extent");
  if (active) {
    memset(in, 0, sizeof in);
    MPI_Status st;
    MPI_Sendrecv(items, 4, item, peer, 4, in, 4, item, peer, 4, MPI_COMM_WORLD, &st);
    int elements;
    MPI_Get_elements(&st, item, &elements);
    CHECK(elements == 4 * 5, "MPI_Get_elements %d", elements);
    for (int k = 0; k < 4; ++k) {
      CHECK(in[k].tag == (char)('a' + peer + k) && in[k].value == peer + k / 4.0, "item %d", k);
      for (int c = 0; c < 3; ++c) CHECK(in[k].count[c] == peer * 10 + k + c, "item %d count", k);
    }
  }
  OK("struct resized to the C struct, MPI_Get_elements");

  /* hvector (every other int, stride in bytes) and indexed_block. */
  int v[16], w[8];
  for (int i = 0; i < 16; ++i) v[i] = rank * 100 + i;
  MPI_Datatype every_other, blocks;
  MPI_Type_create_hvector(8, 1, 2 * sizeof(int), MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int bd[2] = {1, 10};
  MPI_Type_create_indexed_block(2, 3, bd, MPI_INT, &blocks);
  MPI_Type_commit(&blocks);
  if (active) {
    MPI_Sendrecv(v, 1, every_other, peer, 5, w, 8, MPI_INT, peer, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < 8; ++i) CHECK(w[i] == peer * 100 + 2 * i, "hvector %d", i);
    int b6[6];
    MPI_Sendrecv(v, 1, blocks, peer, 6, b6, 6, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(b6[0] == peer * 100 + 1 && b6[3] == peer * 100 + 10 && b6[5] == peer * 100 + 12,
          "indexed_block");
  }
  OK("hvector, indexed_block");

  /* Pack and unpack through a buffer. */
  char packed[256];
  int position = 0;
  MPI_Pack(&m[0][1], 1, column, packed, sizeof packed, &position, MPI_COMM_WORLD);
  MPI_Pack(&items[0], 1, item, packed, sizeof packed, &position, MPI_COMM_WORLD);
  int psize;
  MPI_Pack_size(1, column, MPI_COMM_WORLD, &psize);
  CHECK(position == psize + 21, "pack position %d", position);
  double col[N];
  Item one;
  position = 0;
  MPI_Unpack(packed, sizeof packed, &position, col, N, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Unpack(packed, sizeof packed, &position, &one, 1, item, MPI_COMM_WORLD);
  CHECK(col[2] == rank * 1000 + 2 * N + 1 && one.count[2] == items[0].count[2], "unpack");
  OK("MPI_Pack, MPI_Unpack, MPI_Pack_size");

  /* A broadcast and an allreduce of derived types. */
  double diag[N];
  MPI_Datatype diagonal;
  MPI_Type_vector(N, 1, N + 1, MPI_DOUBLE, &diagonal);
  MPI_Type_commit(&diagonal);
  MPI_Bcast(m, 1, diagonal, 0, MPI_COMM_WORLD);
  for (int i = 0; i < N; ++i) diag[i] = m[i][i];
  for (int i = 0; i < N; ++i) CHECK(diag[i] == i * N + i, "bcast of the diagonal %d", i);
  double sums[N][N];
  memset(sums, 0, sizeof sums);
  MPI_Allreduce(m, sums, 1, diagonal, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sums[3][3] == size * (3.0 * N + 3) && sums[3][4] == 0, "allreduce of a diagonal");
  OK("collectives on derived types");

  MPI_Type_free(&column);
  MPI_Type_free(&lower);
  MPI_Type_free(&item0);
  MPI_Type_free(&item);
  MPI_Type_free(&every_other);
  MPI_Type_free(&blocks);
  MPI_Type_free(&diagonal);
  CHECK(column == MPI_DATATYPE_NULL, "freed types are null");
  MPI_Finalize();
  return 0;
}
