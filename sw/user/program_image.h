// A user program module, read from disk and checked before any run: an x86-64 ELF shared
// object that carries the program runtime (sw/user/runtime/) of this simulator's ABI version,
// as the compiler wrappers (hybridsim-mpicc, ...) build it. Instances (program_instance.h)
// each load a private copy of these bytes.
#pragma once
#include <memory>
#include <set>
#include <string>

namespace hs::user {

class ProgramImage {
 public:
  // Reads and checks `path`. Throws std::invalid_argument naming the file and what is wrong:
  // missing or unreadable, not an ELF file, another architecture, an executable or object
  // file rather than a module, no program runtime (built without the wrappers), no main.
  static std::shared_ptr<const ProgramImage> read(const std::string& path);
  // The same checks on a module's bytes already in memory (an SPU program embedded in a PPE
  // program); `path` names it in messages, `built` says how to build one.
  static std::shared_ptr<const ProgramImage> from_bytes(const std::string& path, std::string bytes,
                                                        const std::string& built);

  const std::string& path() const { return path_; }
  const std::string& name() const { return name_; }  // the file's name, without directories
  const std::string& bytes() const { return bytes_; }
  // Whether the module exports `symbol` (hybridsim_spu_program marks an SPU program).
  bool exports(const std::string& symbol) const { return exports_.count(symbol) != 0; }

 private:
  ProgramImage() = default;
  std::string path_, name_, bytes_;
  std::set<std::string> exports_;
};

}  // namespace hs::user
