/* A host program calling a DaCS function hybridsim does not declare (the mutexes): its build
 * fails naming the call. */
#include <dacs.h>

int main(void) {
  dacs_runtime_init(0, 0);
  return dacs_mutex_init(0) == DACS_SUCCESS ? 0 : 1;
}
