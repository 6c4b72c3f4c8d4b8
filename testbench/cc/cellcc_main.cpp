// hybridsim-cellcc: builds Cell programs in the SDK's three steps, so that a Cell program's
// Makefile ports by renaming its compilers (spu-gcc, embedspu, ppu-gcc):
//   hybridsim-cellcc --target=spu [OPTIONS] -o NAME.spu SOURCES    an SPU program
//   hybridsim-cellcc --embed SYMBOL NAME.spu -o OBJ.o               its spe_program_handle_t
//   hybridsim-cellcc --target=ppu [OPTIONS] -o APP SOURCES OBJ.o    the PPE program
//   hybridsim-cellcc --target=host [OPTIONS] -o HOSTAPP SOURCES     the host's (dacs.h), which
//                                                                   starts APP on its Cell
// Each target is a flavour of the compiler wrappers' engine (testbench/cc/program_cc.h: -I, -D,
// -O, -g, -l, -c and the rest as for any compiler), with its interface's headers and
// forwarders; a target is one row of kTargets. C++ sources (.cpp, .cc, .cxx, .C) build as C++.
#include <unistd.h>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "testbench/cc/program_cc.h"

namespace {

constexpr const char* kWrapper = "hybridsim-cellcc";

struct Target {
  const char* name;                // --target=NAME
  const char* interface;           // the engine's interface (its headers and forwarders)
  std::vector<std::string> flags;  // what the target adds to every compile
};

// The targets: the SPU's programs (spu_mfcio.h, main(speid, argp, envp)), the PPE's
// (libspe2.h, and dacs.h as the host's child) and the host's (dacs.h: Roadrunner's Opteron).
const std::vector<Target> kTargets = {
    {"spu", "spu", {"-Wno-main"}},  // the SDK's entry is main(speid, argp, envp)
    {"ppu", "ppu", {}},
    {"host", "host", {}},
};

const char* kUsage =
    "usage: hybridsim-cellcc --target=spu|ppu|host [compiler options] [-o OUTPUT] SOURCES...\n"
    "       hybridsim-cellcc --embed SYMBOL NAME.spu -o OBJECT.o\n"
    "  --target=spu  compiles and links an SPU program (spu_mfcio.h) into NAME.spu\n"
    "  --embed       makes an object defining 'spe_program_handle_t SYMBOL' for NAME.spu\n"
    "  --target=ppu  compiles and links a PPE program (libspe2.h) with its embedded SPU\n"
    "                programs; run it with: hybridsim run hybrid_program --set "
    "workload.program=APP\n"
    "  --target=host compiles and links a host program (dacs.h) that starts a PPE program on\n"
    "                its Cell with dacs_de_start; run it with: hybridsim run hybrid_program\n"
    "                --set workload.host_program=HOSTAPP\n";

int refuse(const std::string& why) {
  std::fprintf(stderr, "%s: %s\n", kWrapper, why.c_str());
  return 2;
}

bool is_cxx_source(const std::string& a) {
  for (const char* ext : {".cpp", ".cc", ".cxx", ".C", ".c++"}) {
    const size_t n = std::strlen(ext);
    if (a.size() > n && a.compare(a.size() - n, n, ext) == 0) return true;
  }
  return false;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (const char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// --embed SYMBOL NAME.spu -o OBJECT: a C file that places the image (128-byte aligned, so the
// loader moves it by DMA) in read-only data and defines the handle, compiled for the PPE.
int embed(const hs::cc::Layout& layout, const std::vector<std::string>& args) {
  std::string symbol, image, output;
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--embed" && i + 1 < args.size()) {
      symbol = args[++i];
    } else if (args[i] == "-o" && i + 1 < args.size()) {
      output = args[++i];
    } else if (!args[i].empty() && args[i][0] != '-' && image.empty()) {
      image = args[i];
    } else {
      rest.push_back(args[i]);
    }
  }
  if (!is_identifier(symbol)) {
    return refuse("--embed needs a C identifier for the handle (--embed SYMBOL NAME.spu -o OBJ.o)" +
                  (symbol.empty() ? std::string() : ", got '" + symbol + "'"));
  }
  if (image.empty() || output.empty()) {
    return refuse("--embed " + symbol +
                  " needs the SPU program and the object to write "
                  "(--embed SYMBOL NAME.spu -o OBJ.o)");
  }
  std::ifstream in(image, std::ios::binary);
  if (!in) return refuse(image + ": cannot read the SPU program (" + std::strerror(errno) + ")");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.compare(0, 4,
                    "\x7f"
                    "ELF") != 0 ||
      bytes.find("hybridsim_spu_program") == std::string::npos) {
    return refuse(image + ": not an SPU program (build it with hybridsim-cellcc --target=spu)");
  }
  char cwd[4096];
  std::string path = image;
  if (path[0] != '/' && getcwd(cwd, sizeof cwd)) path = std::string(cwd) + "/" + image;
  std::string quoted;
  for (const char c : path) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  const char* tmpdir = std::getenv("TMPDIR");
  std::string source =
      std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/hybridsim-embed-XXXXXX.c";
  const int fd = mkstemps(source.data(), 2);
  if (fd < 0) return refuse(std::string("cannot make a temporary file: ") + std::strerror(errno));
  const std::string label = "hybridsim_embedded_" + symbol;
  const std::string text = "/* hybridsim-cellcc --embed " + symbol +
                           " */\n"
                           "#include \"libspe2.h\"\n"
                           "__asm__(\".section .rodata\\n.balign 128\\n.globl " +
                           label + "\\n.hidden " + label + "\\n" + label + ":\\n.incbin \\\"" +
                           quoted +
                           "\\\"\\n.previous\");\n"
                           "extern const char " +
                           label +
                           "[] __attribute__((visibility(\"hidden\")));\n"
                           "spe_program_handle_t " +
                           symbol + " = {sizeof(spe_program_handle_t), (void*)" + label + ", 0};\n";
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  if (!written) {
    std::remove(source.c_str());
    return refuse("cannot write " + source);
  }
  const hs::cc::Flavour f = layout.flavour(kWrapper, "ppu", false, {});
  std::vector<std::string> cc = rest;
  cc.insert(cc.end(), {"-c", source, "-o", output});
  const int rc = hs::cc::execute(f, hs::cc::plan(f, layout, cc));
  std::remove(source.c_str());
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  const hs::cc::Layout layout = hs::cc::this_layout();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  for (const auto& a : args) {
    if (a == "--embed") return embed(layout, args);
  }
  const Target* target = nullptr;
  std::vector<std::string> rest;
  bool cxx = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string name;
    if (a.rfind("--target=", 0) == 0) {
      name = a.substr(9);
    } else if ((a == "--target" || a == "-target") && i + 1 < args.size()) {
      name = args[++i];
    } else {
      rest.push_back(a);
      cxx = cxx || is_cxx_source(a);
      continue;
    }
    target = nullptr;
    for (const Target& t : kTargets) {
      if (name == t.name) target = &t;
    }
    if (!target) {
      return refuse("--target=" + name +
                    ": unknown target (spu: an SPU program, ppu: a PPE "
                    "program, host: a host program)");
    }
  }
  if (!target) {
    return refuse(
        "which program? give --target=spu (an SPU program), --target=ppu (a PPE "
        "program) or --target=host (a host program), or --embed SYMBOL NAME.spu -o OBJ.o\n" +
        std::string(kUsage));
  }
  const std::string wrapper = std::string(kWrapper) + " --target=" + target->name;
  const hs::cc::Flavour f = layout.flavour(wrapper, target->interface, cxx, {});
  rest.insert(rest.begin(), target->flags.begin(), target->flags.end());
  return hs::cc::execute(f, hs::cc::plan(f, layout, rest));
}
