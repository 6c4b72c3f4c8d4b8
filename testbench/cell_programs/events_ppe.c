/* libspe2's events: one handler, each event kind raised and received, and every misuse
 * answered with libspe2's error. Argument 1 "forever" waits without a timeout on a handler
 * with nothing registered, which must fail the run naming the call instead of hanging.
 *   SPE_EVENT_IN_MBOX        the inbound mailbox has room: not while it is full, then once
 *                            the SPU has read an entry
 *   SPE_EVENT_TAG_GROUP      a proxy GET's tag group completed, reported once
 *   SPE_EVENT_OUT_INTR_MBOX  the SPU wrote its outbound interrupt mailbox
 *   SPE_EVENT_SPE_STOPPED    the SPU program stopped (its run's thread reads how) */
#include <errno.h>
#include <libspe2.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

extern spe_program_handle_t mailbox_spu;

static char data[128] __attribute__((aligned(128)));
static int failures;

#define EXPECT(cond, what)        \
  do {                            \
    if (!(cond)) {                \
      printf("FAIL: %s\n", what); \
      ++failures;                 \
    }                             \
  } while (0)

static void* run(void* p) {
  spe_context_ptr_t ctx = (spe_context_ptr_t)p;
  unsigned int entry = SPE_DEFAULT_ENTRY;
  spe_stop_info_t stop;
  const int rc = spe_context_run(ctx, &entry, 0, (void*)1, NULL, &stop);
  EXPECT(rc == 0 && stop.result.spe_exit_code == 9, "the SPU program's stop");
  return NULL;
}

/* The next event from the handler: its kind, context and data checked. */
static void expect_event(spe_event_handler_ptr_t h, spe_context_ptr_t ctx, unsigned int kind,
                         int timeout, const char* what) {
  spe_event_unit_t ev[1];
  memset(ev, 0, sizeof ev);
  const int n = spe_event_wait(h, ev, 1, timeout);
  if (n != 1 || ev[0].events != kind || ev[0].spe != ctx || ev[0].data.u32 != 7) {
    printf("FAIL: %s: %d events, the first 0x%x\n", what, n, n > 0 ? ev[0].events : 0);
    ++failures;
  }
}

int main(int argc, char** argv) {
  spe_event_handler_ptr_t h = spe_event_handler_create();
  spe_event_unit_t ev;
  if (argc > 1 && strcmp(argv[1], "forever") == 0) {
    spe_event_wait(h, &ev, 1, -1);
    printf("FAIL: the wait returned\n");
    return 0;
  }
  /* Misuse: libspe2's errors. */
  spe_context_ptr_t plain = spe_context_create(0, NULL);
  spe_context_ptr_t ctx = spe_context_create(SPE_EVENTS_ENABLE, NULL);
  ev.spe = plain;
  ev.events = SPE_EVENT_SPE_STOPPED;
  EXPECT(spe_event_handler_register(h, &ev) == -1 && errno == ENOTSUP,
         "a context without SPE_EVENTS_ENABLE: ENOTSUP");
  ev.spe = ctx;
  ev.events = 0x100;
  EXPECT(spe_event_handler_register(h, &ev) == -1 && errno == ENOTSUP, "an unknown event: ENOTSUP");
  ev.events = SPE_EVENT_SPE_STOPPED;
  EXPECT(spe_event_handler_register((spe_event_handler_ptr_t)data, &ev) == -1 && errno == ESRCH,
         "a pointer that is no handler: ESRCH");
  EXPECT(spe_event_handler_register(h, NULL) == -1 && errno == EINVAL, "no event unit: EINVAL");
  ev.spe = (spe_context_ptr_t)data;
  EXPECT(spe_event_handler_register(h, &ev) == -1 && errno == EINVAL,
         "a pointer that is no context: EINVAL");
  ev.spe = ctx;
  EXPECT(spe_event_wait((spe_event_handler_ptr_t)data, &ev, 1, 0) == -1 && errno == ESRCH,
         "waiting on no handler: ESRCH");
  EXPECT(spe_event_wait(h, &ev, 0, 0) == -1 && errno == EINVAL, "max_events 0: EINVAL");
  EXPECT(spe_event_wait(h, NULL, 1, 0) == -1 && errno == EINVAL, "no event array: EINVAL");
  EXPECT(spe_event_wait(h, &ev, 1, 0) == 0, "nothing registered: no event");
  EXPECT(spe_event_wait(h, &ev, 1, 2) == 0, "nothing registered: the timeout passes");
  EXPECT(spe_event_handler_deregister(h, &ev) == 0, "deregistering what was never registered");
  printf("ok: misuse answered with libspe2's errors\n");

  if (spe_program_load(ctx, &mailbox_spu) != 0) return 1;
  /* The inbound mailbox full: no room, no event. */
  unsigned int words[4] = {41, 0, 0, 0};
  EXPECT(spe_in_mbox_write(ctx, words, 4, SPE_MBOX_ALL_BLOCKING) == 4, "filling the mailbox");
  ev.spe = ctx;
  ev.events = SPE_EVENT_IN_MBOX | SPE_EVENT_TAG_GROUP;
  ev.data.u32 = 7;
  EXPECT(spe_event_handler_register(h, &ev) == 0, "registering");
  EXPECT(spe_event_wait(h, &ev, 1, 0) == 0, "a full inbound mailbox raises no event");
  /* A proxy GET's completion, once. */
  memset(data, 0x5A, sizeof data);
  EXPECT(spe_mfcio_get(ctx, 0x30000, data, sizeof data, 5, 0, 0) == 0, "the proxy GET");
  expect_event(h, ctx, SPE_EVENT_TAG_GROUP, -1, "the proxy tag group");
  EXPECT(spe_event_wait(h, &ev, 1, 0) == 0, "a tag group is reported once");
  EXPECT(spe_event_handler_destroy(h) == -1 && errno == EAGAIN,
         "destroying a handler with events registered: EAGAIN");
  printf("ok: tag group event\n");
  /* The run: the SPU reads an entry (room: IN_MBOX), answers (OUT_INTR_MBOX), stops. */
  pthread_t t;
  pthread_create(&t, NULL, run, ctx);
  expect_event(h, ctx, SPE_EVENT_IN_MBOX, -1, "room in the inbound mailbox");
  ev.events = SPE_EVENT_IN_MBOX;
  EXPECT(spe_event_handler_deregister(h, &ev) == 0, "deregistering room");
  ev.events = SPE_EVENT_OUT_INTR_MBOX | SPE_EVENT_SPE_STOPPED;
  EXPECT(spe_event_handler_register(h, &ev) == 0, "registering more");
  expect_event(h, ctx, SPE_EVENT_OUT_INTR_MBOX, -1, "the outbound interrupt mailbox");
  unsigned int answer = 0;
  EXPECT(spe_out_intr_mbox_read(ctx, &answer, 1, SPE_MBOX_ANY_NONBLOCKING) == 1 && answer == 42,
         "the SPU's answer");
  printf("ok: mailbox events, answer %u\n", answer);
  expect_event(h, ctx, SPE_EVENT_SPE_STOPPED, -1, "the stop");
  EXPECT(spe_event_wait(h, &ev, 1, 0) == 0, "a stop is reported once");
  pthread_join(t, NULL);
  spe_stop_info_t stop;
  EXPECT(spe_stop_info_read(ctx, &stop) == 0 && stop.result.spe_exit_code == 9, "the stop's code");
  printf("ok: stop event\n");
  ev.events = SPE_EVENT_ALL_EVENTS;
  EXPECT(spe_event_handler_deregister(h, &ev) == 0, "deregistering all");
  EXPECT(spe_event_handler_destroy(h) == 0, "destroying");
  EXPECT(spe_event_handler_destroy(h) == -1 && errno == ESRCH, "destroying twice: ESRCH");
  spe_context_destroy(ctx);
  spe_context_destroy(plain);
  if (failures == 0) printf("ok: events\n");
  return failures == 0 ? 0 : 1;
}
