/* An SPU program that breaks the MFC's size rule: a GET of 24 bytes (sizes are 1, 2, 4, 8 or
 * multiples of 16). */
#include <spu_mfcio.h>

static char buffer[128] __attribute__((aligned(128)));

int main(unsigned long long speid, unsigned long long argp, unsigned long long envp) {
  (void)speid, (void)envp;
  mfc_get(buffer, argp, 24, 0, 0, 0);
  mfc_write_tag_mask(1);
  mfc_read_tag_status_all();
  return 0;
}
