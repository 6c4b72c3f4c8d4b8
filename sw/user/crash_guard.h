// Signals a program's own code raises end that program instance, not the simulator.
//
// install_crash_guard() (idempotent; every ProgramInstance calls it) handles SIGSEGV, SIGBUS,
// SIGFPE, SIGILL and SIGABRT on an alternate signal stack (a stack overflow leaves none to run
// on). The handler asks running_program(), the instance whose code this thread is running now:
// if there is one, the instance records the signal and resumes from its run() (the program
// is over, as a process killed by the signal would be); if there is none, the fault is the
// simulator's own and takes its usual course (the previous handler, or the default action).
//
// running_program() is the one piece of state of the user-program layer outside instances:
// thread-local, set while a program's code runs and cleared whenever it calls in, so a
// partitioned run with a simulator per thread or process keeps one per partition.
//
// Fault resolvers come first: a component that maps memory lazily (the Cell's local stores in a
// PPE program's address space, sw/cell/program/ls_mapping.h) registers one for this thread; a
// SIGSEGV or SIGBUS at an address a resolver makes accessible resumes the faulting access.
#pragma once

namespace hs::user {

class ProgramInstance;

void install_crash_guard();
ProgramInstance*& running_program();

// `resolve(self, address)`: whether the address is the resolver's and is accessible now. Called
// in the signal handler: it must not allocate or block.
using FaultResolver = bool (*)(void* self, const void* address);
void add_fault_resolver(void* self, FaultResolver resolve);
void remove_fault_resolver(void* self);

}  // namespace hs::user
