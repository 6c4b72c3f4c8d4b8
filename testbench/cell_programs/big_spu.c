/* An SPU program whose data does not fit the local store: spe_program_load refuses it. */
#include <spu_mfcio.h>

static char table[300 * 1024];

int main(unsigned long long speid, unsigned long long argp, unsigned long long envp) {
  (void)speid, (void)argp, (void)envp;
  table[argp % sizeof table] = 1;
  return table[0];
}
