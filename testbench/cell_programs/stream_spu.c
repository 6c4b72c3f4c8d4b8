/* SPU side of the stream example: reads its control block, takes the factor from its inbound
 * mailbox, streams its input through the local store with two buffers (GET of chunk i + 1
 * while chunk i is computed), PUTs the results back, and reports a checksum in its outbound
 * mailbox. */
#include <spu_mfcio.h>

#include "stream_common.h"

static control_block_t cb;
static unsigned int in[2][STREAM_CHUNK] __attribute__((aligned(128)));
static unsigned int out[2][STREAM_CHUNK] __attribute__((aligned(128)));

static void wait_tag(unsigned int tag) {
  mfc_write_tag_mask(1u << tag);
  mfc_read_tag_status_all();
}

int main(unsigned long long speid, unsigned long long argp, unsigned long long envp) {
  (void)speid, (void)envp;
  mfc_get(&cb, argp, sizeof cb, 2, 0, 0);
  wait_tag(2);
  const unsigned int factor = spu_read_in_mbox();
  const unsigned int chunks = cb.words / STREAM_CHUNK;
  unsigned int checksum = 0;
  mfc_get(in[0], cb.in, sizeof in[0], 0, 0, 0);
  for (unsigned int i = 0; i < chunks; ++i) {
    const unsigned int b = i & 1;
    if (i + 1 < chunks) {
      mfc_get(in[b ^ 1], cb.in + (i + 1) * sizeof in[0], sizeof in[0], b ^ 1, 0, 0);
    }
    wait_tag(b); /* chunk i is in, and the PUT that last used out[b] is done */
    for (unsigned int k = 0; k < STREAM_CHUNK; ++k) {
      out[b][k] = in[b][k] * factor + cb.spe;
      checksum += out[b][k];
    }
    hybridsim_compute(STREAM_CHUNK / 4); /* four words a cycle, as the SPU's SIMD would */
    mfc_put(out[b], cb.out + i * sizeof out[0], sizeof out[0], b, 0, 0);
  }
  wait_tag(0);
  wait_tag(1);
  spu_write_out_mbox(checksum);
  return (int)cb.spe;
}
