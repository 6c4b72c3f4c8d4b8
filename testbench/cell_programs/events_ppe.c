/* A PPE program calling libspe2's event handlers, which hybridsim does not provide: it must
 * fail to build, naming the call. */
#include <libspe2.h>

int main(void) {
  spe_event_handler_ptr_t h = spe_event_handler_create();
  return h != 0;
}
