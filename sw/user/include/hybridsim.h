/* hybridsim's own calls for programs it runs (MPI ranks, Cell and host programs), built with
 * hybridsim-mpicc and its siblings. A program that uses them builds only with those wrappers;
 * guard the calls with #ifdef HYBRIDSIM to keep it portable (the wrappers define HYBRIDSIM). */
#ifndef HYBRIDSIM_H
#define HYBRIDSIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The program's core computes for `cycles` cycles of its clock: simulated time passes as if
 * the code this call stands for had run there. For programs annotated with their own cost
 * estimates (run them with program.compute=zero so host time is not counted twice). */
void hybridsim_compute(uint64_t cycles);

/* Simulated seconds since the run started (MPI_Wtime gives the same clock). */
double hybridsim_time(void);

#ifdef __cplusplus
}
#endif

#endif /* HYBRIDSIM_H */
