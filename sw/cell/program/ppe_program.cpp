#include "sw/cell/program/ppe_program.h"

#include <dlfcn.h>
#include <elf.h>
#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sw/cell/program/spu_program.h"
#include "sw/cell/runtime/libspe2_abi.h"

namespace hs::fw::cell_program {

namespace {
constexpr const char* kBuilt = "build it with hybridsim-cellcc --target=spu";
constexpr unsigned kLoadTag = 31;       // the proxy tag group spe_program_load's copy uses
constexpr uint32_t kLoadChunk = 16384;  // the largest DMA

int fail(int err) {
  errno = err;
  return -1;
}

// An ELF file's length from its header: its section headers come last.
uint64_t elf_length(const unsigned char* image) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, image, sizeof eh);
  uint64_t end = eh.e_shoff + uint64_t{eh.e_shnum} * eh.e_shentsize;
  end = std::max<uint64_t>(end, eh.e_phoff + uint64_t{eh.e_phnum} * eh.e_phentsize);
  return std::max<uint64_t>(end, sizeof eh);
}
}  // namespace

PpeProgram::PpeProgram(user::ProgramInstance& program, Hal& hal, int spes, SpuLoader load,
                       SpuLoaded loaded, const LsMapping* ls)
    : program_(program),
      hal_(hal),
      ppe_(hal, spes, cell_sdk::firmware_ea),
      load_(std::move(load)),
      loaded_(std::move(loaded)),
      ls_(ls) {}

void PpeProgram::misuse(const char* call, const std::string& why) {
  hal_.fail(fmt::format("{}: {} at {}: {}", program_.name(), call, program_.call_site(), why));
  __builtin_unreachable();
}

spe_context* PpeProgram::spe_context_create(unsigned flags, spe_gang_context* gang) {
  if (gang != nullptr && !gangs_.count(gang)) {
    errno = EINVAL;
    return nullptr;
  }
  return reinterpret_cast<spe_context*>(ppe_.spe_context_create(flags, nullptr));
}

int PpeProgram::spe_context_destroy(spe_context* spe) {
  cell_sdk::SpeContext* c = ctx(spe);
  if (ppe_.spe_ls_size_get(c) < 0) return -1;  // ESRCH: not a live context
  try {
    load_(c->spe, nullptr);  // the next context on this SPE starts with nothing loaded
  } catch (const std::runtime_error& e) {
    misuse("spe_context_destroy", e.what());
  }
  return ppe_.spe_context_destroy(c);
}

spe_gang_context* PpeProgram::spe_gang_context_create(unsigned) {
  // A handle in the program's heap: a pointer of its own, never dereferenced.
  void* g = program_.heap().allocate(16);
  if (!g) {
    errno = ENOMEM;
    return nullptr;
  }
  gangs_.insert(g);
  return static_cast<spe_gang_context*>(g);
}

int PpeProgram::spe_gang_context_destroy(spe_gang_context* gang) {
  if (!gangs_.erase(gang)) return fail(ESRCH);
  std::string why;
  program_.heap().release(gang, why);
  return 0;
}

spe_program_handle* PpeProgram::spe_image_open(const char* filename) {
  if (filename == nullptr) {
    errno = EINVAL;
    return nullptr;
  }
  std::ifstream in(filename, std::ios::binary);
  if (!in) {
    errno = ENOENT;
    return nullptr;
  }
  std::ostringstream all;
  all << in.rdbuf();
  const std::string bytes = all.str();
  // The handle and the image, in the program's heap (as libspe2 maps the file into its memory).
  auto* h =
      static_cast<spe_program_handle_t*>(program_.heap().allocate(sizeof(spe_program_handle_t)));
  void* image = program_.heap().allocate(std::max<size_t>(bytes.size(), 1), 128);
  if (!h || !image) {
    std::string why;
    if (h) program_.heap().release(h, why);
    if (image) program_.heap().release(image, why);
    errno = ENOMEM;
    return nullptr;
  }
  std::memcpy(image, bytes.data(), bytes.size());
  h->handle_size = sizeof(spe_program_handle_t);
  h->elf_image = image;
  h->toe_shadow = nullptr;
  images_[h] = filename;
  return h;
}

int PpeProgram::spe_image_close(spe_program_handle* program) {
  auto it = images_.find(program);
  if (it == images_.end()) return fail(EINVAL);  // not one spe_image_open made
  std::string why;
  program_.heap().release(program->elf_image, why);
  program_.heap().release(program, why);
  images_.erase(it);
  return 0;
}

int PpeProgram::spe_program_load(spe_context* spe, spe_program_handle* program) {
  cell_sdk::SpeContext* c = ctx(spe);
  if (ppe_.spe_ls_size_get(c) < 0) return -1;  // ESRCH: not a live context
  if (program == nullptr || !program_.windows().to_simulated(program, sizeof *program)) {
    return fail(EINVAL);
  }
  const auto* image = static_cast<const unsigned char*>(program->elf_image);
  if (!program_.windows().to_simulated(image, sizeof(Elf64_Ehdr))) return fail(EINVAL);
  const uint64_t length = elf_length(image);
  if (std::memcmp(image, ELFMAG, SELFMAG) != 0 || !program_.windows().to_simulated(image, length)) {
    misuse("spe_program_load", fmt::format("the program handle's image at {} is not an SPU "
                                           "program ({})",
                                           static_cast<const void*>(image), kBuilt));
  }
  // Its name: the file spe_image_open read, or the handle's symbol (hybridsim-cellcc --embed).
  std::string name = fmt::format("at {}", static_cast<const void*>(image));
  Dl_info info{};
  if (images_.count(program)) {
    name = images_.at(program);
  } else if (dladdr(program, &info) && info.dli_sname && info.dli_saddr == program) {
    name = info.dli_sname;
  }
  std::shared_ptr<const user::ProgramImage> img;
  try {
    img = user::ProgramImage::from_bytes(
        name, std::string(reinterpret_cast<const char*>(image), length), kBuilt);
  } catch (const std::invalid_argument& e) {
    misuse("spe_program_load", e.what());
  }
  if (!img->exports("hybridsim_spu_program")) {
    misuse("spe_program_load",
           fmt::format("{} is not an SPU program (a PPE program or another module; {})", name,
                       kBuilt));
  }
  load_(c->spe, nullptr);
  // The copy into the local store: proxy GETs of the image's loadable segments, as libspe2's
  // loader moves them (whole quadwords of a quadword-aligned image: the embedded and opened
  // ones are).
  if (reinterpret_cast<uintptr_t>(image) % 16 == 0) {
    Elf64_Ehdr eh;
    std::memcpy(&eh, image, sizeof eh);
    bool copied = false;
    for (unsigned i = 0; i < eh.e_phnum; ++i) {
      Elf64_Phdr ph;
      std::memcpy(&ph, image + eh.e_phoff + uint64_t{i} * eh.e_phentsize, sizeof ph);
      if (ph.p_type != PT_LOAD || ph.p_offset % 16 != ph.p_vaddr % 16) continue;
      const uint64_t lo = ph.p_offset & ~uint64_t{15};
      const uint64_t ls = ph.p_vaddr & ~uint64_t{15};
      const uint64_t end = std::min<uint64_t>(ph.p_offset + ph.p_filesz, length);
      for (uint64_t at = lo; at < end && ls + (at - lo) + 16 <= kProgramTop; at += kLoadChunk) {
        const uint64_t room = kProgramTop - (ls + (at - lo));
        const auto n = static_cast<unsigned>(std::min(
            {uint64_t{kLoadChunk}, (end - at + 15) & ~uint64_t{15}, room & ~uint64_t{15}}));
        if (n == 0 || at + n > length) break;
        ppe_.spe_mfcio_get(c, static_cast<unsigned>(ls + (at - lo)),
                           const_cast<unsigned char*>(image + at), n, kLoadTag, 0, 0);
        copied = true;
      }
    }
    unsigned status = 0;
    if (copied) ppe_.spe_mfcio_tag_status_read(c, 1u << kLoadTag, cell_sdk::spe::kTagAll, &status);
  }
  try {
    load_(c->spe, img);
  } catch (const std::runtime_error& e) {
    misuse("spe_program_load", e.what());
  }
  return 0;
}

int PpeProgram::spe_context_run(spe_context* spe, unsigned* entry, unsigned runflags, void* argp,
                                void* envp, spe_stop_info* stopinfo) {
  cell_sdk::SpeContext* c = ctx(spe);
  if (ppe_.spe_ls_size_get(c) < 0) return -1;  // ESRCH
  if (!loaded_(c->spe)) {
    misuse("spe_context_run",
           fmt::format("SPE {}'s context has no program loaded (call spe_program_load first)",
                       c->spe));
  }
  cell_sdk::StopInfo stop;
  const int rc = ppe_.spe_context_run(c, entry, runflags, argp, envp, &stop);
  if (stopinfo != nullptr) {
    *stopinfo = spe_stop_info_t{};
    stopinfo->stop_reason = stop.stop_reason;
    stopinfo->result.spe_exit_code = stop.exit_code;
    stopinfo->spu_status = stop.spu_status;
  }
  return rc;
}

int PpeProgram::spe_stop_info_read(spe_context* spe, spe_stop_info* stopinfo) {
  cell_sdk::StopInfo stop;
  if (ppe_.spe_stop_info_read(ctx(spe), stopinfo ? &stop : nullptr) != 0) return -1;
  *stopinfo = spe_stop_info_t{};
  stopinfo->stop_reason = stop.stop_reason;
  stopinfo->result.spe_exit_code = stop.exit_code;
  stopinfo->spu_status = stop.spu_status;
  return 0;
}

void* PpeProgram::spe_ls_area_get(spe_context* spe) {
  void* real = ppe_.spe_ls_area_get(ctx(spe));  // ESRCH for a context that is not live
  return real && ls_ ? ls_->area(ctx(spe)->spe) : real;
}

// ---- Events: the program's event units are the SDK's (the same layout) ----

namespace {
static_assert(sizeof(spe_event_unit_t) == sizeof(cell_sdk::EventUnit) &&
                  offsetof(spe_event_unit_t, spe) == offsetof(cell_sdk::EventUnit, spe) &&
                  offsetof(spe_event_unit_t, data) == offsetof(cell_sdk::EventUnit, data),
              "spe_event_unit_t and cell_sdk::EventUnit must match");
cell_sdk::EventUnit* unit(spe_event_unit_t* e) {
  return reinterpret_cast<cell_sdk::EventUnit*>(e);
}
cell_sdk::EventHandler* handler(spe_event_handler_ptr_t h) {
  return static_cast<cell_sdk::EventHandler*>(h);
}
}  // namespace

spe_event_handler_ptr_t PpeProgram::spe_event_handler_create() {
  return ppe_.spe_event_handler_create();
}
int PpeProgram::spe_event_handler_destroy(spe_event_handler_ptr_t evhandler) {
  return ppe_.spe_event_handler_destroy(handler(evhandler));
}
int PpeProgram::spe_event_handler_register(spe_event_handler_ptr_t evhandler,
                                           spe_event_unit_t* event) {
  return ppe_.spe_event_handler_register(handler(evhandler), unit(event));
}
int PpeProgram::spe_event_handler_deregister(spe_event_handler_ptr_t evhandler,
                                             spe_event_unit_t* event) {
  return ppe_.spe_event_handler_deregister(handler(evhandler), unit(event));
}
int PpeProgram::spe_event_wait(spe_event_handler_ptr_t evhandler, spe_event_unit_t* events,
                               int max_events, int timeout) {
  return ppe_.spe_event_wait(handler(evhandler), unit(events), max_events, timeout);
}

void PpeProgram::provide_to(user::ProgramInstance& program) {
  program.provide_api(HS_LIBSPE2_API_NAME, HS_LIBSPE2_API_VERSION, table(), this);
}

const void* PpeProgram::table() {
  static const hs_libspe2_table table = [] {
    hs_libspe2_table t{};
#define HS_SPE_FN(ret, name, params, args)                                         \
  t.name = [](void* self, HS_CELL_UNPAREN params) -> ret {                         \
    auto* p = static_cast<PpeProgram*>(self);                                      \
    return p->program().call(#name, [&] {                                          \
      return p->with_errno(                                                        \
          [&] { return p->forward(&cell_sdk::Ppe::name, HS_CELL_UNPAREN args); }); \
    });                                                                            \
  };
#define HS_SPE_OWN(ret, name, params, args)                                                       \
  t.name = [](void* self, HS_CELL_UNPAREN params) -> ret {                                        \
    auto* p = static_cast<PpeProgram*>(self);                                                     \
    return p->program().call(#name, [&] { return p->with_errno([&] { return p->name args; }); }); \
  };
#define HS_SPE_OWN0(ret, name)                                                                 \
  t.name = [](void* self) -> ret {                                                             \
    auto* p = static_cast<PpeProgram*>(self);                                                  \
    return p->program().call(#name, [&] { return p->with_errno([&] { return p->name(); }); }); \
  };
#include "hybridsim_libspe2_functions.h"
#undef HS_SPE_FN
#undef HS_SPE_OWN
#undef HS_SPE_OWN0
    return t;
  }();
  return &table;
}

}  // namespace hs::fw::cell_program
