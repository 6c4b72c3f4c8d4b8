/* A local store through spe_ls_area_get's pointer: the PPE stores words into the SPU program's
 * buffer and the SPU reads them; the SPU overwrites the buffer, signals, and the PPE reads its
 * words. A proxy GET from the mapping (an effective address in another local store) lands the
 * same words in main memory. */
#include <libspe2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define WORDS 64
#define MARK(i) (0x51DE0000u + (i)*0x10001u) /* the SPU's marks (mailbox_spu.c) */

extern spe_program_handle_t mailbox_spu;

static unsigned int copy[WORDS] __attribute__((aligned(128)));

static void* run(void* p) {
  unsigned int entry = SPE_DEFAULT_ENTRY;
  spe_stop_info_t stop;
  const int rc = spe_context_run((spe_context_ptr_t)p, &entry, 0, (void*)2, NULL, &stop);
  return (void*)(uintptr_t)(rc == 0 && stop.result.spe_exit_code == 0);
}

int main(void) {
  spe_context_ptr_t ctx = spe_context_create(0, NULL);
  spe_context_ptr_t other = spe_context_create(0, NULL);
  if (!ctx || !other || spe_program_load(ctx, &mailbox_spu) != 0) return 1;
  char* ls = (char*)spe_ls_area_get(ctx);
  if (!ls || spe_ls_size_get(ctx) != 256 * 1024) return 1;
  pthread_t t;
  pthread_create(&t, NULL, run, ctx);
  /* The SPU marks its buffer; the PPE finds it through the mapping and fills it. */
  unsigned int ready = 0, lsa = 0;
  spe_out_intr_mbox_read(ctx, &ready, 1, SPE_MBOX_ALL_BLOCKING);
  for (lsa = 0; lsa + 4 * WORDS <= 256 * 1024; lsa += 16) {
    const volatile unsigned int* w = (const volatile unsigned int*)(ls + lsa);
    unsigned int i = 0;
    while (i < WORDS && w[i] == MARK(i)) ++i;
    if (i == WORDS) break;
  }
  if (lsa + 4 * WORDS > 256 * 1024) {
    printf("FAIL: the SPU's marked buffer is not in the mapped local store\n");
    return 1;
  }
  printf("ok: the PPE found the SPU's buffer at local-store address 0x%x\n", lsa);
  volatile unsigned int* buffer = (volatile unsigned int*)(ls + lsa);
  const unsigned int go = 7;
  unsigned int expected_sum = 0;
  for (unsigned int i = 0; i < WORDS; ++i) {
    buffer[i] = go * 1000 + i;
    expected_sum += go * 1000 + i;
  }
  spe_in_mbox_write(ctx, (unsigned int*)&go, 1, SPE_MBOX_ALL_BLOCKING);
  unsigned int sum = 0;
  spe_out_intr_mbox_read(ctx, &sum, 1, SPE_MBOX_ALL_BLOCKING);
  if (sum != expected_sum) {
    printf("FAIL: the SPU summed %u, expected %u\n", sum, expected_sum);
    return 1;
  }
  printf("ok: the SPU read the PPE's words (sum %u)\n", sum);
  void* ok = NULL;
  pthread_join(t, &ok);
  unsigned int bad = 0;
  for (unsigned int i = 0; i < WORDS; ++i) bad += buffer[i] != 0xC0DE0000u + i;
  /* The mapping as an effective address: another SPE's proxy GET from it, then a PUT home. */
  unsigned int status = 0;
  spe_mfcio_get(other, 0x20000, (void*)(ls + lsa), sizeof copy, 1, 0, 0);
  spe_mfcio_tag_status_read(other, 1u << 1, SPE_TAG_ALL, &status);
  spe_mfcio_put(other, 0x20000, copy, sizeof copy, 1, 0, 0);
  spe_mfcio_tag_status_read(other, 1u << 1, SPE_TAG_ALL, &status);
  for (unsigned int i = 0; i < WORDS; ++i) bad += copy[i] != 0xC0DE0000u + i;
  if (bad != 0 || !ok) {
    printf("FAIL: %u words differ, the SPU program %s\n", bad, ok ? "passed" : "failed");
    return 1;
  }
  printf("ok: the PPE read the SPU's words, and a DMA from the mapping moved them\n");
  spe_context_destroy(ctx);
  spe_context_destroy(other);
  return 0;
}
