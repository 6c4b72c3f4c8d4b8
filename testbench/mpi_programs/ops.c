/* Conformance: every predefined reduction on every type MPI defines it for, checked against a
 * sequential fold; MAXLOC and MINLOC on every pair type; a user's non-commutative operation
 * (2x2 matrix products, whose order matters) by MPI_Reduce, MPI_Allreduce and MPI_Scan; and
 * MPI_Reduce_local. Rank r's element i is small and exact: (r + i) % 5 + 1. */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define COUNT 4
static int rank, size;

static int v(int r, int i) {
  return (r + i) % 5 + 1;
}

/* One type under all its operations: fold every rank's values in rank order and compare. */
#define TEST_TYPE(T, MT, OPS)                                                                     \
  do {                                                                                            \
    const MPI_Op ops[] = OPS;                                                                     \
    for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; ++o) {                                   \
      T s[COUNT], d[COUNT], e[COUNT];                                                             \
      for (int i = 0; i < COUNT; ++i) s[i] = (T)v(rank, i), e[i] = (T)v(0, i);                    \
      for (int k = 1; k < size; ++k)                                                              \
        for (int i = 0; i < COUNT; ++i) e[i] = apply(ops[o], e[i], (T)v(k, i));                   \
      MPI_Allreduce(s, d, COUNT, MT, ops[o], MPI_COMM_WORLD);                                     \
      for (int i = 0; i < COUNT; ++i) CHECK(d[i] == e[i], "%s with op %u element %d", #MT, o, i); \
    }                                                                                             \
  } while (0)

/* The operation on two values of one type (their common type, then back to it). */
#define apply(op, a, b)                                                      \
  ((op) == MPI_SUM    ? (a) + (b)                                            \
   : (op) == MPI_PROD ? (a) * (b)                                            \
   : (op) == MPI_MAX  ? ((a) > (b) ? (a) : (b))                              \
   : (op) == MPI_MIN  ? ((a) < (b) ? (a) : (b))                              \
   : (op) == MPI_LAND ? (a)*0 + ((a) && (b))                                 \
   : (op) == MPI_LOR  ? (a)*0 + ((a) || (b))                                 \
   : (op) == MPI_LXOR ? (a)*0 + (!(a) != !(b))                               \
   : (op) == MPI_BAND ? (a)*0 + (long long)((long long)(a) & (long long)(b)) \
   : (op) == MPI_BOR  ? (a)*0 + (long long)((long long)(a) | (long long)(b)) \
                      : (a)*0 + (long long)((long long)(a) ^ (long long)(b)))

#define INT_OPS \
  { MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR }
#define FLOAT_OPS \
  { MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN }

/* 2x2 matrices, row-major: a user operation whose order matters. */
typedef struct {
  long m[4];
} Mat;
static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  Mat* a = in;
  Mat* b = inout;
  for (int k = 0; k < *len; ++k) {
    const long* x = a[k].m;
    const long* y = b[k].m;
    Mat r = {{x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
              x[2] * y[1] + x[3] * y[3]}};
    b[k] = r; /* inout = in * inout */
  }
}
static Mat mat_of(int r) {
  Mat m = {{1, r + 1, 0, 1}};
  if (r % 2) m.m[2] = 1; /* not all of them commute */
  return m;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  TEST_TYPE(char, MPI_CHAR, INT_OPS);
  TEST_TYPE(signed char, MPI_SIGNED_CHAR, INT_OPS);
  TEST_TYPE(unsigned char, MPI_UNSIGNED_CHAR, INT_OPS);
  TEST_TYPE(short, MPI_SHORT, INT_OPS);
  TEST_TYPE(unsigned short, MPI_UNSIGNED_SHORT, INT_OPS);
  TEST_TYPE(int, MPI_INT, INT_OPS);
  TEST_TYPE(unsigned, MPI_UNSIGNED, INT_OPS);
  TEST_TYPE(long, MPI_LONG, INT_OPS);
  TEST_TYPE(unsigned long, MPI_UNSIGNED_LONG, INT_OPS);
  TEST_TYPE(long long, MPI_LONG_LONG, INT_OPS);
  TEST_TYPE(unsigned long long, MPI_UNSIGNED_LONG_LONG, INT_OPS);
  TEST_TYPE(int8_t, MPI_INT8_T, INT_OPS);
  TEST_TYPE(int16_t, MPI_INT16_T, INT_OPS);
  TEST_TYPE(int32_t, MPI_INT32_T, INT_OPS);
  TEST_TYPE(int64_t, MPI_INT64_T, INT_OPS);
  TEST_TYPE(uint8_t, MPI_UINT8_T, INT_OPS);
  TEST_TYPE(uint16_t, MPI_UINT16_T, INT_OPS);
  TEST_TYPE(uint32_t, MPI_UINT32_T, INT_OPS);
  TEST_TYPE(uint64_t, MPI_UINT64_T, INT_OPS);
  TEST_TYPE(float, MPI_FLOAT, FLOAT_OPS);
  TEST_TYPE(double, MPI_DOUBLE, FLOAT_OPS);
  TEST_TYPE(long double, MPI_LONG_DOUBLE, FLOAT_OPS);
  OK("every predefined operation on every integer and floating-point type");
  {
    /* C bool: the logical operations. */
    const MPI_Op ops[] = {MPI_LAND, MPI_LOR, MPI_LXOR};
    for (unsigned o = 0; o < 3; ++o) {
      bool s = rank % 2, d, e = 0 % 2;
      for (int k = 1; k < size; ++k) e = apply(ops[o], e, (bool)(k % 2));
      MPI_Allreduce(&s, &d, 1, MPI_C_BOOL, ops[o], MPI_COMM_WORLD);
      CHECK(d == e, "MPI_C_BOOL op %u", o);
    }
    /* MPI_BYTE: the bitwise operations. */
    const MPI_Op bops[] = {MPI_BAND, MPI_BOR, MPI_BXOR};
    for (unsigned o = 0; o < 3; ++o) {
      unsigned char s = (unsigned char)(0x11 << (rank % 4)), d, e = 0x11;
      for (int k = 1; k < size; ++k)
        e = (unsigned char)apply(bops[o], e, (unsigned char)(0x11 << (k % 4)));
      MPI_Allreduce(&s, &d, 1, MPI_BYTE, bops[o], MPI_COMM_WORLD);
      CHECK(d == e, "MPI_BYTE op %u", o);
    }
    /* Complex: sum and product. */
    double complex s = (rank + 1) + 1.0 * I, d, e = 1 + 1.0 * I, p = e;
    for (int k = 1; k < size; ++k) e += (k + 1) + 1.0 * I, p *= (k + 1) + 1.0 * I;
    MPI_Allreduce(&s, &d, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    CHECK(d == e, "complex sum");
    MPI_Allreduce(&s, &d, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    CHECK(cabs(d - p) < 1e-9 * cabs(p), "complex product");
    float complex fs = (float)(rank + 1), fd;
    MPI_Allreduce(&fs, &fd, 1, MPI_C_FLOAT_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    CHECK(crealf(fd) == (float)(size * (size + 1) / 2), "float complex sum");
  }
  OK("logical, bitwise and complex operations");
  {
    /* MAXLOC and MINLOC: each value is highest (and lowest) at a known rank; ties keep the
     * lower index. */
    struct {
      double v;
      int i;
    } ds = {(double)((rank * 7) % size), rank}, dmax, dmin;
    MPI_Allreduce(&ds, &dmax, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Allreduce(&ds, &dmin, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
    int emax = 0, emin = 0;
    for (int k = 0; k < size; ++k) {
      if ((k * 7) % size > (emax * 7) % size) emax = k;
      if ((k * 7) % size < (emin * 7) % size) emin = k;
    }
    CHECK(dmax.i == emax && dmax.v == (double)((emax * 7) % size), "MAXLOC %d", dmax.i);
    CHECK(dmin.i == emin, "MINLOC %d", dmin.i);
    struct {
      float v;
      int i;
    } fs = {(float)(rank % 3), rank}, fr;
    MPI_Allreduce(&fs, &fr, 1, MPI_FLOAT_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(fr.v == (size > 2 ? 2.0f : (float)(size - 1)) && fr.i == (size > 2 ? 2 : size - 1),
          "FLOAT_INT MAXLOC");
    struct {
      long v;
      int i;
    } ls = {-(long)rank, rank}, lr;
    MPI_Allreduce(&ls, &lr, 1, MPI_LONG_INT, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(lr.v == -(long)(size - 1) && lr.i == size - 1, "LONG_INT MINLOC");
    int ts[2] = {rank / 2, rank}, tr[2];
    MPI_Allreduce(ts, tr, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(tr[0] == (size - 1) / 2 && tr[1] == ((size - 1) / 2) * 2,
          "2INT MAXLOC tie to the lower index");
    struct {
      short v;
      int i;
    } ss = {(short)(size - rank), rank}, sr;
    MPI_Allreduce(&ss, &sr, 1, MPI_SHORT_INT, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(sr.v == 1 && sr.i == size - 1, "SHORT_INT MINLOC");
    struct {
      long double v;
      int i;
    } xs = {(long double)rank, rank}, xr;
    MPI_Allreduce(&xs, &xr, 1, MPI_LONG_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(xr.v == (long double)(size - 1) && xr.i == size - 1, "LONG_DOUBLE_INT MAXLOC");
  }
  OK("MAXLOC and MINLOC on every pair type");
  {
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_LONG, &mat);
    MPI_Type_commit(&mat);
    MPI_Op op;
    MPI_Op_create(matmul, 0, &op);
    int commute = 1;
    MPI_Op_commutative(op, &commute);
    CHECK(commute == 0, "MPI_Op_commutative");
    Mat mine = mat_of(rank), got, e = mat_of(0);
    int one = 1;
    for (int k = 1; k < size; ++k) {
      Mat next = mat_of(k);
      Mat lower = e;
      matmul(&lower, &next, &one, &mat); /* lower * next */
      e = next;
    }
    MPI_Reduce(&mine, &got, 1, mat, op, size - 1, MPI_COMM_WORLD);
    if (rank == size - 1) CHECK(memcmp(&got, &e, sizeof e) == 0, "user reduce in rank order");
    MPI_Allreduce(&mine, &got, 1, mat, op, MPI_COMM_WORLD);
    CHECK(memcmp(&got, &e, sizeof e) == 0, "user allreduce in rank order");
    Mat prefix = mat_of(0);
    for (int k = 1; k <= rank; ++k) {
      Mat next = mat_of(k);
      Mat lower = prefix;
      matmul(&lower, &next, &one, &mat);
      prefix = next;
    }
    MPI_Scan(&mine, &got, 1, mat, op, MPI_COMM_WORLD);
    CHECK(memcmp(&got, &prefix, sizeof prefix) == 0, "user scan in rank order");
    MPI_Request r;
    MPI_Iallreduce(&mine, &got, 1, mat, op, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(memcmp(&got, &e, sizeof e) == 0, "user iallreduce in rank order");
    long a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
    MPI_Reduce_local(a, b, 3, MPI_LONG, MPI_SUM);
    CHECK(b[0] == 11 && b[2] == 33, "MPI_Reduce_local");
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
  }
  OK("a user's non-commutative operation keeps rank order");
  MPI_Finalize();
  return 0;
}
