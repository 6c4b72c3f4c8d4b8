/* Every DaCS call from the host's side, its success and its documented errors, with the PPE
 * program dacs_calls_ppe (argument 1: its path) as the child. Each step prints "ok: ..." or
 * "FAIL: ..." and a failure ends the program with status 1. The two programs keep in step
 * through mailbox words. */
#include <dacs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(call, want)                                                       \
  do {                                                                           \
    DACS_ERR_T rc_ = (call);                                                     \
    if (rc_ != (want)) {                                                         \
      printf("FAIL: %s: %s, expected %s (line %d)\n", #call, dacs_strerror(rc_), \
             dacs_strerror(want), __LINE__);                                     \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)
#define OK(call) EXPECT(call, DACS_SUCCESS)

static unsigned char region[4096] __attribute__((aligned(128)));
static unsigned char buf[4096] __attribute__((aligned(128)));
static unsigned char drop[4096] __attribute__((aligned(128)));
static de_id_t cell;
static dacs_process_id_t pid;

static uint32_t read_word(void) {
  uint32_t w = 0;
  OK(dacs_mailbox_read(&w, cell, pid));
  return w;
}
static void write_word(uint32_t w) {
  OK(dacs_mailbox_write(&w, cell, pid));
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const char* ppe = argv[1];
  uint32_t n = 1;
  de_id_t list[2];
  /* Runtime. */
  EXPECT(dacs_reserve_children(DACS_DE_CBE, &n, list), DACS_ERR_NOT_INITIALIZED);
  OK(dacs_runtime_init(NULL, NULL));
  EXPECT(dacs_runtime_init(NULL, NULL), DACS_ERR_INITIALIZED);
  printf("ok: runtime\n");
  /* Reservation. */
  OK(dacs_get_num_avail_children(DACS_DE_CBE, &n));
  if (n != 1) printf("FAIL: %u children available\n", n), exit(1);
  EXPECT(dacs_get_num_avail_children((DACS_DE_TYPE_T)99, &n), DACS_ERR_INVALID_ATTR);
  dacs_process_id_t p0;
  EXPECT(dacs_de_start(0x100, (void*)ppe, NULL, NULL, DACS_PROC_LOCAL_FILE, &p0),
         DACS_ERR_INVALID_DE); /* not reserved yet */
  n = 2;
  OK(dacs_reserve_children(DACS_DE_CBE, &n, list));
  if (n != 1) printf("FAIL: %u children reserved\n", n), exit(1);
  cell = list[0];
  n = 1;
  OK(dacs_reserve_children(DACS_DE_CBE, &n, list));
  if (n != 0) printf("FAIL: a second Cell reserved\n"), exit(1);
  EXPECT(dacs_release_de_list(1, (de_id_t[]){cell + 1}), DACS_ERR_INVALID_DE);
  printf("ok: reservation\n");
  /* Processes. */
  EXPECT(dacs_de_start(cell + 1, (void*)ppe, NULL, NULL, DACS_PROC_LOCAL_FILE, &pid),
         DACS_ERR_INVALID_DE);
  EXPECT(dacs_de_start(cell, (void*)ppe, NULL, NULL, (DACS_PROC_CREATION_FLAG_T)9, &pid),
         DACS_ERR_INVALID_ATTR);
  EXPECT(dacs_de_start(cell, (void*)"/no/such/program", NULL, NULL, DACS_PROC_LOCAL_FILE, &pid),
         DACS_ERR_NOT_FOUND);
  EXPECT(dacs_de_start(cell, (void*)argv[0], NULL, NULL, DACS_PROC_LOCAL_FILE, &pid),
         DACS_ERR_INVALID_PROG); /* a host program, not a PPE program */
  const char* args[] = {"calls", NULL};
  OK(dacs_de_start(cell, (void*)ppe, args, NULL, DACS_PROC_LOCAL_FILE, &pid));
  EXPECT(dacs_de_start(cell, (void*)ppe, args, NULL, DACS_PROC_LOCAL_FILE, &p0),
         DACS_ERR_PROC_LIMIT);
  EXPECT(dacs_release_de_list(1, &cell), DACS_ERR_RESOURCE_BUSY);
  int32_t status = 0;
  EXPECT(dacs_de_test(cell, pid, &status), DACS_STS_PROC_RUNNING);
  EXPECT(dacs_de_test(cell, pid + 7, &status), DACS_ERR_INVALID_PID);
  EXPECT(dacs_mailbox_write((uint32_t[]){1}, DACS_DE_PARENT, DACS_PID_PARENT),
         DACS_ERR_INVALID_DE); /* the host has no parent */
  printf("ok: processes\n");
  /* Wait identifiers. */
  dacs_wid_t wid, more[DACS_MAX_WIDS];
  EXPECT(dacs_test(5), DACS_ERR_INVALID_WID);
  OK(dacs_wid_reserve(&wid));
  EXPECT(dacs_test(wid), DACS_ERR_WID_NOT_ACTIVE);
  EXPECT(dacs_wait(wid), DACS_ERR_WID_NOT_ACTIVE);
  for (unsigned i = 0; i + 1 < DACS_MAX_WIDS; ++i) OK(dacs_wid_reserve(&more[i]));
  EXPECT(dacs_wid_reserve(&more[DACS_MAX_WIDS - 1]), DACS_ERR_NO_WIDS);
  for (unsigned i = 0; i + 1 < DACS_MAX_WIDS; ++i) OK(dacs_wid_release(&more[i]));
  EXPECT(dacs_wid_release(&more[0]), DACS_ERR_INVALID_WID);
  printf("ok: wait identifiers\n");
  /* Remote memory: the host's region, read-only for the child. */
  dacs_remote_mem_t mine, theirs;
  EXPECT(dacs_remote_mem_create(region, 0, DACS_READ_ONLY, &mine), DACS_ERR_INVALID_SIZE);
  EXPECT(dacs_remote_mem_create(region, sizeof region, (DACS_MEMORY_ACCESS_MODE_T)9, &mine),
         DACS_ERR_INVALID_ATTR);
  EXPECT(dacs_remote_mem_create((void*)16, 64, DACS_READ_ONLY, &mine), DACS_ERR_INVALID_ADDR);
  for (unsigned i = 0; i < sizeof region; ++i) region[i] = (unsigned char)(i * 7 + 1);
  OK(dacs_remote_mem_create(region, sizeof region, DACS_READ_ONLY, &mine));
  EXPECT(dacs_put(mine, 0, buf, 64, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_INVALID_TARGET); /* the owner does not put its own region */
  EXPECT(dacs_put(999, 0, buf, 64, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_INVALID_HANDLE);
  EXPECT(dacs_remote_mem_share(cell + 1, pid, mine), DACS_ERR_INVALID_DE);
  EXPECT(dacs_remote_mem_share(cell, pid + 7, mine), DACS_ERR_INVALID_PID);
  OK(dacs_remote_mem_share(cell, pid, mine)); /* blocks until the child accepts */
  EXPECT(dacs_remote_mem_destroy(&mine), DACS_ERR_RESOURCE_BUSY); /* the child holds it */
  /* A read-write region the child puts into (its DMA engine into host memory). */
  dacs_remote_mem_t inbox;
  OK(dacs_remote_mem_create(drop, sizeof drop, DACS_READ_WRITE, &inbox));
  OK(dacs_remote_mem_share(cell, pid, inbox));
  /* The child's region (read-write, 4 KiB) for the host. */
  OK(dacs_remote_mem_accept(cell, pid, &theirs));
  uint64_t v = 0;
  OK(dacs_remote_mem_query(theirs, DACS_REMOTE_MEM_SIZE, &v));
  if (v != 4096) printf("FAIL: size %llu\n", (unsigned long long)v), exit(1);
  OK(dacs_remote_mem_query(theirs, DACS_REMOTE_MEM_PERM, &v));
  if (v != DACS_READ_WRITE) printf("FAIL: permission %llu\n", (unsigned long long)v), exit(1);
  EXPECT(dacs_remote_mem_query(theirs, (DACS_REMOTE_MEM_ATTR_T)9, &v), DACS_ERR_INVALID_ATTR);
  EXPECT(dacs_remote_mem_destroy(&theirs), DACS_ERR_NOT_OWNER);
  if (read_word() != 1) exit(1); /* the child has checked its get and its refused put */
  for (unsigned i = 0; i < sizeof drop; ++i) {
    if (drop[i] != (unsigned char)(i * 3 + 2))
      printf("FAIL: the child's put, byte %u\n", i), exit(1);
  }
  printf("ok: remote memory\n");
  /* Put and get, their lists, order, alignment, swap. */
  for (unsigned i = 0; i < sizeof buf; ++i) buf[i] = (unsigned char)(i * 13 + 5);
  EXPECT(dacs_put(theirs, 0, buf, 3, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_NOT_ALIGNED);
  EXPECT(dacs_put(theirs, 8, buf, 16, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_NOT_ALIGNED);
  EXPECT(dacs_put(theirs, 4000, buf, 128, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_INVALID_SIZE);
  EXPECT(dacs_put(theirs, 0, buf, 2, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_WORD),
         DACS_ERR_NOT_ALIGNED);
  EXPECT(dacs_put(theirs, 0, buf, 16, wid, DACS_ORDER_ATTR_NONE, (DACS_BYTE_SWAP_T)7),
         DACS_ERR_INVALID_ATTR);
  EXPECT(dacs_put(theirs, 0, buf, 16, wid, (DACS_ORDER_ATTR_T)7, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_INVALID_ATTR);
  EXPECT(dacs_put(theirs, 0, buf, 16, wid + 1, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_INVALID_WID);
  OK(dacs_put(theirs, 0, buf, 2048, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE));
  static unsigned char back[4096] __attribute__((aligned(128)));
  OK(dacs_get(back, theirs, 0, 2048, wid, DACS_ORDER_ATTR_FENCE, DACS_BYTE_SWAP_DISABLE));
  write_word(2); /* the child polls while the host waits */
  OK(dacs_wait(wid));
  if (memcmp(back, buf, 2048) != 0) printf("FAIL: get after put (fence)\n"), exit(1);
  /* Lists: three blocks of the source scattered to the region's second half, then gathered. */
  dacs_dma_list_t dst[3] = {{2048, 16}, {2304, 256}, {3072, 32}};
  dacs_dma_list_t src[2] = {{0, 128}, {1024, 176}};
  OK(dacs_put_list(theirs, dst, 3, buf, src, 2, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  memset(back, 0, sizeof back);
  OK(dacs_get_list(back, src, 2, theirs, dst, 3, wid, DACS_ORDER_ATTR_BARRIER,
                   DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  if (memcmp(back, buf, 128) != 0 || memcmp(back + 1024, buf + 1024, 176) != 0) {
    printf("FAIL: put_list and get_list\n"), exit(1);
  }
  dacs_dma_list_t uneven[1] = {{2048, 64}};
  EXPECT(dacs_put_list(theirs, uneven, 1, buf, src, 2, wid, DACS_ORDER_ATTR_NONE,
                       DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_INVALID_SIZE);
  write_word(3); /* the child checks the region's contents */
  if (read_word() != 3) exit(1);
  printf("ok: put, get, lists, order and their errors\n");
  /* Messages: a receive too small fails both waits with the overflow. */
  EXPECT(dacs_send(buf, 64, cell, pid, DACS_STREAM_ALL, wid, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_INVALID_STREAM);
  EXPECT(dacs_send(buf, 0, cell, pid, 1, wid, DACS_BYTE_SWAP_DISABLE), DACS_ERR_INVALID_SIZE);
  OK(dacs_send(buf, 64, cell, pid, 1, wid, DACS_BYTE_SWAP_DISABLE));
  EXPECT(dacs_wait(wid), DACS_ERR_BUF_OVERFLOW);
  OK(dacs_send(buf, 4096, cell, pid, 2, wid, DACS_BYTE_SWAP_DISABLE)); /* by DMA */
  OK(dacs_wait(wid));
  memset(back, 0, sizeof back);
  OK(dacs_recv(back, 4096, cell, pid, DACS_STREAM_ALL, wid, DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  for (unsigned i = 0; i < 4096; ++i) {
    if (back[i] != (unsigned char)(buf[i] + 1)) printf("FAIL: message byte %u\n", i), exit(1);
  }
  if (read_word() != 4) exit(1);
  printf("ok: send, receive and the overflow at the wait\n");
  /* Mailboxes: DACS_MAILBOX_DEPTH words fill the child's box while it waits for a message. */
  int32_t room = -1;
  EXPECT(dacs_mailbox_test((DACS_TEST_MAILBOX_T)9, cell, pid, &room), DACS_ERR_INVALID_ATTR);
  for (uint32_t w = 10; w < 10 + DACS_MAILBOX_DEPTH; ++w) write_word(w);
  OK(dacs_mailbox_test(DACS_TEST_MAILBOX_WRITE, cell, pid, &room));
  if (room != 0) printf("FAIL: room %d in a full mailbox\n", room), exit(1);
  OK(dacs_send(buf, 16, cell, pid, 20, wid, DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  write_word(99); /* waits until the child reads one */
  if (read_word() != 5) exit(1);
  printf("ok: mailboxes\n");
  /* Groups and the barrier. */
  dacs_group_t g;
  OK(dacs_group_init(&g, 0));
  OK(dacs_group_add_member(DACS_DE_SELF, DACS_PID_SELF, g));
  EXPECT(dacs_barrier_wait(g), DACS_ERR_GROUP_OPEN);
  OK(dacs_group_add_member(cell, pid, g)); /* until the child accepts */
  EXPECT(dacs_group_add_member(cell, pid, g), DACS_ERR_GROUP_DUPLICATE);
  OK(dacs_group_close(g));
  EXPECT(dacs_group_add_member(DACS_DE_SELF, DACS_PID_SELF, g), DACS_ERR_GROUP_CLOSED);
  for (int i = 0; i < 3; ++i) OK(dacs_barrier_wait(g));
  EXPECT(dacs_group_destroy(&g), DACS_ERR_RESOURCE_BUSY); /* the child is still in it */
  write_word(55);
  if (read_word() != 6) exit(1); /* it has left */
  OK(dacs_group_destroy(&g));
  printf("ok: groups and barrier\n");
  /* The end: the child releases the host's region, returns 5. */
  int32_t pending = 0;
  OK(dacs_mailbox_test(DACS_TEST_MAILBOX_READ, cell, pid, &pending));
  const dacs_remote_mem_t released = theirs;
  OK(dacs_remote_mem_release(&theirs));
  EXPECT(dacs_put(released, 0, buf, 16, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_INVALID_HANDLE); /* no longer accepted */
  write_word(7);
  status = 0;
  EXPECT(dacs_de_wait(cell, pid, &status), DACS_STS_PROC_FAILED);
  if (status != 5) printf("FAIL: exit status %d\n", status), exit(1);
  EXPECT(dacs_de_wait(cell, pid, &status), DACS_ERR_INVALID_PID); /* already reaped */
  OK(dacs_remote_mem_destroy(&mine));
  OK(dacs_remote_mem_destroy(&inbox));
  printf("ok: exit status 5 through dacs_de_wait\n");
  /* A second process, killed. */
  const char* spin[] = {"spin", NULL};
  OK(dacs_de_start(cell, (void*)ppe, spin, NULL, DACS_PROC_REMOTE_FILE, &pid));
  if (read_word() != 8) exit(1);
  OK(dacs_de_kill(cell, pid));
  EXPECT(dacs_de_wait(cell, pid, &status), DACS_STS_PROC_KILLED);
  printf("ok: dacs_de_kill\n");
  OK(dacs_wid_release(&wid));
  OK(dacs_release_de_list(1, &cell));
  OK(dacs_runtime_exit());
  EXPECT(dacs_runtime_exit(), DACS_ERR_NOT_INITIALIZED);
  printf("ok: every call\n");
  return 0;
}
