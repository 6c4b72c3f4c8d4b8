/* The PPE's side of the DaCS stream example: the host's child. It offers its input and output
 * buffers to the host as remote memory, and for each round receives the header (the factor),
 * waits for the host's word that its data is in, streams it through its eight SPEs (the
 * stream example's SPU program, in threads), reports the checksum in the host's mailbox and
 * waits at the group's barrier while the host gets the results. Its DaCS serves the host's
 * transfers while it waits in a DaCS call. */
#include <dacs.h>
#include <libspe2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dacs_stream_common.h"

extern spe_program_handle_t stream_spu;

static unsigned int in[STREAM_SPES][STREAM_WORDS] __attribute__((aligned(128)));
static unsigned int out[STREAM_SPES][STREAM_WORDS] __attribute__((aligned(128)));
static control_block_t cb[STREAM_SPES];

#define CHECK(call)                                                                  \
  do {                                                                               \
    DACS_ERR_T rc_ = (call);                                                         \
    if (rc_ != DACS_SUCCESS) {                                                       \
      printf("FAIL (PPE): %s: %s (line %d)\n", #call, dacs_strerror(rc_), __LINE__); \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

typedef struct {
  spe_context_ptr_t ctx;
  control_block_t* cb;
  int rc;
} thread_arg_t;

static void* run_spe(void* p) {
  thread_arg_t* a = (thread_arg_t*)p;
  unsigned int entry = SPE_DEFAULT_ENTRY;
  a->rc = spe_context_run(a->ctx, &entry, 0, a->cb, NULL, NULL);
  return NULL;
}

/* Every SPE transforms its slice; returns the sum of their checksums. */
static unsigned int stream(unsigned int factor) {
  spe_context_ptr_t ctx[STREAM_SPES];
  pthread_t thread[STREAM_SPES];
  thread_arg_t arg[STREAM_SPES];
  for (int s = 0; s < STREAM_SPES; ++s) {
    ctx[s] = spe_context_create(0, NULL);
    if (!ctx[s] || spe_program_load(ctx[s], &stream_spu) != 0) {
      perror("spe_context_create/spe_program_load");
      exit(1);
    }
    cb[s].in = (unsigned long long)(unsigned long)in[s];
    cb[s].out = (unsigned long long)(unsigned long)out[s];
    cb[s].words = STREAM_WORDS;
    cb[s].spe = (unsigned int)s;
    arg[s].ctx = ctx[s];
    arg[s].cb = &cb[s];
    if (pthread_create(&thread[s], NULL, run_spe, &arg[s]) != 0) exit(1);
  }
  unsigned int sum = 0;
  for (int s = 0; s < STREAM_SPES; ++s)
    spe_in_mbox_write(ctx[s], &factor, 1, SPE_MBOX_ALL_BLOCKING);
  for (int s = 0; s < STREAM_SPES; ++s) {
    unsigned int checksum;
    while (spe_out_mbox_status(ctx[s]) == 0) {
    }
    spe_out_mbox_read(ctx[s], &checksum, 1);
    sum += checksum;
  }
  for (int s = 0; s < STREAM_SPES; ++s) {
    pthread_join(thread[s], NULL);
    if (arg[s].rc < 0) exit(1);
    spe_context_destroy(ctx[s]);
  }
  return sum;
}

int main(void) {
  CHECK(dacs_runtime_init(NULL, NULL));
  dacs_remote_mem_t mem_in, mem_out;
  CHECK(dacs_remote_mem_create(in, sizeof in, DACS_WRITE_ONLY, &mem_in));
  CHECK(dacs_remote_mem_create(out, sizeof out, DACS_READ_ONLY, &mem_out));
  CHECK(dacs_remote_mem_share(DACS_DE_PARENT, DACS_PID_PARENT, mem_in));
  CHECK(dacs_remote_mem_share(DACS_DE_PARENT, DACS_PID_PARENT, mem_out));
  dacs_group_t group;
  CHECK(dacs_group_accept(DACS_DE_PARENT, DACS_PID_PARENT, &group));
  dacs_wid_t wid;
  CHECK(dacs_wid_reserve(&wid));
  for (;;) {
    dacs_stream_header_t header;
    CHECK(dacs_recv(&header, sizeof header, DACS_DE_PARENT, DACS_PID_PARENT, DACS_STREAM_HEADER,
                    wid, DACS_BYTE_SWAP_WORD));
    CHECK(dacs_wait(wid));
    if (header.factor == 0) break; /* no more rounds */
    /* The host's mailbox word says its put is in (waiting here serves the put). */
    uint32_t go;
    CHECK(dacs_mailbox_read(&go, DACS_DE_PARENT, DACS_PID_PARENT));
    uint32_t sum = stream(header.factor);
    CHECK(dacs_mailbox_write(&sum, DACS_DE_PARENT, DACS_PID_PARENT));
    CHECK(dacs_barrier_wait(group)); /* the host gets the results meanwhile */
  }
  CHECK(dacs_wid_release(&wid));
  CHECK(dacs_barrier_wait(group)); /* the host has released the regions */
  CHECK(dacs_group_leave(&group));
  CHECK(dacs_remote_mem_destroy(&mem_in));
  CHECK(dacs_remote_mem_destroy(&mem_out));
  CHECK(dacs_runtime_exit());
  return 0;
}
