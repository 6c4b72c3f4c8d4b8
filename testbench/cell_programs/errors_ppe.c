/* PPE programs that misuse the SDK, one per argument: each run must fail naming the call.
 *   noload    spe_context_run on a context no program was loaded into
 *   overflow  spe_program_load of an SPU program larger than the local store
 *   dma       an SPU program whose DMA breaks the MFC's size rule
 *   status    the PPE program returns 3: the run's exit status
 *   recurse   a thread that recurses without end overflows its stack (the guard page)
 *   spu_recurse  an SPU program that recurses without end overflows its stack */
#include <libspe2.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

extern spe_program_handle_t big_spu;
extern spe_program_handle_t bad_dma_spu;
extern spe_program_handle_t mailbox_spu;

static char data[128] __attribute__((aligned(128)));

/* Each frame keeps a buffer the compiler cannot drop, so the recursion runs off the stack. */
static int recurse(volatile int depth) {
  volatile char frame[512];
  frame[0] = (char)depth;
  return depth > 1000000 ? frame[0] : recurse(depth + 1) + frame[0];
}

static void* runaway(void* arg) {
  (void)arg;
  printf("recursing: %d\n", recurse(0));
  return NULL;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  spe_context_ptr_t ctx = spe_context_create(0, NULL);
  unsigned int entry = SPE_DEFAULT_ENTRY;
  spe_stop_info_t stop;
  if (strcmp(mode, "noload") == 0) {
    spe_context_run(ctx, &entry, 0, data, NULL, &stop);
  } else if (strcmp(mode, "overflow") == 0) {
    spe_program_load(ctx, &big_spu);
  } else if (strcmp(mode, "dma") == 0) {
    spe_program_load(ctx, &bad_dma_spu);
    spe_context_run(ctx, &entry, 0, data, NULL, &stop);
  } else if (strcmp(mode, "recurse") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, runaway, NULL);
    pthread_join(t, NULL);
  } else if (strcmp(mode, "spu_recurse") == 0) {
    spe_program_load(ctx, &mailbox_spu);
    spe_context_run(ctx, &entry, 0, (void*)3, NULL, &stop);
  } else if (strcmp(mode, "status") == 0) {
    printf("returning 3\n");
    return 3;
  }
  printf("FAIL: mode '%s' went on\n", mode);
  return 0;
}
