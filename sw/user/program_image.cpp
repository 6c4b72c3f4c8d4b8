#include "sw/user/program_image.h"

#include <elf.h>
#include <fmt/format.h>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "sw/user/user_abi.h"

namespace hs::user {

namespace {

// The names in the module's dynamic symbol table (what the loader can find).
std::set<std::string> dynamic_symbols(const std::string& b, const std::string& path) {
  auto bad = [&](const char* what) {
    return std::invalid_argument(fmt::format("{}: a damaged ELF file ({})", path, what));
  };
  Elf64_Ehdr eh;
  std::memcpy(&eh, b.data(), sizeof eh);
  if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      eh.e_shoff + uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr) > b.size()) {
    throw bad("section headers");
  }
  std::set<std::string> names;
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, b.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
    if (sh.sh_type != SHT_DYNSYM) continue;
    if (sh.sh_link >= eh.e_shnum) throw bad("symbol table");
    Elf64_Shdr str;
    std::memcpy(&str, b.data() + eh.e_shoff + sh.sh_link * sizeof str, sizeof str);
    if (sh.sh_offset + sh.sh_size > b.size() || str.sh_offset + str.sh_size > b.size()) {
      throw bad("symbol table");
    }
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, b.data() + sh.sh_offset + off, sizeof sym);
      if (sym.st_shndx == SHN_UNDEF || sym.st_name >= str.sh_size) continue;
      const char* name = b.data() + str.sh_offset + sym.st_name;
      names.emplace(name, strnlen(name, str.sh_size - sym.st_name));
    }
  }
  return names;
}

// A position-independent executable is a shared object too, marked DF_1_PIE.
bool position_independent_executable(const std::string& b) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, b.data(), sizeof eh);
  if (eh.e_phentsize != sizeof(Elf64_Phdr) ||
      eh.e_phoff + uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr) > b.size()) {
    return false;
  }
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, b.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type != PT_DYNAMIC || ph.p_offset + ph.p_filesz > b.size()) continue;
    for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= ph.p_filesz; off += sizeof(Elf64_Dyn)) {
      Elf64_Dyn d;
      std::memcpy(&d, b.data() + ph.p_offset + off, sizeof d);
      if (d.d_tag == DT_FLAGS_1 && (d.d_un.d_val & DF_1_PIE)) return true;
      if (d.d_tag == DT_NULL) break;
    }
  }
  return false;
}

}  // namespace

std::shared_ptr<const ProgramImage> ProgramImage::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::invalid_argument(
        fmt::format("{}: cannot read the program ({})", path, std::strerror(errno)));
  }
  std::ostringstream all;
  all << in.rdbuf();
  return from_bytes(path, all.str(), "build it with hybridsim-mpicc or hybridsim-mpicxx");
}

std::shared_ptr<const ProgramImage> ProgramImage::from_bytes(const std::string& path,
                                                             std::string bytes,
                                                             const std::string& built) {
  std::shared_ptr<ProgramImage> img(new ProgramImage);
  img->path_ = path;
  img->name_ =
      path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  img->bytes_ = std::move(bytes);
  const std::string& b = img->bytes_;
  if (b.size() < sizeof(Elf64_Ehdr) || std::memcmp(b.data(), ELFMAG, SELFMAG) != 0) {
    throw std::invalid_argument(
        fmt::format("{}: not a program module (not an ELF file; {})", path, built));
  }
  Elf64_Ehdr eh;
  std::memcpy(&eh, b.data(), sizeof eh);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
    throw std::invalid_argument(fmt::format(
        "{}: built for another architecture (the simulator runs x86-64 modules)", path));
  }
  if (eh.e_type != ET_DYN) {
    throw std::invalid_argument(fmt::format("{}: {}, not a program module ({})", path,
                                            eh.e_type == ET_EXEC  ? "an ordinary executable"
                                            : eh.e_type == ET_REL ? "an object file"
                                                                  : "an ELF file of another kind",
                                            built));
  }
  if (position_independent_executable(b)) {
    throw std::invalid_argument(
        fmt::format("{}: an ordinary executable, not a program module ({})", path, built));
  }
  const auto names = dynamic_symbols(b, path);
  img->exports_.insert(names.begin(), names.end());
  if (!names.count(HS_USER_ATTACH_SYMBOL) || !names.count(HS_USER_ABI_SYMBOL)) {
    throw std::invalid_argument(
        fmt::format("{}: a shared object without the hybridsim program runtime ({})", path, built));
  }
  if (!names.count("main")) {
    throw std::invalid_argument(fmt::format("{}: the program has no main function", path));
  }
  return img;
}

}  // namespace hs::user
