/* A PPE program calling libspe2's problem-state mapping, which hybridsim does not provide: it
 * must fail to build, naming the call. */
#include <libspe2.h>

int main(void) {
  spe_context_ptr_t ctx = spe_context_create(SPE_MAP_PS, NULL);
  return spe_ps_area_get(ctx, 0) != 0;
}
