/* Conformance: communicators and groups. Splits by colour and key (with MPI_UNDEFINED), dups,
 * communicators from groups (incl, excl, ranges, union, intersection, difference), rank
 * translation, comparison, a point-to-point ring with wildcards and a collective on each, and
 * many communicators made and freed in turn (their slots reused). */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* Halves, ranked in reverse order by key; rank 0 joins none. */
  MPI_Comm half;
  const int color = rank == 0 ? MPI_UNDEFINED : rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &half);
  if (rank == 0) {
    CHECK(half == MPI_COMM_NULL, "MPI_UNDEFINED gives MPI_COMM_NULL");
  } else {
    int hs, hr;
    MPI_Comm_size(half, &hs);
    MPI_Comm_rank(half, &hr);
    int members = 0, above = 0;
    for (int r = 1; r < size; ++r) {
      if (r % 2 == rank % 2) ++members;
      if (r % 2 == rank % 2 && r > rank) ++above;
    }
    CHECK(hs == members && hr == above, "split: rank %d of %d", hr, hs);
    /* A ring on the half, by wildcard source: tags are the half's own. */
    const int next = (hr + 1) % hs, prev = (hr + hs - 1) % hs;
    int out = rank, in = -1;
    MPI_Status st;
    MPI_Sendrecv(&out, 1, MPI_INT, next, 20000, &in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, half,
                 &st);
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 20000, "ring on a split: %d %d", st.MPI_SOURCE,
          st.MPI_TAG);
    int sum = 0;
    MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, half);
    int e = 0;
    for (int r = 1; r < size; ++r)
      if (r % 2 == rank % 2) e += r;
    CHECK(sum == e, "allreduce on a split");
    MPI_Comm_free(&half);
  }
  OK("MPI_Comm_split with keys and MPI_UNDEFINED, wildcards and collectives on it");

  /* Groups. */
  MPI_Group world, evens, odds, firsts, both, none, diff;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int gs;
  MPI_Group_size(world, &gs);
  CHECK(gs == size, "world group size");
  int* list = malloc(sizeof(int) * size);
  int n = 0;
  for (int r = 0; r < size; r += 2) list[n++] = r;
  MPI_Group_incl(world, n, list, &evens);
  MPI_Group_excl(world, n, list, &odds);
  int range[1][3] = {{0, size / 2 - 1, 1}};
  MPI_Group_range_incl(world, 1, range, &firsts);
  MPI_Group_union(evens, odds, &both);
  MPI_Group_intersection(evens, odds, &none);
  MPI_Group_difference(world, evens, &diff);
  int cmp;
  MPI_Group_compare(diff, odds, &cmp);
  CHECK(cmp == MPI_IDENT, "difference is the odds");
  MPI_Group_compare(both, world, &cmp);
  CHECK(cmp == MPI_SIMILAR || (size <= 2 && cmp == MPI_IDENT), "union is the world reordered (%d)",
        cmp);
  MPI_Group_size(none, &gs);
  CHECK(gs == 0, "intersection is empty");
  int grank;
  MPI_Group_rank(evens, &grank);
  CHECK(grank == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED), "group rank");
  /* Translate the odd group's ranks into the world's. */
  int* from = malloc(sizeof(int) * size);
  int* to = malloc(sizeof(int) * size);
  int nodd;
  MPI_Group_size(odds, &nodd);
  for (int i = 0; i < nodd; ++i) from[i] = i;
  MPI_Group_translate_ranks(odds, nodd, from, world, to);
  for (int i = 0; i < nodd; ++i) CHECK(to[i] == 2 * i + 1, "translate %d -> %d", i, to[i]);
  OK("groups: incl, excl, range, union, intersection, difference, translate, compare");

  /* Communicators from groups: every rank calls, the members get one. */
  MPI_Comm ev, first;
  MPI_Comm_create(MPI_COMM_WORLD, evens, &ev);
  MPI_Comm_create(MPI_COMM_WORLD, firsts, &first);
  if (rank % 2 == 0) {
    int r;
    MPI_Comm_rank(ev, &r);
    CHECK(r == rank / 2, "create: rank %d", r);
    int v = rank, max = -1;
    MPI_Allreduce(&v, &max, 1, MPI_INT, MPI_MAX, ev);
    CHECK(max == ((size - 1) / 2) * 2, "allreduce on the evens");
    MPI_Comm_free(&ev);
  } else {
    CHECK(ev == MPI_COMM_NULL, "non-members get MPI_COMM_NULL");
  }
  if (first != MPI_COMM_NULL) MPI_Comm_free(&first);

  /* Dup: same group, its own messages. */
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_compare(MPI_COMM_WORLD, dup, &cmp);
  CHECK(cmp == MPI_CONGRUENT, "dup is congruent");
  MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &cmp);
  CHECK(cmp == MPI_IDENT, "world is itself");
  /* A message on the world and one on the dup with the same tag: each receive takes its own. */
  if (size >= 2) {
    if (rank == 0) {
      int a = 1, b = 2;
      MPI_Request r[2]; /* not MPI_Send: with no eager protocol it would wait for rank 1 */
      MPI_Isend(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[0]);
      MPI_Isend(&b, 1, MPI_INT, 1, 5, dup, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
      int a = 0, b = 0;
      MPI_Recv(&b, 1, MPI_INT, 0, 5, dup, MPI_STATUS_IGNORE);
      MPI_Recv(&a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(a == 1 && b == 2, "communicators keep their messages apart");
    }
  }
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Comm_set_name(dup, "my dup");
  MPI_Comm_get_name(dup, name, &len);
  CHECK(len == 6, "comm name");
  MPI_Comm_free(&dup);
  OK("MPI_Comm_create, MPI_Comm_dup, MPI_Comm_compare, names");

  /* Many communicators in turn: made and freed, their slots come back. */
  for (int i = 0; i < 40; ++i) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int x = i, y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
    CHECK(y == i * size, "dup %d", i);
    MPI_Comm_free(&c);
  }
  OK("40 communicators made and freed in turn");
  int* tag_ub;
  int flag;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
  CHECK(flag && *tag_ub >= 32767, "MPI_TAG_UB");
  MPI_Group_free(&world);
  MPI_Group_free(&evens);
  MPI_Group_free(&odds);
  MPI_Group_free(&firsts);
  MPI_Group_free(&both);
  MPI_Group_free(&none);
  MPI_Group_free(&diff);
  free(list);
  free(from);
  free(to);
  MPI_Finalize();
  return 0;
}
