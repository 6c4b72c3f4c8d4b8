/* The SPU's side of the event and local-store tests (events_ppe.c, ls_area_ppe.c); argp says
 * which.
 *   1  reads a word from the inbound mailbox, answers it + 1 through the outbound interrupt
 *      mailbox and stops with 9.
 *   2  marks its buffer (MARK(i) in word i) for the PPE to find in the local store and says
 *      so (outbound interrupt mailbox), waits for the PPE's go (inbound mailbox), checks what the
 * PPE wrote there through spe_ls_area_get's pointer, answers its sum, overwrites the buffer with
 * its own pattern and signals the PPE again; stops with 0 when every word was as expected. */
#include <spu_mfcio.h>

#define WORDS 64
#define MARK(i) (0x51DE0000u + (i)*0x10001u)

static volatile unsigned int buffer[WORDS] __attribute__((aligned(128)));

int main(unsigned long long speid, unsigned long long argp, unsigned long long envp) {
  (void)speid;
  (void)envp;
  if (argp == 1) {
    const unsigned int w = spu_read_in_mbox();
    spu_write_out_intr_mbox(w + 1);
    return 9;
  }
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
