/* Conformance: ranks behave as separate processes. Each rank's globals, statics, thread-local
 * variables, heap and rand() are its own: every rank writes its rank into them, the ranks
 * synchronise, and each still reads its own. Its argv is its own copy. The processor name
 * is the node's torus coordinates, "(x,y,z)". */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int global_rank = -1;
static int static_rank = -1;
__thread int tls_rank = -1;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(global_rank == -1 && static_rank == -1 && tls_rank == -1, "a fresh process's variables");
  global_rank = static_rank = tls_rank = rank;
  int* heap = malloc(sizeof(int) * 1000);
  for (int i = 0; i < 1000; ++i) heap[i] = rank;
  srand(42);
  const int first = rand();
  argv[0][0] = (char)('A' + rank % 26); /* each rank's argv is its own to change */
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(global_rank == rank && static_rank == rank && tls_rank == rank,
        "globals stay the rank's own");
  for (int i = 0; i < 1000; ++i) CHECK(heap[i] == rank, "heap");
  CHECK(argv[0][0] == (char)('A' + rank % 26), "argv");
  /* The same seed gives every rank the same sequence, as in separate processes. */
  srand(42);
  CHECK(rand() == first, "rand");
  int firsts[64];
  MPI_Allgather(&first, 1, MPI_INT, firsts, 1, MPI_INT, MPI_COMM_WORLD);
  for (int k = 0; k < size && k < 64; ++k) CHECK(firsts[k] == first, "rand() of rank %d", k);
  char name[MPI_MAX_PROCESSOR_NAME];
  int len;
  MPI_Get_processor_name(name, &len);
  CHECK(len > 0 && name[0] == '(', "processor name '%s'", name); /* the node: "(x,y,z)" */
  int provided = -1, thread_flag;
  MPI_Query_thread(&provided);
  MPI_Is_thread_main(&thread_flag);
  CHECK(provided == MPI_THREAD_SINGLE && thread_flag, "thread level");
  int version, subversion;
  MPI_Get_version(&version, &subversion);
  CHECK(version == 3 && subversion == 1, "version");
  const double t = MPI_Wtime(), tick = MPI_Wtick();
  CHECK(t > 0 && tick > 0 && tick < 1e-6, "simulated clock %g tick %g", t, tick);
  if (argc > 1) CHECK(strcmp(argv[1], "alpha") == 0 && argc == 3, "arguments");
  OK("globals, statics, thread-locals, heap, argv and rand are each rank's own");
  free(heap);
  MPI_Finalize();
  return 0;
}
