/* Run directly (./program args), a program module starts the simulator on itself: it executes
 * HS_LAUNCHER HS_LAUNCH_ARGS PROGRAM ARGS (for MPI, `hybridsim mpirun -n 1 PROGRAM ARGS`, as
 * an MPI program started without mpirun runs as a singleton). The compiler wrapper builds this
 * file into every module it links, with HS_LAUNCHER the `hybridsim` beside the wrapper and
 * HS_LAUNCH_ARGS its flavour's launch command (string literals separated by commas), and makes
 * hs_exec_start the module's entry point (the dynamic loader then runs the module as an
 * executable). So `./configure CC=hybridsim-mpicc` can run what it compiles. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef HS_LAUNCHER
#error "HS_LAUNCHER: the hybridsim executable to start"
#endif
#ifndef HS_LAUNCH_ARGS
#error "HS_LAUNCH_ARGS: the launch command's arguments before the program"
#endif
#ifndef HS_INTERPRETER
#define HS_INTERPRETER "/lib64/ld-linux-x86-64.so.2"
#endif

/* Where the dynamic loader is: a shared object run as a program needs to name it. */
const char hs_interpreter[] __attribute__((section(".interp"), visibility("hidden"))) =
    HS_INTERPRETER;

static void hs_say(const char* s) {
  syscall(SYS_write, 2, s, strlen(s));
}

__attribute__((visibility("hidden"), noreturn, used)) void hs_exec_main(void) {
  /* The program's own arguments, from the kernel (the entry point has no C arguments). */
  static char cmdline[1 << 16];
  int fd = open("/proc/self/cmdline", O_RDONLY);
  ssize_t n = 0, got;
  while (fd >= 0 && (got = read(fd, cmdline + n, sizeof cmdline - 1 - (size_t)n)) > 0) n += got;
  if (fd >= 0) close(fd);
  static char self[4096];
  const ssize_t s = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0 || s <= 0) {
    hs_say("hybridsim program: cannot read its own command line\n");
    syscall(SYS_exit_group, 127);
  }
  self[s] = '\0';
  static char* argv[4096];
  int argc = 0;
  argv[argc++] = (char*)HS_LAUNCHER;
  static const char* const launch[] = {HS_LAUNCH_ARGS};
  for (size_t k = 0; k < sizeof launch / sizeof launch[0]; ++k) argv[argc++] = (char*)launch[k];
  argv[argc++] = self;
  /* Skip argv[0] (how the program was named); pass the rest. */
  size_t i = strlen(cmdline) + 1;
  while ((ssize_t)i < n && argc < 4095) {
    argv[argc++] = cmdline + i;
    i += strlen(cmdline + i) + 1;
  }
  argv[argc] = NULL;
  execv(HS_LAUNCHER, argv);
  hs_say("hybridsim program: cannot start " HS_LAUNCHER "\n");
  syscall(SYS_exit_group, 127);
  __builtin_unreachable();
}

/* The entry point: the stack holds argc and argv; align it as a call expects. */
__asm__(
    ".text\n"
    ".globl hs_exec_start\n"
    ".hidden hs_exec_start\n"
    ".type hs_exec_start,@function\n"
    "hs_exec_start:\n"
    "  xor %ebp, %ebp\n"
    "  and $-16, %rsp\n"
    "  call hs_exec_main\n"
    "  ud2\n");
