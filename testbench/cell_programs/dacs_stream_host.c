/* The host's side of a three-level program, as on Roadrunner: an Opteron process reserves its
 * Cell, starts the PPE program there (argument 1: its path) and, for each round (argument 2,
 * default 2), sends a header message (the factor), puts 512 KiB of input into the PPE
 * program's memory, tells it by mailbox that the input is in, lets it stream the data through
 * its eight SPEs, gets the 512 KiB of results back and checks every byte. Rounds after the first
 * reuse the same buffers, so the registration cache already holds them. Prints each round's time
 * and its parts. */
#include <dacs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dacs_stream_common.h"

static unsigned int in[STREAM_SPES * STREAM_WORDS] __attribute__((aligned(128)));
static unsigned int out[STREAM_SPES * STREAM_WORDS] __attribute__((aligned(128)));

#define CHECK(call)                                                            \
  do {                                                                         \
    DACS_ERR_T rc_ = (call);                                                   \
    if (rc_ != DACS_SUCCESS) {                                                 \
      printf("FAIL: %s: %s (line %d)\n", #call, dacs_strerror(rc_), __LINE__); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 2) {
    printf("usage: %s PPE_PROGRAM [ROUNDS]\n", argv[0]);
    return 2;
  }
  const unsigned int rounds = argc > 2 ? (unsigned int)atoi(argv[2]) : 2;
  CHECK(dacs_runtime_init(NULL, NULL));
  uint32_t n = 1;
  de_id_t cell;
  CHECK(dacs_reserve_children(DACS_DE_CBE, &n, &cell));
  if (n != 1) {
    printf("FAIL: no Cell to reserve\n");
    return 1;
  }
  const char* ppe_argv[] = {NULL};
  dacs_process_id_t pid;
  CHECK(dacs_de_start(cell, argv[1], ppe_argv, NULL, DACS_PROC_LOCAL_FILE, &pid));
  /* The PPE program's input and output, and a group for the end of each round. */
  dacs_remote_mem_t cell_in, cell_out;
  CHECK(dacs_remote_mem_accept(cell, pid, &cell_in));
  CHECK(dacs_remote_mem_accept(cell, pid, &cell_out));
  dacs_group_t group;
  CHECK(dacs_group_init(&group, 0));
  CHECK(dacs_group_add_member(DACS_DE_SELF, DACS_PID_SELF, group));
  CHECK(dacs_group_add_member(cell, pid, group));
  CHECK(dacs_group_close(group));
  dacs_wid_t wid;
  CHECK(dacs_wid_reserve(&wid));
  int failures = 0;
  for (unsigned int r = 0; r < rounds; ++r) {
    for (unsigned int s = 0; s < STREAM_SPES; ++s) {
      for (unsigned int w = 0; w < STREAM_WORDS; ++w) {
        in[s * STREAM_WORDS + w] = dacs_stream_input(s, w, r);
      }
    }
    memset(out, 0, sizeof out);
    dacs_stream_header_t header = {3 + r, r, {0, 0}};
    const double t0 = hybridsim_time();
    CHECK(
        dacs_send(&header, sizeof header, cell, pid, DACS_STREAM_HEADER, wid, DACS_BYTE_SWAP_WORD));
    CHECK(dacs_put(cell_in, 0, in, sizeof in, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_WORD));
    CHECK(dacs_wait(wid));
    const double t1 = hybridsim_time();
    uint32_t go = 1, checksum = 0;
    CHECK(dacs_mailbox_write(&go, cell, pid));      /* the input is in */
    CHECK(dacs_mailbox_read(&checksum, cell, pid)); /* the SPEs are done */
    const double t2 = hybridsim_time();
    CHECK(dacs_get(out, cell_out, 0, sizeof out, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_WORD));
    CHECK(dacs_wait(wid));
    const double t3 = hybridsim_time();
    CHECK(dacs_barrier_wait(group)); /* the PPE program may reuse its buffers */
    unsigned int sum = 0;
    for (unsigned int s = 0; s < STREAM_SPES; ++s) {
      for (unsigned int w = 0; w < STREAM_WORDS; ++w) {
        const unsigned int want = dacs_stream_input(s, w, r) * header.factor + s;
        const unsigned int got = out[s * STREAM_WORDS + w];
        sum += got;
        if (got != want && failures++ < 5) {
          printf("FAIL: round %u slice %u word %u: %u, expected %u\n", r, s, w, got, want);
        }
      }
    }
    if (sum != checksum) {
      printf("FAIL: round %u: checksum %u, the Cell's %u\n", r, sum, checksum);
      ++failures;
    }
    printf("round %u: %.1f us: to the Cell %.1f us, SPEs %.1f us, back %.1f us\n", r,
           (t3 - t0) * 1e6, (t1 - t0) * 1e6, (t2 - t1) * 1e6, (t3 - t2) * 1e6);
  }
  dacs_stream_header_t stop = {0, rounds, {0, 0}};
  CHECK(dacs_send(&stop, sizeof stop, cell, pid, DACS_STREAM_HEADER, wid, DACS_BYTE_SWAP_WORD));
  CHECK(dacs_wait(wid));
  CHECK(dacs_wid_release(&wid));
  CHECK(dacs_remote_mem_release(&cell_in));
  CHECK(dacs_remote_mem_release(&cell_out));
  CHECK(dacs_barrier_wait(group)); /* the PPE program may destroy its regions */
  int32_t status = -1;
  const DACS_ERR_T end = dacs_de_wait(cell, pid, &status);
  if (end != DACS_STS_PROC_FINISHED || status != 0) {
    printf("FAIL: the PPE program ended with %s, status %d\n", dacs_strerror(end), status);
    return 1;
  }
  CHECK(dacs_group_destroy(&group));
  CHECK(dacs_release_de_list(1, &cell));
  CHECK(dacs_runtime_exit());
  if (failures) return 1;
  printf("ok: %u rounds of %d KiB through %d SPEs and back, every byte checked\n", rounds,
         DACS_STREAM_BYTES / 1024, STREAM_SPES);
  return 0;
}
