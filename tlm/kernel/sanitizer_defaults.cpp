// Compiled into every executable of a sanitized build (HYBRIDSIM_SANITIZE): what the
// sanitizers should not report, whoever runs the binary (CTest, a test's child process, a
// user). Two are about libsystemc, which is not built with AddressSanitizer.
//
// - Its coroutines switch stacks without telling AddressSanitizer, so frames left on a stack
//   it switched away from stay poisoned. When an exception is later thrown on that stack (a
//   SystemC error the kernel throws from sc_start, say), the runtime's own sigaltstack call
//   writes into such a frame and is reported as an overflow that the program never made.
// - A run that ends in a SystemC error leaves the kernel's process lists allocated.
// And Open MPI's (a partitioned run under mpirun): its libraries, PMIx and its plug-ins
// (mca_*) keep allocations they never free, and are not built with frame pointers, so a
// report's stack may end in them. tlm/parallel/mpi_group.cpp ignores what MPI_Init allocates
// on the main thread and checks for leaks just before MPI_Finalize, while the plug-ins are
// still loaded and their frames have names to match these by.
//
// Weak: an executable may hold more than one copy (its own sources and an object library's).

extern "C" __attribute__((weak)) const char* __asan_default_suppressions() {
  return "interceptor_name:sigaltstack\n";
}

// Quiet about what was suppressed (a run's standard error is the program's and ours alone):
// LSAN_OPTIONS=print_suppressions=1 lists it.
extern "C" __attribute__((weak)) const char* __lsan_default_options() {
  return "print_suppressions=0";
}

extern "C" __attribute__((weak)) const char* __lsan_default_suppressions() {
  return "leak:libsystemc\n"
         "leak:libmpi.so\n"
         "leak:libopen-pal.so\n"
         "leak:libopen-rte.so\n"
         "leak:libpmix.so\n"
         "leak:mca_\n";
}
