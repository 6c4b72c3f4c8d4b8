/* The Cell SDK's usual shape: the PPE program creates eight SPE contexts, loads the SPU program
 * into each, and runs each in its own POSIX thread (spe_context_run blocks until the SPU
 * program stops); meanwhile the main thread talks to each SPE through its mailboxes. Checks
 * every word the SPEs wrote, every checksum and exit code, and the time against the memory's
 * bandwidth (argument 1, GB/s): eight SPEs streaming 1 MiB cannot beat it, and must beat one
 * SPE doing their work in turn by half as much again (not twice: one SPE alone keeps fewer
 * pieces in flight, and the eight pay each thread's start and context switch on the PPE's two
 * hardware threads). */
#include <libspe2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "stream_common.h"

extern spe_program_handle_t stream_spu;

static unsigned int in[STREAM_SPES][STREAM_WORDS] __attribute__((aligned(128)));
static unsigned int out[STREAM_SPES][STREAM_WORDS] __attribute__((aligned(128)));
static control_block_t cb[STREAM_SPES];

typedef struct {
  spe_context_ptr_t ctx;
  control_block_t* cb;
  int rc;
  spe_stop_info_t stop;
} thread_arg_t;

static void* run_spe(void* p) {
  thread_arg_t* a = (thread_arg_t*)p;
  unsigned int entry = SPE_DEFAULT_ENTRY;
  a->rc = spe_context_run(a->ctx, &entry, 0, a->cb, NULL, &a->stop);
  return NULL;
}

/* Runs `n` SPEs on slices [first, first + n); returns the simulated seconds it took. */
static double stream(int first, int n, unsigned int factor, int* failures) {
  spe_context_ptr_t ctx[STREAM_SPES];
  pthread_t thread[STREAM_SPES];
  thread_arg_t arg[STREAM_SPES];
  const double t0 = hybridsim_time();
  for (int i = 0; i < n; ++i) {
    const int s = first + i;
    ctx[i] = spe_context_create(0, NULL);
    if (!ctx[i] || spe_program_load(ctx[i], &stream_spu) != 0) {
      perror("spe_context_create/spe_program_load");
      exit(1);
    }
    cb[s].in = (unsigned long long)(unsigned long)in[s];
    cb[s].out = (unsigned long long)(unsigned long)out[s];
    cb[s].words = STREAM_WORDS;
    cb[s].spe = (unsigned int)s;
    arg[i].ctx = ctx[i];
    arg[i].cb = &cb[s];
    if (pthread_create(&thread[i], NULL, run_spe, &arg[i]) != 0) {
      perror("pthread_create");
      exit(1);
    }
  }
  /* The factor goes to each SPE's inbound mailbox; each checksum comes back in its outbound
   * mailbox, read as it arrives. */
  for (int i = 0; i < n; ++i) spe_in_mbox_write(ctx[i], &factor, 1, SPE_MBOX_ALL_BLOCKING);
  unsigned int checksum[STREAM_SPES];
  int pending = n, got[STREAM_SPES] = {0};
  while (pending > 0) {
    for (int i = 0; i < n; ++i) {
      if (got[i] || spe_out_mbox_status(ctx[i]) == 0) continue;
      spe_out_mbox_read(ctx[i], &checksum[i], 1);
      got[i] = 1;
      --pending;
    }
  }
  for (int i = 0; i < n; ++i) pthread_join(thread[i], NULL);
  const double t = hybridsim_time() - t0;
  for (int i = 0; i < n; ++i) {
    const int s = first + i;
    unsigned int sum = 0;
    for (int w = 0; w < STREAM_WORDS; ++w) {
      const unsigned int want = in[s][w] * factor + (unsigned int)s;
      if (out[s][w] != want && (*failures)++ < 5) {
        printf("FAIL: SPE slice %d word %d: %u, expected %u\n", s, w, out[s][w], want);
      }
      sum += want;
    }
    if (checksum[i] != sum && (*failures)++ < 5) {
      printf("FAIL: SPE slice %d mailbox checksum %u, expected %u\n", s, checksum[i], sum);
    }
    if (arg[i].rc != 0 || arg[i].stop.stop_reason != SPE_EXIT ||
        arg[i].stop.result.spe_exit_code != s) {
      printf("FAIL: SPE slice %d stopped with rc %d, reason %u, exit code %d\n", s, arg[i].rc,
             arg[i].stop.stop_reason, arg[i].stop.result.spe_exit_code);
      ++*failures;
    }
    spe_context_destroy(ctx[i]);
  }
  return t;
}

int main(int argc, char** argv) {
  const double memory_gbs = argc > 1 ? atof(argv[1]) : 25.6;
  for (int s = 0; s < STREAM_SPES; ++s) {
    for (int w = 0; w < STREAM_WORDS; ++w) in[s][w] = (unsigned int)(s * 100003 + w * 7);
  }
  printf("%d usable SPEs\n", spe_cpu_info_get(SPE_COUNT_USABLE_SPES, -1));
  int failures = 0;
  const double t8 = stream(0, STREAM_SPES, 3, &failures);
  double t1 = 0;
  for (int s = 0; s < STREAM_SPES; ++s) t1 += stream(s, 1, 5, &failures);
  if (failures) {
    printf("FAIL: %d mismatches\n", failures);
    return 1;
  }
  printf("ok: data, checksums and exit codes of %d SPEs\n", STREAM_SPES);
  const double bytes = 2.0 * STREAM_SPES * STREAM_WORDS * sizeof(unsigned int);
  const double floor_s = bytes / (memory_gbs * 1e9);
  printf(
      "8 SPEs in threads: %.1f us (%.2f GB/s); one SPE at a time: %.1f us; memory bound "
      "%.1f us\n",
      t8 * 1e6, bytes / t8 / 1e9, t1 * 1e6, floor_s * 1e6);
  if (t8 < floor_s) {
    printf("FAIL: faster than the memory's %.1f GB/s allow\n", memory_gbs);
    return 1;
  }
  if (t8 * 1.5 > t1) {
    printf("FAIL: eight SPEs in threads are not 1.5 times as fast as one at a time\n");
    return 1;
  }
  printf("ok: timing\n");
  return 0;
}
