/* A small SPU program: says hello on the terminal and stops with its argp as exit code. */
#include <spu_mfcio.h>
#include <stdio.h>

int main(unsigned long long speid, unsigned long long argp, unsigned long long envp) {
  (void)envp;
  printf("SPE %llu: hello, argp %llu\n", speid, argp);
  return (int)argp;
}
