/* Conformance: point-to-point. Every send mode (standard, synchronous, ready, buffered) in
 * blocking and non-blocking form, at sizes that take the eager, split and rendezvous
 * protocols; wildcard receives and their statuses; probe then receive with MPI_Get_count;
 * MPI_PROC_NULL; empty messages; the wait and test families (any, some, all); freed
 * requests; MPI_Sendrecv_replace; messages from one source matched in the order sent; and a
 * truncated receive returning MPI_ERR_TRUNCATE under MPI_ERRORS_RETURN. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void fill(char* b, int n, int seed) {
  for (int i = 0; i < n; ++i) b[i] = (char)(seed * 31 + i * 7);
}
static int same(const char* b, int n, int seed) {
  for (int i = 0; i < n; ++i)
    if (b[i] != (char)(seed * 31 + i * 7)) return 0;
  return 1;
}

/* Rank 0 sends to rank 1 in every mode and size; rank 1 receives and checks. */
static void modes(void) {
  static const int sizes[] = {0, 1, 8, 1000, 5000, 100000};
  const int nsizes = sizeof sizes / sizeof sizes[0];
  char* buf = malloc(100000);
  int attached = 200000 + 6 * MPI_BSEND_OVERHEAD;
  char* bsend = malloc((size_t)attached);
  MPI_Buffer_attach(bsend, attached);
  for (int mode = 0; mode < 8; ++mode) {
    for (int k = 0; k < nsizes; ++k) {
      const int n = sizes[k], tag = mode * 10 + k;
      if (rank == 0) {
        fill(buf, n, tag);
        MPI_Request r;
        switch (mode) {
          case 0:
            MPI_Send(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD);
            break;
          case 1:
            MPI_Ssend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD);
            break;
          case 2:
            MPI_Recv(NULL, 0, MPI_CHAR, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Rsend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD);
            break;
          case 3:
            MPI_Bsend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD);
            break;
          case 4:
            MPI_Isend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            break;
          case 5:
            MPI_Issend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            break;
          case 6:
            MPI_Recv(NULL, 0, MPI_CHAR, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Irsend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            break;
          case 7:
            MPI_Ibsend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            break;
        }
      } else if (rank == 1) {
        MPI_Status st;
        MPI_Request r;
        memset(buf, 0, 100000);
        MPI_Irecv(buf, 100000, MPI_CHAR, 0, tag, MPI_COMM_WORLD, &r);
        if (mode == 2 || mode == 6) MPI_Send(NULL, 0, MPI_CHAR, 0, 999, MPI_COMM_WORLD);
        MPI_Wait(&r, &st);
        int count;
        MPI_Get_count(&st, MPI_CHAR, &count);
        CHECK(count == n && st.MPI_SOURCE == 0 && st.MPI_TAG == tag, "mode %d size %d: count %d",
              mode, n, count);
        CHECK(same(buf, n, tag), "mode %d size %d: data", mode, n);
      }
    }
  }
  void* detached;
  int detached_size;
  MPI_Buffer_detach(&detached, &detached_size);
  CHECK(detached == bsend && detached_size == attached, "MPI_Buffer_detach");
  free(bsend);
  free(buf);
}

static void wildcards_and_probe(void) {
  /* Every rank but 0 sends two messages to rank 0 with tags r and 100 + r, the second after
   * rank 0 has received every first one. */
  if (rank != 0) {
    int v[2] = {rank, rank * rank};
    MPI_Send(v, 2, MPI_INT, 0, rank, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    int* w = malloc(sizeof(int) * (size_t)(rank + 1));
    for (int i = 0; i <= rank; ++i) w[i] = rank + i;
    MPI_Send(w, rank + 1, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);
    free(w);
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 has checked nothing else is waiting */
    return;
  }
  int seen = 0;
  for (int k = 1; k < size; ++k) {
    int v[2];
    MPI_Status st;
    MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    /* From each source the first message comes first (tag r before 100 + r). */
    CHECK(st.MPI_TAG == st.MPI_SOURCE && v[0] == st.MPI_SOURCE && v[1] == v[0] * v[0],
          "wildcard receive: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    seen |= 1 << st.MPI_SOURCE;
  }
  CHECK(seen == ((1 << size) - 2), "every source once");
  MPI_Barrier(MPI_COMM_WORLD);
  for (int k = 1; k < size; ++k) {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    int count;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == st.MPI_SOURCE + 1 && st.MPI_TAG == 100 + st.MPI_SOURCE, "probe: %d ints from %d",
          count, st.MPI_SOURCE);
    int* w = malloc(sizeof(int) * (size_t)count);
    MPI_Status st2;
    MPI_Recv(w, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2);
    CHECK(st2.MPI_SOURCE == st.MPI_SOURCE, "the probed message is the one received");
    for (int i = 0; i < count; ++i) CHECK(w[i] == st.MPI_SOURCE + i, "probed data");
    free(w);
  }
  int flag = 1;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  CHECK(!flag, "nothing left to probe");
  MPI_Barrier(MPI_COMM_WORLD);
}

static void order_and_families(void) {
  /* 20 messages with one tag from rank 1 to rank 0 match in the order sent. */
  enum { M = 20 };
  if (rank == 1) {
    MPI_Request r[M];
    int v[M];
    for (int i = 0; i < M; ++i) {
      v[i] = i;
      MPI_Isend(&v[i], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r[i]);
    }
    MPI_Waitall(M, r, MPI_STATUSES_IGNORE);
  } else if (rank == 0) {
    MPI_Request r[M];
    int v[M];
    for (int i = 0; i < M; ++i) MPI_Irecv(&v[i], 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r[i]);
    int done = 0, index, outcount, idx[M];
    MPI_Status sts[M];
    MPI_Waitany(M, r, &index, &sts[0]);
    CHECK(index >= 0 && r[index] == MPI_REQUEST_NULL, "waitany");
    done++;
    while (done < M) {
      MPI_Waitsome(M, r, &outcount, idx, sts);
      CHECK(outcount != MPI_UNDEFINED && outcount > 0, "waitsome");
      done += outcount;
    }
    int flag;
    MPI_Testall(M, r, &flag, MPI_STATUSES_IGNORE);
    CHECK(flag, "testall on completed requests");
    for (int i = 0; i < M; ++i) CHECK(v[i] == i, "message %d matched out of order (%d)", i, v[i]);
  }
  /* MPI_PROC_NULL and empty messages. */
  MPI_Status st;
  int x = 5;
  MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && count == 0 && x == 5, "MPI_PROC_NULL");
  /* A freed send still arrives; testany and testsome. */
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Request s, rr;
  int out = rank, in = -1;
  MPI_Irecv(&in, 1, MPI_INT, prev, 8, MPI_COMM_WORLD, &rr);
  MPI_Isend(&out, 1, MPI_INT, next, 8, MPI_COMM_WORLD, &s);
  MPI_Request_free(&s);
  CHECK(s == MPI_REQUEST_NULL, "freed request");
  int flag = 0, index;
  while (!flag) MPI_Testany(1, &rr, &index, &flag, &st);
  CHECK(in == prev && index == 0, "testany after a freed send");
  /* Sendrecv_replace around the ring. */
  double ring[3] = {rank, rank * 2.0, rank * 3.0};
  MPI_Sendrecv_replace(ring, 3, MPI_DOUBLE, next, 9, prev, 9, MPI_COMM_WORLD, &st);
  CHECK(ring[0] == prev && ring[2] == prev * 3.0, "sendrecv_replace");
}

static void truncation(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0) {
    int big[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    MPI_Send(big, 10, MPI_INT, 1, 11, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int small[4] = {0};
    MPI_Status st;
    const int rc = MPI_Recv(small, 4, MPI_INT, 0, 11, MPI_COMM_WORLD, &st);
    int cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "truncation returns MPI_ERR_TRUNCATE, got %d", rc);
    CHECK(small[0] == 1 && small[3] == 4, "what fits is received");
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, text, &len);
    CHECK(len > 0, "error string");
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs two ranks");
  modes();
  OK("every send mode, blocking and not, at eager, split and rendezvous sizes");
  wildcards_and_probe();
  OK("wildcard receives, probe then receive, MPI_Get_count");
  order_and_families();
  OK("order of matching, waitany, waitsome, testall, testany, freed requests, PROC_NULL");
  truncation();
  OK("truncation under MPI_ERRORS_RETURN");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
