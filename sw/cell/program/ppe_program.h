// A PPE program (built with `hybridsim-cellcc --target=ppu`) on the PPE: the binding of its
// libspe2.h calls to the PPE's side of the SDK (sw/cell/ppe_sdk.h), through the table its
// forwarders call (sw/cell/runtime/libspe2_abi.h).
//
// Rules:
// - The program's memory lies in the Cell's memory (its instance's region of the accelerator's
//   DRAM), and its pointers are its effective addresses: the SPEs' MFCs translate them to
//   that region (Mfc::set_translation, set by the workload), as the MFC's MMU translates a
//   process's virtual addresses. So a pointer the program hands an SPE, as argp, in a control
//   block or to a proxy DMA, is what the SPE DMAs, as on the hardware. spe_ls_area_get's
//   pointer is the local store's mapping in the program's address space (ls_mapping.h): the
//   program loads and stores through it, and a DMA naming it reaches the local store.
// - A context is one physical SPE (cell_sdk::Ppe's rule). spe_program_load copies the
//   program's image into the local store by proxy DMA (its time is the copy's) and makes the
//   SPU program's instance there (the workload's SpuLoader); an image that is not an SPU
//   program, or does not fit the local store, fails the run naming the call and why.
// - Gangs group contexts and have no further effect: contexts are physical SPEs, always
//   running together.
// - Errors are libspe2's (-1 or NULL and errno) where libspe2 documents them; a misuse it
//   leaves undefined (running a context with no program loaded) fails the run naming the call
//   and the program's line.
// - Every call is a span named after it on the PPE's timeline.
#pragma once
#include <cerrno>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "sw/cell/ppe_sdk.h"
#include "sw/cell/program/ls_mapping.h"
#include "sw/user/program_instance.h"

struct spe_context;
struct spe_gang_context;
struct spe_program_handle;
struct spe_stop_info;
struct spe_event_unit;

namespace hs::fw::cell_program {

// Makes the SPU program's instance in SPE `spe`'s local store; throws std::runtime_error
// saying what does not fit. A null image drops what is loaded (before the new image's copy).
using SpuLoader = std::function<void(int spe, std::shared_ptr<const user::ProgramImage> image)>;
// Whether SPE `spe` has a program loaded.
using SpuLoaded = std::function<bool(int spe)>;

class PpeProgram {
 public:
  // `ls`: the local stores' mapping spe_ls_area_get returns (null: their real addresses).
  PpeProgram(user::ProgramInstance& program, Hal& hal, int spes, SpuLoader load, SpuLoaded loaded,
             const LsMapping* ls = nullptr);
  static const void* table();
  // Offers the table to `program` under its interface's name (its forwarders find it there).
  void provide_to(user::ProgramInstance& program);
  user::ProgramInstance& program() { return program_; }

  spe_context* spe_context_create(unsigned flags, spe_gang_context* gang);
  int spe_context_destroy(spe_context* spe);
  spe_gang_context* spe_gang_context_create(unsigned flags);
  int spe_gang_context_destroy(spe_gang_context* gang);
  spe_program_handle* spe_image_open(const char* filename);
  int spe_image_close(spe_program_handle* program);
  int spe_program_load(spe_context* spe, spe_program_handle* program);
  int spe_context_run(spe_context* spe, unsigned* entry, unsigned runflags, void* argp, void* envp,
                      spe_stop_info* stopinfo);
  int spe_stop_info_read(spe_context* spe, spe_stop_info* stopinfo);
  void* spe_ls_area_get(spe_context* spe);
  void* spe_event_handler_create();
  int spe_event_handler_destroy(void* evhandler);
  int spe_event_handler_register(void* evhandler, spe_event_unit* event);
  int spe_event_handler_deregister(void* evhandler, spe_event_unit* event);
  int spe_event_wait(void* evhandler, spe_event_unit* events, int max_events, int timeout);
  // Runs a call, passing the errno it sets on to the program.
  template <class F>
  auto with_errno(F&& call) -> decltype(call()) {
    errno = 0;
    auto result = call();
    if (errno != 0) program_.set_errno(errno);
    return result;
  }
  // The rest of libspe2.h is the PPE's side of the SDK's, with the context as its SpeContext.
  template <class R, class... P, class... A>
  R forward(R (cell_sdk::Ppe::*call)(P...), A... args) {
    return (ppe_.*call)(convert(args)...);
  }

 private:
  static cell_sdk::SpeContext* ctx(spe_context* spe) {
    return reinterpret_cast<cell_sdk::SpeContext*>(spe);
  }
  static cell_sdk::SpeContext* convert(spe_context* spe) { return ctx(spe); }
  template <class T>
  static T convert(T value) {
    return value;
  }
  [[noreturn]] void misuse(const char* call, const std::string& why);

  user::ProgramInstance& program_;
  Hal& hal_;
  cell_sdk::Ppe ppe_;
  SpuLoader load_;
  SpuLoaded loaded_;
  const LsMapping* ls_;
  std::set<const void*> gangs_;                // live gangs
  std::map<const void*, std::string> images_;  // spe_image_open's handles: the file's name
  int next_gang_ = 1;
};

}  // namespace hs::fw::cell_program
