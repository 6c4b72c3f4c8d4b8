/* What the PPE program and its SPU program share: the control block each SPE reads by DMA. */
#ifndef STREAM_COMMON_H
#define STREAM_COMMON_H

#define STREAM_SPES 8
#define STREAM_WORDS 16384 /* 64 KiB of input per SPE */
#define STREAM_CHUNK 1024  /* words per DMA: 4 KiB */

/* One SPE's work, 128-byte aligned as the fastest DMA wants it. */
typedef struct {
  unsigned long long in;  /* effective address of its input */
  unsigned long long out; /* and of its output */
  unsigned int words;
  unsigned int spe;
  unsigned int pad[26];
} control_block_t __attribute__((aligned(128)));

/* What the SPU program makes of input word w: out = w * factor + spe. */
#endif
