/* The SPU's side of the event, local-store and stack tests (events_ppe.c, ls_area_ppe.c,
 * errors_ppe.c); argp says which.
 *   1  reads a word from the inbound mailbox, answers it + 1 through the outbound interrupt
 *      mailbox and stops with 9.
 *   2  marks its buffer (MARK(i) in word i) for the PPE to find in the local store and says
 *      so (outbound interrupt mailbox), waits for the PPE's go (inbound mailbox), checks what
 *      the PPE wrote there through spe_ls_area_get's pointer, answers its sum, overwrites the
 *      buffer with its own pattern and signals the PPE again; stops with 0 when every word was
 *      as expected.
 *   3  recurses without end: its stack overflows. */
#include <spu_mfcio.h>

#define WORDS 64
#define MARK(i) (0x51DE0000u + (i)*0x10001u)

static volatile unsigned int buffer[WORDS] __attribute__((aligned(128)));

/* Each frame keeps a buffer the compiler cannot drop, so the recursion runs off the stack. */
static int recurse(volatile int depth) {
  volatile char frame[512];
  frame[0] = (char)depth;
  return depth > 1000000 ? frame[0] : recurse(depth + 1) + frame[0];
}

int main(unsigned long long speid, unsigned long long argp, unsigned long long envp) {
  (void)speid;
  (void)envp;
  if (argp == 1) {
    const unsigned int w = spu_read_in_mbox();
    spu_write_out_intr_mbox(w + 1);
    return 9;
  }
  if (argp == 3) return recurse(0);
  for (unsigned int i = 0; i < WORDS; ++i) buffer[i] = MARK(i);
  spu_write_out_intr_mbox(1);
  const unsigned int go = spu_read_in_mbox();
  unsigned int sum = 0, bad = 0;
  for (unsigned int i = 0; i < WORDS; ++i) {
    sum += buffer[i];
    if (buffer[i] != go * 1000 + i) ++bad;
  }
  for (unsigned int i = 0; i < WORDS; ++i) buffer[i] = 0xC0DE0000u + i;
  spu_write_out_intr_mbox(sum);
  return bad == 0 ? 0 : 1;
}
