/* The PPE's side of the DaCS calls test (dacs_calls_host.c): the host's child. Argument 1 says
 * what to do: "calls" goes through every call with the host, "spin" waits in DaCS calls until
 * the host kills it. */
#include <dacs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(call, want)                                                             \
  do {                                                                                 \
    DACS_ERR_T rc_ = (call);                                                           \
    if (rc_ != (want)) {                                                               \
      printf("FAIL (PPE): %s: %s, expected %s (line %d)\n", #call, dacs_strerror(rc_), \
             dacs_strerror(want), __LINE__);                                           \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)
#define OK(call) EXPECT(call, DACS_SUCCESS)
#define PARENT DACS_DE_PARENT, DACS_PID_PARENT

static unsigned char region[4096] __attribute__((aligned(128)));
static unsigned char buf[4096] __attribute__((aligned(128)));

static uint32_t read_word(void) {
  uint32_t w = 0;
  OK(dacs_mailbox_read(&w, PARENT));
  return w;
}
static void write_word(uint32_t w) {
  OK(dacs_mailbox_write(&w, PARENT));
}
static unsigned char host_byte(unsigned i) {
  return (unsigned char)(i * 13 + 5);
}

int main(int argc, char** argv) {
  OK(dacs_runtime_init(NULL, NULL));
  if (argc > 1 && strcmp(argv[1], "spin") == 0) {
    write_word(8);
    int32_t n = 0;
    for (;;) OK(dacs_mailbox_test(DACS_TEST_MAILBOX_READ, PARENT, &n));
  }
  uint32_t n = 1;
  de_id_t none;
  OK(dacs_reserve_children(DACS_DE_CBE, &n, &none));
  if (n != 0) printf("FAIL (PPE): a child reserved %u DEs\n", n), exit(1);
  uint32_t w = 0;
  EXPECT(dacs_mailbox_write(&w, 0x100, DACS_PID_PARENT), DACS_ERR_INVALID_DE);
  EXPECT(dacs_mailbox_write(&w, DACS_DE_SELF, DACS_PID_PARENT), DACS_ERR_INVALID_TARGET);
  EXPECT(dacs_mailbox_write(&w, DACS_DE_PARENT, 3), DACS_ERR_INVALID_PID);
  dacs_group_t g;
  EXPECT(dacs_group_init(&g, 0), DACS_ERR_INVALID_TARGET);
  /* The host's read-only region: get it, refuse a put. */
  dacs_remote_mem_t hr, mine;
  OK(dacs_remote_mem_accept(PARENT, &hr));
  dacs_wid_t wid;
  OK(dacs_wid_reserve(&wid));
  OK(dacs_get(buf, hr, 0, sizeof buf, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  for (unsigned i = 0; i < sizeof buf; ++i) {
    if (buf[i] != (unsigned char)(i * 7 + 1)) printf("FAIL (PPE): get byte %u\n", i), exit(1);
  }
  EXPECT(dacs_put(hr, 0, buf, 64, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE),
         DACS_ERR_NO_PERM);
  EXPECT(dacs_remote_mem_destroy(&hr), DACS_ERR_NOT_OWNER);
  /* The host's read-write region: put into it. */
  dacs_remote_mem_t inbox;
  OK(dacs_remote_mem_accept(PARENT, &inbox));
  for (unsigned i = 0; i < sizeof buf; ++i) buf[i] = (unsigned char)(i * 3 + 2);
  OK(dacs_put(inbox, 0, buf, sizeof buf, wid, DACS_ORDER_ATTR_NONE, DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  /* Its own region for the host. */
  OK(dacs_remote_mem_create(region, sizeof region, DACS_READ_WRITE, &mine));
  OK(dacs_remote_mem_share(PARENT, mine));
  write_word(1);
  printf("ok (PPE): remote memory\n");
  if (read_word() != 2 || read_word() != 3) exit(1); /* the host's puts and gets meanwhile */
  for (unsigned i = 0; i < 2048; ++i) {
    if (region[i] != host_byte(i)) printf("FAIL (PPE): put byte %u\n", i), exit(1);
  }
  const struct {
    unsigned at, from, n;
  } blocks[] = {{2048, 0, 16}, {2304, 16, 112}, {2416, 1024, 144}, {3072, 1168, 32}};
  for (unsigned b = 0; b < 4; ++b) {
    for (unsigned i = 0; i < blocks[b].n; ++i) {
      if (region[blocks[b].at + i] != host_byte(blocks[b].from + i)) {
        printf("FAIL (PPE): put_list block %u byte %u\n", b, i), exit(1);
      }
    }
  }
  write_word(3);
  printf("ok (PPE): the host's put and put_list landed\n");
  /* Messages. */
  OK(dacs_recv(buf, 16, PARENT, 1, wid, DACS_BYTE_SWAP_DISABLE));
  EXPECT(dacs_wait(wid), DACS_ERR_BUF_OVERFLOW);
  OK(dacs_recv(buf, sizeof buf, PARENT, 2, wid, DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  for (unsigned i = 0; i < sizeof buf; ++i) {
    if (buf[i] != host_byte(i)) printf("FAIL (PPE): message byte %u\n", i), exit(1);
    ++buf[i];
  }
  OK(dacs_send(buf, sizeof buf, PARENT, 9, wid, DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  write_word(4);
  printf("ok (PPE): receive, overflow, send\n");
  /* Mailboxes: the host fills this side's box while it waits for a message, then waits for
   * room. */
  OK(dacs_recv(buf, 16, PARENT, 20, wid, DACS_BYTE_SWAP_DISABLE));
  OK(dacs_wait(wid));
  int32_t waiting = 0;
  OK(dacs_mailbox_test(DACS_TEST_MAILBOX_READ, PARENT, &waiting));
  if (waiting != (int32_t)DACS_MAILBOX_DEPTH) printf("FAIL (PPE): %d words\n", waiting), exit(1);
  for (uint32_t want = 10; want < 10 + DACS_MAILBOX_DEPTH; ++want) {
    if (read_word() != want) printf("FAIL (PPE): mailbox order\n"), exit(1);
  }
  if (read_word() != 99) printf("FAIL (PPE): the blocked write\n"), exit(1);
  write_word(5);
  printf("ok (PPE): mailboxes in order, a full one blocks the writer\n");
  /* The group. */
  OK(dacs_group_accept(PARENT, &g));
  for (int i = 0; i < 3; ++i) OK(dacs_barrier_wait(g));
  if (read_word() != 55) exit(1);
  OK(dacs_group_leave(&g));
  EXPECT(dacs_barrier_wait(g), DACS_ERR_INVALID_HANDLE); /* left: the handle is gone */
  write_word(6);
  printf("ok (PPE): group and barrier\n");
  /* The end. */
  if (read_word() != 7) exit(1);
  OK(dacs_remote_mem_release(&hr));
  OK(dacs_remote_mem_release(&inbox));
  OK(dacs_remote_mem_destroy(&mine));
  OK(dacs_wid_release(&wid));
  OK(dacs_runtime_exit());
  return 5;
}
