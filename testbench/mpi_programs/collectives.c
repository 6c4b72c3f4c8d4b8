/* Conformance: every collective, blocking and non-blocking, with and without MPI_IN_PLACE,
 * each result checked against what a sequential computation gives. Rank r's input element i
 * is r * 100 + i (integers, so sums are exact). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define COUNT 5

static int rank, size;
static int nonblocking;

static long in(int r, int i) {
  return r * 100L + i;
}

/* Runs the request to completion (non-blocking forms) after computing a little, as programs
 * overlap. */
static void finish(MPI_Request* req) {
  if (!nonblocking) return;
  int flag = 0;
  while (!flag) MPI_Test(req, &flag, MPI_STATUS_IGNORE);
}

static void barrier(void) {
  MPI_Request r;
  if (nonblocking) {
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

static void test_bcast(void) {
  for (int root = 0; root<size; root += size> 2 ? size - 1 : 1) {
    long v[COUNT];
    for (int i = 0; i < COUNT; ++i) v[i] = rank == root ? in(root, i) : -1;
    MPI_Request r;
    if (nonblocking) {
      MPI_Ibcast(v, COUNT, MPI_LONG, root, MPI_COMM_WORLD, &r);
      finish(&r);
    } else {
      MPI_Bcast(v, COUNT, MPI_LONG, root, MPI_COMM_WORLD);
    }
    for (int i = 0; i < COUNT; ++i)
      CHECK(v[i] == in(root, i), "bcast root %d [%d] = %ld", root, i, v[i]);
  }
}

static void test_reduce(int in_place) {
  const int root = size - 1;
  long s[COUNT], d[COUNT];
  for (int i = 0; i < COUNT; ++i) s[i] = d[i] = in(rank, i);
  MPI_Request r;
  const void* send = in_place && rank == root ? MPI_IN_PLACE : s;
  if (nonblocking) {
    MPI_Ireduce(send, d, COUNT, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Reduce(send, d, COUNT, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD);
  }
  if (rank == root) {
    for (int i = 0; i < COUNT; ++i) {
      long e = 0;
      for (int k = 0; k < size; ++k) e += in(k, i);
      CHECK(d[i] == e, "reduce [%d] = %ld, expected %ld", i, d[i], e);
    }
  }
}

static void test_allreduce(int in_place) {
  long s[COUNT], d[COUNT];
  for (int i = 0; i < COUNT; ++i) s[i] = d[i] = in(rank, i);
  MPI_Request r;
  if (nonblocking) {
    MPI_Iallreduce(in_place ? MPI_IN_PLACE : s, d, COUNT, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Allreduce(in_place ? MPI_IN_PLACE : s, d, COUNT, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  }
  for (int i = 0; i < COUNT; ++i)
    CHECK(d[i] == in(size - 1, i), "allreduce max [%d] = %ld", i, d[i]);
}

static void test_gather_scatter(int in_place) {
  const int root = 0;
  long* all = malloc(sizeof(long) * COUNT * size);
  long mine[COUNT];
  for (int i = 0; i < COUNT; ++i) mine[i] = in(rank, i);
  for (int i = 0; i < COUNT * size; ++i) all[i] = -1;
  if (in_place && rank == root) memcpy(all + root * COUNT, mine, sizeof mine);
  MPI_Request r;
  const void* send = in_place && rank == root ? MPI_IN_PLACE : mine;
  if (nonblocking) {
    MPI_Igather(send, COUNT, MPI_LONG, all, COUNT, MPI_LONG, root, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Gather(send, COUNT, MPI_LONG, all, COUNT, MPI_LONG, root, MPI_COMM_WORLD);
  }
  if (rank == root) {
    for (int k = 0; k < size; ++k)
      for (int i = 0; i < COUNT; ++i) CHECK(all[k * COUNT + i] == in(k, i), "gather %d %d", k, i);
  }
  /* Scatter the gathered blocks back, each +1. */
  if (rank == root)
    for (int i = 0; i < COUNT * size; ++i) all[i] += 1;
  long back[COUNT];
  void* recv = in_place && rank == root ? MPI_IN_PLACE : back;
  if (nonblocking) {
    MPI_Iscatter(all, COUNT, MPI_LONG, recv, COUNT, MPI_LONG, root, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Scatter(all, COUNT, MPI_LONG, recv, COUNT, MPI_LONG, root, MPI_COMM_WORLD);
  }
  if (!(in_place && rank == root)) {
    for (int i = 0; i < COUNT; ++i)
      CHECK(back[i] == in(rank, i) + 1, "scatter %d = %ld", i, back[i]);
  }
  free(all);
}

static void test_gatherv_scatterv(void) {
  /* Rank k sends k + 1 elements; the root lays them out in reverse order with gaps. */
  const int root = size / 2;
  int* counts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  int total = 0;
  for (int k = size - 1; k >= 0; --k) {
    counts[k] = k + 1;
    displs[k] = total;
    total += k + 1 + 2; /* a gap of two */
  }
  long* all = malloc(sizeof(long) * total);
  for (int i = 0; i < total; ++i) all[i] = -7;
  long* mine = malloc(sizeof(long) * (rank + 1));
  for (int i = 0; i <= rank; ++i) mine[i] = in(rank, i);
  MPI_Request r;
  if (nonblocking) {
    MPI_Igatherv(mine, rank + 1, MPI_LONG, all, counts, displs, MPI_LONG, root, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Gatherv(mine, rank + 1, MPI_LONG, all, counts, displs, MPI_LONG, root, MPI_COMM_WORLD);
  }
  if (rank == root) {
    for (int k = 0; k < size; ++k) {
      for (int i = 0; i < counts[k]; ++i)
        CHECK(all[displs[k] + i] == in(k, i), "gatherv %d %d", k, i);
      CHECK(all[displs[k] + counts[k]] == -7, "gatherv wrote into a gap after block %d", k);
    }
    for (int i = 0; i < total; ++i)
      if (all[i] != -7) all[i] = -all[i];
  }
  for (int i = 0; i <= rank; ++i) mine[i] = 0;
  if (nonblocking) {
    MPI_Iscatterv(all, counts, displs, MPI_LONG, mine, rank + 1, MPI_LONG, root, MPI_COMM_WORLD,
                  &r);
    finish(&r);
  } else {
    MPI_Scatterv(all, counts, displs, MPI_LONG, mine, rank + 1, MPI_LONG, root, MPI_COMM_WORLD);
  }
  for (int i = 0; i <= rank; ++i) CHECK(mine[i] == -in(rank, i), "scatterv %d = %ld", i, mine[i]);
  free(counts);
  free(displs);
  free(all);
  free(mine);
}

static void test_allgather(int in_place) {
  long* all = malloc(sizeof(long) * COUNT * size);
  long mine[COUNT];
  for (int i = 0; i < COUNT; ++i) mine[i] = in(rank, i);
  for (int i = 0; i < COUNT * size; ++i) all[i] = -1;
  if (in_place) memcpy(all + rank * COUNT, mine, sizeof mine);
  MPI_Request r;
  if (nonblocking) {
    MPI_Iallgather(in_place ? MPI_IN_PLACE : mine, COUNT, MPI_LONG, all, COUNT, MPI_LONG,
                   MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Allgather(in_place ? MPI_IN_PLACE : mine, COUNT, MPI_LONG, all, COUNT, MPI_LONG,
                  MPI_COMM_WORLD);
  }
  for (int k = 0; k < size; ++k)
    for (int i = 0; i < COUNT; ++i) CHECK(all[k * COUNT + i] == in(k, i), "allgather %d %d", k, i);
  /* allgatherv: rank k gives k % 3 + 1 elements, packed in rank order. */
  int* counts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  int total = 0;
  for (int k = 0; k < size; ++k) {
    counts[k] = k % 3 + 1;
    displs[k] = total;
    total += counts[k];
  }
  long* v = malloc(sizeof(long) * total);
  if (nonblocking) {
    MPI_Iallgatherv(mine, counts[rank], MPI_LONG, v, counts, displs, MPI_LONG, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Allgatherv(mine, counts[rank], MPI_LONG, v, counts, displs, MPI_LONG, MPI_COMM_WORLD);
  }
  for (int k = 0; k < size; ++k)
    for (int i = 0; i < counts[k]; ++i)
      CHECK(v[displs[k] + i] == in(k, i), "allgatherv %d %d", k, i);
  free(v);
  free(counts);
  free(displs);
  free(all);
}

static void test_alltoall(int in_place) {
  long* s = malloc(sizeof(long) * size * 2);
  long* d = malloc(sizeof(long) * size * 2);
  for (int k = 0; k < size; ++k) {
    s[2 * k] = rank * 1000 + k;
    s[2 * k + 1] = -(rank * 1000 + k);
  }
  if (in_place) memcpy(d, s, sizeof(long) * size * 2);
  MPI_Request r;
  if (nonblocking) {
    MPI_Ialltoall(in_place ? MPI_IN_PLACE : s, 2, MPI_LONG, d, 2, MPI_LONG, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Alltoall(in_place ? MPI_IN_PLACE : s, 2, MPI_LONG, d, 2, MPI_LONG, MPI_COMM_WORLD);
  }
  for (int k = 0; k < size; ++k) {
    CHECK(d[2 * k] == k * 1000 + rank && d[2 * k + 1] == -(k * 1000 + rank), "alltoall from %d", k);
  }
  free(s);
  free(d);
}

static void test_reduce_scatter_scan(int in_place) {
  /* reduce_scatter_block: COUNT elements each. */
  long* s = malloc(sizeof(long) * COUNT * size);
  long d[COUNT];
  for (int i = 0; i < COUNT * size; ++i) s[i] = in(rank, i);
  MPI_Request r;
  if (nonblocking) {
    MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : s, in_place ? (void*)s : d, COUNT, MPI_LONG,
                              MPI_SUM, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : s, in_place ? (void*)s : d, COUNT, MPI_LONG,
                             MPI_SUM, MPI_COMM_WORLD);
  }
  for (int i = 0; i < COUNT; ++i) {
    long e = 0;
    for (int k = 0; k < size; ++k) e += in(k, rank * COUNT + i);
    const long got = in_place ? s[i] : d[i];
    CHECK(got == e, "reduce_scatter_block [%d] = %ld, expected %ld", i, got, e);
  }
  /* reduce_scatter: rank k gets k + 1 elements. */
  int* counts = malloc(sizeof(int) * size);
  int total = 0;
  for (int k = 0; k < size; ++k) total += counts[k] = k + 1;
  long* s2 = malloc(sizeof(long) * total);
  long* d2 = malloc(sizeof(long) * (rank + 1));
  for (int i = 0; i < total; ++i) s2[i] = in(rank, i);
  if (nonblocking) {
    MPI_Ireduce_scatter(s2, d2, counts, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Reduce_scatter(s2, d2, counts, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  }
  const int offset = rank * (rank + 1) / 2;
  for (int i = 0; i <= rank; ++i) {
    long e = 0;
    for (int k = 0; k < size; ++k) e += in(k, offset + i);
    CHECK(d2[i] == e, "reduce_scatter [%d] = %ld, expected %ld", i, d2[i], e);
  }
  /* scan and exscan */
  long v[COUNT], sc[COUNT], ex[COUNT];
  for (int i = 0; i < COUNT; ++i) v[i] = sc[i] = in(rank, i), ex[i] = -5;
  if (nonblocking) {
    MPI_Iscan(in_place ? MPI_IN_PLACE : v, sc, COUNT, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    finish(&r);
    MPI_Iexscan(v, ex, COUNT, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    finish(&r);
  } else {
    MPI_Scan(in_place ? MPI_IN_PLACE : v, sc, COUNT, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(v, ex, COUNT, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  }
  for (int i = 0; i < COUNT; ++i) {
    long e = 0;
    for (int k = 0; k < rank; ++k) e += in(k, i);
    CHECK(sc[i] == e + in(rank, i), "scan [%d] = %ld, expected %ld", i, sc[i], e + in(rank, i));
    if (rank > 0) CHECK(ex[i] == e, "exscan [%d] = %ld, expected %ld", i, ex[i], e);
    if (rank == 0) CHECK(ex[i] == -5, "exscan touched rank 0's buffer");
  }
  free(s);
  free(s2);
  free(d2);
  free(counts);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (nonblocking = 0; nonblocking <= 1; ++nonblocking) {
    const char* how = nonblocking ? " (non-blocking)" : "";
    char name[128];
    barrier();
    test_bcast();
    snprintf(name, sizeof name, "bcast%s", how);
    OK(name);
    for (int in_place = 0; in_place <= 1; ++in_place) {
      test_reduce(in_place);
      test_allreduce(in_place);
      test_gather_scatter(in_place);
      test_allgather(in_place);
      test_alltoall(in_place);
      test_reduce_scatter_scan(in_place);
      snprintf(name, sizeof name,
               "reduce, allreduce, gather, scatter, allgather, alltoall, "
               "reduce_scatter(_block), scan, exscan%s%s",
               how, in_place ? " in place" : "");
      OK(name);
    }
    test_gatherv_scatterv();
    snprintf(name, sizeof name, "gatherv, scatterv%s", how);
    OK(name);
  }
  MPI_Finalize();
  return 0;
}
