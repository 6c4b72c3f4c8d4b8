/* The PPE's two hardware threads: THREADS compute-bound threads (argument 1), each computing
 * CYCLES PPE cycles (argument 2) in one hybridsim_compute, created and joined by the main
 * thread; prints the simulated time from the first pthread_create to the last pthread_join.
 * The tests compare it with what the model predicts (CMakeLists.txt says how). */
#include <hybridsim.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 8

static unsigned long long cycles;

static void* work(void* arg) {
  (void)arg;
  hybridsim_compute(cycles);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const int threads = atoi(argv[1]);
  cycles = strtoull(argv[2], NULL, 10);
  if (threads < 1 || threads > MAX_THREADS) return 2;
  pthread_t t[MAX_THREADS];
  const double start = hybridsim_time();
  for (int i = 0; i < threads; ++i) pthread_create(&t[i], NULL, work, NULL);
  for (int i = 0; i < threads; ++i) pthread_join(t[i], NULL);
  const double end = hybridsim_time();
  printf("%d threads of %llu cycles: %.0f ns\n", threads, cycles, (end - start) * 1e9);
  return 0;
}
