#include "timing.h"

#include <float.h>

double t_min = DBL_MAX, t_max = 0, t_sum = 0;
int samples = 0;

void record(double seconds) {
  if (seconds < t_min) t_min = seconds;
  if (seconds > t_max) t_max = seconds;
  t_sum += seconds;
  ++samples;
}

double mean_us(void) {
  return samples ? t_sum / samples * 1e6 : 0;
}
