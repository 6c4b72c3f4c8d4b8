/* The rest of libspe2 and the PPE's threads: an SPU program opened from its file
 * (spe_image_open, argument 1), contexts in a gang, spe_stop_info_read, and four threads that
 * count under a mutex and signal the main thread through a condition variable. */
#include <errno.h>
#include <libspe2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define THREADS 4

static spe_program_handle_t* image;
static spe_gang_context_ptr_t gang;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static int finished, failures;

static void* worker(void* p) {
  const unsigned int i = (unsigned int)(uintptr_t)p;
  spe_context_ptr_t ctx = spe_context_create(0, gang);
  spe_stop_info_t stop, read;
  if (!ctx || spe_stop_info_read(ctx, &read) != -1 || errno != EINVAL) ++failures;
  if (spe_program_load(ctx, image) != 0) ++failures;
  unsigned int entry = SPE_DEFAULT_ENTRY;
  const int rc = spe_context_run(ctx, &entry, 0, (void*)(uintptr_t)(40 + i), NULL, &stop);
  if (rc != 0 || stop.stop_reason != SPE_EXIT || stop.result.spe_exit_code != (int)(40 + i)) {
    printf("FAIL: thread %u: rc %d, exit code %d\n", i, rc, stop.result.spe_exit_code);
    ++failures;
  }
  if (spe_stop_info_read(ctx, &read) != 0 || read.result.spe_exit_code != (int)(40 + i)) {
    ++failures;
  }
  spe_context_destroy(ctx);
  pthread_mutex_lock(&lock);
  ++finished;
  pthread_cond_signal(&done);
  pthread_mutex_unlock(&lock);
  return (void*)(uintptr_t)(100 + i);
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  image = spe_image_open(argv[1]);
  gang = spe_gang_context_create(0);
  if (!image || !gang) {
    perror("spe_image_open/spe_gang_context_create");
    return 1;
  }
  pthread_t thread[THREADS];
  for (unsigned int i = 0; i < THREADS; ++i) {
    pthread_create(&thread[i], NULL, worker, (void*)(uintptr_t)i);
  }
  pthread_mutex_lock(&lock);
  while (finished < THREADS) pthread_cond_wait(&done, &lock);
  pthread_mutex_unlock(&lock);
  for (unsigned int i = 0; i < THREADS; ++i) {
    void* result = NULL;
    if (pthread_join(thread[i], &result) != 0 || result != (void*)(uintptr_t)(100 + i)) {
      ++failures;
    }
  }
  if (pthread_join(thread[0], NULL) == 0) ++failures; /* joined already */
  if (spe_gang_context_destroy(gang) != 0 || spe_image_close(image) != 0) ++failures;
  if (spe_image_close(image) != -1 || errno != EINVAL) ++failures; /* closed already */
  if (failures) {
    printf("FAIL: %d\n", failures);
    return 1;
  }
  printf("ok: image, gang and stop information\n");
  printf("ok: %d threads, mutex and condition variable\n", THREADS);
  return 0;
}
