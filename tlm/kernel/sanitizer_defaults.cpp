// Compiled into every executable of a sanitized build (HYBRIDSIM_SANITIZE): what the
// sanitizers should not report, whoever runs the binary (CTest, a test's child process, a
// user). Both are about libsystemc, which is not built with AddressSanitizer.
//
// - Its coroutines switch stacks without telling AddressSanitizer, so frames left on a stack
//   it switched away from stay poisoned. When an exception is later thrown on that stack (a
//   SystemC error the kernel throws from sc_start, say), the runtime's own sigaltstack call
//   writes into such a frame and is reported as an overflow that the program never made.
// - A run that ends in a SystemC error leaves the kernel's process lists allocated.
//
// Weak: an executable may hold more than one copy (its own sources and an object library's).

extern "C" __attribute__((weak)) const char* __asan_default_suppressions() {
  return "interceptor_name:sigaltstack\n";
}

extern "C" __attribute__((weak)) const char* __lsan_default_suppressions() {
  return "leak:libsystemc\n";
}
