/* The host part of the program runtime, linked whole into every module `hybridsim-cellcc
 * --target=host` links (with the DaCS forwarders, dacs_forward.c). */

/* Marks the module as a host program (the hybrid_program workload's workload.host_program
 * refuses anything else). */
__attribute__((visibility("default"))) const unsigned int hybridsim_host_program = 1;
