/* The SPU part of the program runtime, linked whole into every module `hybridsim-cellcc
 * --target=spu` builds: each function of spu_mfcio.h forwarding to the simulator's SPU binding
 * through the table its services give (spu_abi.h), and the SDK's entry: main(speid, argp,
 * envp) called with the words spe_context_run passed. Each records where the program called
 * it from, for the simulator's messages. */
#include <stdio.h>

/* The forwarders are written once for every function of the list, so those returning void
 * return their call's (void) value, which ISO C objects to and GNU C allows. */
#pragma GCC diagnostic ignored "-Wpedantic"

#include "sw/cell/runtime/spu_abi.h"
#include "sw/user/runtime/runtime_internal.h"

/* Marks the module as an SPU program (spe_program_load refuses anything else). */
__attribute__((visibility("default"))) const unsigned int hybridsim_spu_program = 1;

static const struct hs_spu_table* hs_spu;
static void* hs_spu_self;

static const struct hs_spu_table* hs_spu_table(void) {
  if (!hs_spu) {
    hs_spu = (const struct hs_spu_table*)hs_rt_api(
        HS_SPU_API_NAME, HS_SPU_API_VERSION, &hs_spu_self,
        "this SPU program runs outside an SPE (load it with spe_program_load and run it with "
        "spe_context_run from a PPE program)");
  }
  return hs_spu;
}

#define HS_SPU_FN(ret, name, params, args)             \
  ret name params {                                    \
    hs_rt_note_call_site(__builtin_return_address(0)); \
    const struct hs_spu_table* t = hs_spu_table();     \
    return t->name(hs_spu_self, HS_CELL_UNPAREN args); \
  }
#define HS_SPU_FN0(ret, name)                          \
  ret name(void) {                                     \
    hs_rt_note_call_site(__builtin_return_address(0)); \
    const struct hs_spu_table* t = hs_spu_table();     \
    return t->name(hs_spu_self);                       \
  }
#include "hybridsim_spu_functions.h"
HS_SPU_FN0(unsigned int, mfc_tag_reserve)
HS_SPU_FN(unsigned int, mfc_tag_release, (unsigned int tag), (tag))
HS_SPU_FN(unsigned int, mfc_multi_tag_reserve, (unsigned int number_of_tags), (number_of_tags))
HS_SPU_FN(unsigned int, mfc_multi_tag_release, (unsigned int tag, unsigned int number_of_tags),
          (tag, number_of_tags))

/* The program's main, as the SDK declares it: main(speid, argp, envp), three 64-bit words
 * (declared without a prototype here, since a C library's main takes other parameters). */
extern int main();

/* Called by the runtime instead of main(argc, argv, envp) (runtime_internal.h). */
int hs_rt_call_main(int argc, char** argv) {
  (void)argc, (void)argv;
  unsigned long long words[3] = {0, 0, 0};
  const struct hs_spu_table* t = hs_spu_table();
  t->main_parameters(hs_spu_self, words);
  return main(words[0], words[1], words[2]);
}
