#include "sw/cell/program/spu_program.h"

#include <fmt/format.h>

#include "sw/cell/runtime/spu_abi.h"

namespace hs::fw::cell_program {

SpuProgram::SpuProgram(user::ProgramInstance& program, Hal& hal, const uint64_t words[3])
    : program_(program),
      spu_(hal, [this](const volatile void* p) { return lsa(p); }),
      words_{words[0], words[1], words[2]} {}

void SpuProgram::main_parameters(unsigned long long words[3]) const {
  for (int i = 0; i < 3; ++i) words[i] = words_[i];
}

uint32_t SpuProgram::lsa(const volatile void* p) const {
  const auto at = program_.windows().to_simulated(const_cast<const void*>(p), 1);
  if (!at) {
    program_.hal().fail(fmt::format(
        "{}: {} at {}: {} is not a local-store address (not the program's globals, stack or "
        "heap)",
        program_.name(), "an MFC call", program_.call_site(), const_cast<const void*>(p)));
  }
  return static_cast<uint32_t>(*at);
}

void SpuProgram::provide_to(user::ProgramInstance& program) {
  program.provide_api(HS_SPU_API_NAME, HS_SPU_API_VERSION, table(), this);
}

const void* SpuProgram::table() {
  static const hs_spu_table table = [] {
    hs_spu_table t{};
#define HS_SPU_FN(ret, name, params, args)                               \
  t.name = [](void* self, HS_CELL_UNPAREN params) -> ret {               \
    auto* s = static_cast<SpuProgram*>(self);                            \
    return s->program().call(#name, [&] { return s->spu().name args; }); \
  };
#define HS_SPU_FN0(ret, name)                                         \
  t.name = [](void* self) -> ret {                                    \
    auto* s = static_cast<SpuProgram*>(self);                         \
    return s->program().call(#name, [&] { return s->spu().name(); }); \
  };
#include "hybridsim_spu_functions.h"
    HS_SPU_FN0(unsigned int, mfc_tag_reserve)
    HS_SPU_FN(unsigned int, mfc_tag_release, (unsigned int tag), (tag))
    HS_SPU_FN(unsigned int, mfc_multi_tag_reserve, (unsigned int number_of_tags), (number_of_tags))
    HS_SPU_FN(unsigned int, mfc_multi_tag_release, (unsigned int tag, unsigned int number_of_tags),
              (tag, number_of_tags))
#undef HS_SPU_FN
#undef HS_SPU_FN0
    t.main_parameters = [](void* self, unsigned long long words[3]) {
      static_cast<SpuProgram*>(self)->main_parameters(words);
    };
    return t;
  }();
  return &table;
}

}  // namespace hs::fw::cell_program
