#ifndef TIMING_H
#define TIMING_H
/* Statistics of the timed loop, kept in globals as such benchmarks do. */
extern double t_min, t_max, t_sum;
extern int samples;
void record(double seconds);
double mean_us(void);
#endif
