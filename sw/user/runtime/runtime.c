/* The program runtime: linked into every user program module (whole, by the compiler
 * wrappers), one private copy per instance, so everything here that is static belongs to one
 * instance. It turns what a program would ask of its operating system into the simulator's
 * services (sw/user/user_abi.h):
 * - the heap: malloc and friends allocate from the instance's private heap, which lies in
 *   the simulated memory of the instance's node, so any buffer the program allocates can be
 *   handed to a DMA engine;
 * - standard output and error: `stdout` and `stderr` here are the instance's own streams
 *   (routed by the simulator, optionally prefixed with the rank), and printf, puts, putchar,
 *   perror and write(1 or 2) use them;
 * - exit, _exit, abort and failed assertions end the instance, not the simulator (exit runs
 *   the program's atexit handlers and static destructors first, as a process would);
 * - the C library's hidden per-process state the program can see (rand, random, drand48,
 *   strtok) is the instance's own;
 * - sleep and friends pass simulated time, not host time; threads are refused (the program
 *   runs on one modelled core).
 * Definitions are hidden: the module's own references bind to them, the C library keeps its
 * own, and nothing leaks into the simulator's name space. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hybridsim.h"
#include "runtime_internal.h"

#define HS_HIDDEN __attribute__((visibility("hidden")))
#define HS_EXPORT __attribute__((visibility("default")))

static const struct hs_user_services* hs_services;
static struct hs_user_runtime hs_runtime;
static const char* hs_program_name = "program"; /* argv[0]'s last part, for err(3) */

HS_EXPORT const uint32_t hybridsim_user_abi = HS_USER_ABI_VERSION;

const struct hs_user_services* hs_rt_services(void) {
  return hs_services;
}

const void* hs_rt_api(const char* name, uint32_t version, void** self, const char* why_missing) {
  const struct hs_user_services* s = hs_services;
  const void* table = s->api(s->instance, name, version, self);
  if (!table) {
    s->write(s->instance, HS_STDERR, why_missing, strlen(why_missing));
    s->write(s->instance, HS_STDERR, "\n", 1);
    s->abort(s->instance, why_missing);
  }
  return table;
}

void hs_rt_note_call_site(const void* site) {
  hs_runtime.call_site = site;
}

/* ---- standard output and error ---- */

FILE* stdout HS_HIDDEN;
FILE* stderr HS_HIDDEN;
static int hs_stream_ids[3] = {0, HS_STDOUT, HS_STDERR};

static ssize_t hs_cookie_write(void* cookie, const char* data, size_t len) {
  hs_services->write(hs_services->instance, *(const int*)cookie, data, len);
  return (ssize_t)len;
}

static FILE* hs_open_stream(int stream, int buffering) {
  cookie_io_functions_t io = {NULL, hs_cookie_write, NULL, NULL};
  FILE* f = fopencookie(&hs_stream_ids[stream], "w", io);
  if (f) setvbuf(f, NULL, buffering, BUFSIZ);
  return f;
}

static void hs_flush(void) {
  if (stdout) fflush(stdout);
  if (stderr) fflush(stderr);
}

HS_HIDDEN int vprintf(const char* format, va_list ap) {
  return vfprintf(stdout, format, ap);
}
HS_HIDDEN int printf(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int n = vfprintf(stdout, format, ap);
  va_end(ap);
  return n;
}
/* The forms _FORTIFY_SOURCE compiles printf into. */
HS_HIDDEN int __printf_chk(int flag, const char* format, ...) {
  (void)flag;
  va_list ap;
  va_start(ap, format);
  const int n = vfprintf(stdout, format, ap);
  va_end(ap);
  return n;
}
HS_HIDDEN int __vprintf_chk(int flag, const char* format, va_list ap) {
  (void)flag;
  return vfprintf(stdout, format, ap);
}
HS_HIDDEN int puts(const char* s) {
  if (fputs(s, stdout) == EOF || fputc('\n', stdout) == EOF) return EOF;
  return 1;
}
HS_HIDDEN int putchar(int c) {
  return fputc(c, stdout);
}
HS_HIDDEN int putchar_unlocked(int c) {
  return fputc(c, stdout);
}
HS_HIDDEN void perror(const char* s) {
  const char* what = strerror(errno);
  if (s && *s) {
    fprintf(stderr, "%s: %s\n", s, what);
  } else {
    fprintf(stderr, "%s\n", what);
  }
}
/* write(2) to the standard descriptors joins the streams (after what they hold). */
HS_HIDDEN ssize_t write(int fd, const void* data, size_t len) {
  if (fd == 1 || fd == 2) {
    hs_flush();
    hs_services->write(hs_services->instance, fd, (const char*)data, len);
    return (ssize_t)len;
  }
  return syscall(SYS_write, fd, data, len);
}

/* ---- ending ---- */

/* The program's exit handlers: atexit's, static destructors (__cxa_atexit) and thread-local
 * destructors (__cxa_thread_atexit), kept here rather than with the C library, so exit runs
 * this instance's and no other's, and an instance that never exits leaves none behind for the
 * simulator's own exit to run. */
struct hs_exit_handler {
  void (*fn)(void*);
  void* arg;
  void (*plain)(void); /* atexit's, when fn is NULL */
};
static struct hs_exit_handler hs_exit_fixed[256];
static struct hs_exit_handler* hs_exit_handlers = hs_exit_fixed;
static size_t hs_exit_count, hs_exit_capacity = 256;

static int hs_add_exit_handler(void (*fn)(void*), void* arg, void (*plain)(void)) {
  if (hs_exit_count == hs_exit_capacity) {
    struct hs_exit_handler* more = malloc(2 * hs_exit_capacity * sizeof *more);
    if (!more) return -1;
    memcpy(more, hs_exit_handlers, hs_exit_count * sizeof *more);
    if (hs_exit_handlers != hs_exit_fixed) free(hs_exit_handlers);
    hs_exit_handlers = more;
    hs_exit_capacity *= 2;
  }
  hs_exit_handlers[hs_exit_count].fn = fn;
  hs_exit_handlers[hs_exit_count].arg = arg;
  hs_exit_handlers[hs_exit_count].plain = plain;
  ++hs_exit_count;
  return 0;
}
HS_HIDDEN int __cxa_atexit(void (*fn)(void*), void* arg, void* dso) {
  (void)dso;
  return hs_add_exit_handler(fn, arg, NULL);
}
HS_HIDDEN int __cxa_thread_atexit(void (*fn)(void*), void* arg, void* dso) {
  (void)dso;
  return hs_add_exit_handler(fn, arg, NULL);
}
HS_HIDDEN int __cxa_thread_atexit_impl(void (*fn)(void*), void* arg, void* dso) {
  (void)dso;
  return hs_add_exit_handler(fn, arg, NULL);
}
HS_HIDDEN int atexit(void (*fn)(void)) {
  return hs_add_exit_handler(NULL, NULL, fn);
}
static void hs_run_exit_handlers(void) {
  while (hs_exit_count > 0) { /* newest first; a handler may register more */
    struct hs_exit_handler h = hs_exit_handlers[--hs_exit_count];
    if (h.fn) {
      h.fn(h.arg);
    } else {
      h.plain();
    }
  }
}

HS_HIDDEN void exit(int status) {
  hs_run_exit_handlers();
  hs_flush();
  hs_services->exit(hs_services->instance, status);
  __builtin_unreachable();
}
HS_HIDDEN void _exit(int status) {
  hs_flush();
  hs_services->exit(hs_services->instance, status);
  __builtin_unreachable();
}
HS_HIDDEN void _Exit(int status) {
  _exit(status);
}
/* err(3) and error(3) end the process through the C library's own exit: here, the instance. */
HS_HIDDEN void verr(int status, const char* format, va_list ap) {
  const int e = errno;
  fprintf(stderr, "%s: ", hs_program_name);
  if (format) {
    vfprintf(stderr, format, ap);
    fputs(": ", stderr);
  }
  fprintf(stderr, "%s\n", strerror(e));
  exit(status);
}
HS_HIDDEN void verrx(int status, const char* format, va_list ap) {
  fprintf(stderr, "%s: ", hs_program_name);
  if (format) vfprintf(stderr, format, ap);
  fputc('\n', stderr);
  exit(status);
}
HS_HIDDEN void err(int status, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  verr(status, format, ap);
}
HS_HIDDEN void errx(int status, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  verrx(status, format, ap);
}
HS_HIDDEN void error(int status, int errnum, const char* format, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s: ", hs_program_name);
  va_start(ap, format);
  vfprintf(stderr, format, ap);
  va_end(ap);
  if (errnum) fprintf(stderr, ": %s", strerror(errnum));
  fputc('\n', stderr);
  if (status) exit(status);
}
HS_HIDDEN void abort(void) {
  hs_flush();
  hs_services->abort(hs_services->instance, "abort() called");
  __builtin_unreachable();
}
HS_HIDDEN void __assert_fail(const char* expr, const char* file, unsigned line,
                             const char* function) {
  char why[1024];
  snprintf(why, sizeof why, "%s:%u: %s%sAssertion `%s' failed.", file, line,
           function ? function : "", function ? ": " : "", expr);
  fprintf(stderr, "%s\n", why);
  hs_flush();
  hs_services->abort(hs_services->instance, why);
  __builtin_unreachable();
}

extern int main(int argc, char** argv, char** envp);

static void hs_run_main(int argc, char** argv) {
  if (argc > 0 && argv[0]) {
    const char* slash = strrchr(argv[0], '/');
    hs_program_name = slash ? slash + 1 : argv[0];
  }
  exit(hs_rt_call_main ? hs_rt_call_main(argc, argv) : main(argc, argv, environ));
}

/* After its instance is gone, the module's code may still run once (a destructor function the
 * C library calls at the simulator's exit): output is dropped, the heap is the C library's. */
static void* hs_inert_alloc(void* i, size_t n, size_t align) {
  (void)i;
  void* p = NULL;
  return posix_memalign(&p, align < sizeof(void*) ? sizeof(void*) : align, n) == 0 ? p : NULL;
}
static void* hs_inert_realloc(void* i, void* p, size_t n) {
  (void)p; /* the instance's heap is gone: its blocks are neither read nor freed */
  return hs_inert_alloc(i, n, 16);
}
static void hs_inert_free(void* i, void* p) {
  (void)i, (void)p;
}
static size_t hs_inert_usable(void* i, const void* p) {
  (void)i, (void)p;
  return 0;
}
static void hs_inert_write(void* i, int s, const char* d, size_t n) {
  (void)i, (void)s, (void)d, (void)n;
}
static void hs_inert_exit(void* i, int status) {
  (void)i;
  syscall(SYS_exit_group, status);
}
static void hs_inert_abort(void* i, const char* why) {
  (void)i, (void)why;
  syscall(SYS_exit_group, 134);
}
static void hs_inert_compute(void* i, uint64_t c) {
  (void)i, (void)c;
}
static double hs_inert_now(void* i) {
  (void)i;
  return 0;
}
static const void* hs_inert_api(void* i, const char* n, uint32_t v, void** self) {
  (void)i, (void)n, (void)v, (void)self;
  return NULL;
}
static const struct hs_user_services hs_inert = {
    HS_USER_ABI_VERSION, NULL,           hs_inert_alloc, hs_inert_realloc, hs_inert_free,
    hs_inert_usable,     hs_inert_write, hs_inert_exit,  hs_inert_abort,   hs_inert_compute,
    hs_inert_compute,    hs_inert_now,   hs_inert_api};
static void hs_detach(void) {
  hs_services = &hs_inert;
  hs_exit_count = 0;
}

HS_EXPORT const struct hs_user_runtime* hybridsim_user_attach(const struct hs_user_services* s) {
  if (!s || s->version != HS_USER_ABI_VERSION) return NULL;
  hs_services = s;
  stdout = hs_open_stream(HS_STDOUT, _IOLBF);
  stderr = hs_open_stream(HS_STDERR, _IONBF);
  hs_runtime.version = HS_USER_ABI_VERSION;
  hs_runtime.run_main = hs_run_main;
  hs_runtime.flush = hs_flush;
  hs_runtime.detach = hs_detach;
  return &hs_runtime;
}

/* ---- the heap ---- */

HS_HIDDEN void* malloc(size_t n) {
  void* p = hs_services->alloc(hs_services->instance, n, 16);
  if (!p) errno = ENOMEM;
  return p;
}
HS_HIDDEN void free(void* p) {
  if (p) hs_services->free(hs_services->instance, p);
}
HS_HIDDEN void* calloc(size_t count, size_t size) {
  size_t n;
  if (__builtin_mul_overflow(count, size, &n)) {
    errno = ENOMEM;
    return NULL;
  }
  void* p = malloc(n);
  if (p) memset(p, 0, n);
  return p;
}
HS_HIDDEN void* realloc(void* p, size_t n) {
  if (!p) return malloc(n);
  void* q = hs_services->realloc(hs_services->instance, p, n);
  if (!q && n) errno = ENOMEM;
  return q;
}
HS_HIDDEN void* reallocarray(void* p, size_t count, size_t size) {
  size_t n;
  if (__builtin_mul_overflow(count, size, &n)) {
    errno = ENOMEM;
    return NULL;
  }
  return realloc(p, n);
}
static int hs_power_of_two(size_t a) {
  return a && (a & (a - 1)) == 0;
}
HS_HIDDEN int posix_memalign(void** out, size_t align, size_t n) {
  if (!hs_power_of_two(align) || align % sizeof(void*) != 0) return EINVAL;
  void* p = hs_services->alloc(hs_services->instance, n, align < 16 ? 16 : align);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
HS_HIDDEN void* memalign(size_t align, size_t n) {
  if (!hs_power_of_two(align)) {
    errno = EINVAL;
    return NULL;
  }
  void* p = hs_services->alloc(hs_services->instance, n, align < 16 ? 16 : align);
  if (!p) errno = ENOMEM;
  return p;
}
HS_HIDDEN void* aligned_alloc(size_t align, size_t n) {
  return memalign(align, n);
}
HS_HIDDEN void* valloc(size_t n) {
  return memalign(4096, n);
}
HS_HIDDEN void* pvalloc(size_t n) {
  return memalign(4096, (n + 4095) & ~(size_t)4095);
}
HS_HIDDEN size_t malloc_usable_size(void* p) {
  return p ? hs_services->usable_size(hs_services->instance, p) : 0;
}
HS_HIDDEN char* strdup(const char* s) {
  const size_t n = strlen(s) + 1;
  char* d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}
HS_HIDDEN char* strndup(const char* s, size_t max) {
  const size_t n = strnlen(s, max);
  char* d = malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

/* ---- per-process state of the C library, made the instance's ---- */

/* rand and random: the C library's own generator (TYPE_3, 128 bytes of state), so a rank
 * draws the numbers a process of its own would. */
static struct random_data hs_random;
static char hs_random_state[128];
static int hs_random_ready;
static void hs_random_init(unsigned seed) {
  memset(&hs_random, 0, sizeof hs_random);
  initstate_r(seed, hs_random_state, sizeof hs_random_state, &hs_random);
  hs_random_ready = 1;
}
HS_HIDDEN long random(void) {
  if (!hs_random_ready) hs_random_init(1);
  int32_t r;
  random_r(&hs_random, &r);
  return r;
}
HS_HIDDEN void srandom(unsigned seed) {
  hs_random_init(seed);
}
HS_HIDDEN int rand(void) {
  return (int)random();
}
HS_HIDDEN void srand(unsigned seed) {
  hs_random_init(seed);
}

static struct drand48_data hs_drand48;
static int hs_drand48_ready;
static struct drand48_data* hs_drand(void) {
  if (!hs_drand48_ready) {
    memset(&hs_drand48, 0, sizeof hs_drand48);
    hs_drand48_ready = 1;
  }
  return &hs_drand48;
}
HS_HIDDEN double drand48(void) {
  double d;
  drand48_r(hs_drand(), &d);
  return d;
}
HS_HIDDEN long lrand48(void) {
  long l;
  lrand48_r(hs_drand(), &l);
  return l;
}
HS_HIDDEN long mrand48(void) {
  long l;
  mrand48_r(hs_drand(), &l);
  return l;
}
HS_HIDDEN void srand48(long seed) {
  srand48_r(seed, hs_drand());
}
HS_HIDDEN unsigned short* seed48(unsigned short seed[3]) {
  static unsigned short old[3];
  struct drand48_data* d = hs_drand();
  memcpy(old, d->__x, sizeof old);
  seed48_r(seed, d);
  return old;
}

static char* hs_strtok_next;
HS_HIDDEN char* strtok(char* s, const char* delim) {
  return strtok_r(s, delim, &hs_strtok_next);
}

/* ---- time and threads ---- */

HS_HIDDEN unsigned sleep(unsigned seconds) {
  hs_services->sleep(hs_services->instance, (uint64_t)seconds * 1000000000u);
  return 0;
}
HS_HIDDEN int usleep(useconds_t us) {
  hs_services->sleep(hs_services->instance, (uint64_t)us * 1000u);
  return 0;
}
HS_HIDDEN int nanosleep(const struct timespec* t, struct timespec* left) {
  if (!t || t->tv_nsec < 0 || t->tv_nsec >= 1000000000L || t->tv_sec < 0) {
    errno = EINVAL;
    return -1;
  }
  hs_services->sleep(hs_services->instance,
                     (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec);
  if (left) left->tv_sec = left->tv_nsec = 0;
  return 0;
}
/* Weak: an interface whose programs have threads (the PPE's) defines its own. */
HS_HIDDEN __attribute__((weak)) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                   void* (*fn)(void*), void* arg) {
  (void)thread, (void)attr, (void)fn, (void)arg;
  fprintf(stderr, "pthread_create: a program runs on one modelled core; threads are refused\n");
  return EAGAIN;
}

/* ---- hybridsim.h ---- */

HS_HIDDEN void hybridsim_compute(uint64_t cycles) {
  hs_rt_note_call_site(__builtin_return_address(0));
  hs_services->compute(hs_services->instance, cycles);
}
HS_HIDDEN double hybridsim_time(void) {
  return hs_services->now(hs_services->instance);
}
