/* What the host program and its PPE program of the DaCS stream example agree on. */
#ifndef DACS_STREAM_COMMON_H
#define DACS_STREAM_COMMON_H

#include "stream_common.h"

#define DACS_STREAM_BYTES (STREAM_SPES * STREAM_WORDS * 4) /* 512 KiB each way */
#define DACS_STREAM_HEADER 1u                              /* the stream of the header message */

/* The header the host sends before each round: the factor and the round. */
typedef struct {
  unsigned int factor;
  unsigned int round;
  unsigned int pad[2];
} dacs_stream_header_t;

/* The input word w of slice s in round r. */
static inline unsigned int dacs_stream_input(unsigned int s, unsigned int w, unsigned int r) {
  return (s << 24) ^ (w * 2654435761u) ^ (r << 16);
}

#endif
