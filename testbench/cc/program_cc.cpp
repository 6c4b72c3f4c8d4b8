#include "testbench/cc/program_cc.h"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>

#include "cc_paths.h"

extern char** environ;

namespace hs::cc {

namespace {

// Stands for the entry object in a plan; execute() replaces it with a fresh temporary file.
constexpr const char* kEntryObject = "hybridsim-entry.o";

// `s` as a C string literal.
std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Options whose value is the next argument (when not joined to them).
const std::set<std::string> kTakesValue = {
    "-o",        "-I",       "-D", "-U",  "-L",  "-l",  "-include", "-isystem",    "-idirafter",
    "-iquote",   "-imacros", "-x", "-MF", "-MT", "-MQ", "-Xlinker", "-Xassembler", "-Xpreprocessor",
    "-aux-info", "-T",       "-u", "-z",  "-e"};

bool starts_with(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

bool is_query(const std::string& a) {
  return a == "--version" || a == "-V" || a == "-qversion" || a == "-dumpversion" ||
         a == "-dumpfullversion" || a == "-dumpmachine" || a == "--help" ||
         starts_with(a, "-print-") || starts_with(a, "--print-");
}

std::string quoted(const std::string& s) {
  if (s.find_first_of(" \t\"'\\$`") == std::string::npos && !s.empty()) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

Plan plan(const Flavour& flavour, const Layout& layout, const std::vector<std::string>& args) {
  Plan p;
  const char* env_cc = std::getenv(flavour.cxx ? "HYBRIDSIM_CXX" : "HYBRIDSIM_CC");
  const std::string compiler =
      env_cc && *env_cc ? env_cc : (flavour.cxx ? layout.cxx_compiler : layout.c_compiler);
  bool link = true, inputs = false, query = false, shared = false, verbose_alone = false;
  std::vector<std::string> user;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-show" || a == "-showme" || a == "--showme") {
      p.show_only = true;
      continue;
    }
    if (a == "-static" || a == "-static-pie") {
      p.error = flavour.wrapper + ": " + a +
                ": programs are loaded into the simulator as modules, which cannot be static "
                "(drop " +
                a + ")";
      return p;
    }
    if (a == "-fopenmp" || a == "-openmp" || a == "-qopenmp") {
      p.error = flavour.wrapper + ": " + a +
                ": a program runs on one modelled core; threads are not modelled (build "
                "without it)";
      return p;
    }
    if (a == "-c" || a == "-S" || a == "-E" || a == "-M" || a == "-MM") link = false;
    if (a == "-shared") shared = true;
    if (is_query(a)) query = true;
    if (a == "-v") verbose_alone = true;
    user.push_back(a);
    if (kTakesValue.count(a) && i + 1 < args.size()) {
      user.push_back(args[++i]);
      continue;
    }
    if (!a.empty() && a[0] != '-') inputs = true;
    if (a == "-") inputs = true;  // standard input
  }
  // `cc -v` alone asks for the version, like the queries.
  if (verbose_alone && !inputs) query = true;
  std::vector<std::string> cmd = {compiler};
  if (!query) {
    for (const auto& d : flavour.include_dirs) cmd.push_back("-I" + d);
    cmd.push_back("-I" + layout.user_include);
    cmd.push_back("-DHYBRIDSIM=1");
    cmd.push_back("-fPIC");
    cmd.push_back("-fasynchronous-unwind-tables");
  }
  cmd.insert(cmd.end(), user.begin(), user.end());
  if (link && inputs && !query && !shared) {
    cmd.insert(cmd.end(), {"-shared", "-Wl,-Bsymbolic", "-Wl,--no-undefined"});
    if (!flavour.launch.empty()) {
      // The entry, compiled for this link (it names the simulator and the launch command)
      // into a temporary object that execute() names (a plan creates no files).
      const std::string path = kEntryObject;
      p.temporaries.push_back(path);
      std::string launch;
      for (const auto& a : flavour.launch) launch += (launch.empty() ? "" : ",") + c_string(a);
      p.commands.push_back({layout.c_compiler, "-c", "-O2", "-fPIC",
                            "-DHS_LAUNCHER=" + c_string(layout.hybridsim),
                            "-DHS_LAUNCH_ARGS=" + launch, layout.exec_entry_source, "-o", path});
      cmd.insert(cmd.end(), {"-Wl,-e,hs_exec_start", path});
    }
    cmd.push_back("-Wl,--whole-archive");
    for (const auto& a : flavour.archives) cmd.push_back(a);
    cmd.push_back(layout.runtime_archive);
    if (flavour.cxx) cmd.push_back(layout.runtime_cxx_archive);
    cmd.push_back("-Wl,--no-whole-archive");
  }
  p.commands.push_back(cmd);
  return p;
}

namespace {

int run_command(const std::vector<std::string>& cmd) {
  std::vector<char*> argv;
  for (const auto& a : cmd) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int e = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (e != 0) {
    std::fprintf(stderr, "%s: cannot run: %s\n", argv[0], std::strerror(e));
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// The output a link writes: -o's value, else the compiler's a.out.
std::string output_of(const std::vector<std::string>& cmd) {
  for (size_t i = 0; i + 1 < cmd.size(); ++i) {
    if (cmd[i] == "-o") return cmd[i + 1];
  }
  for (const auto& a : cmd) {
    if (starts_with(a, "-o") && a.size() > 2) return a.substr(2);
  }
  return "a.out";
}

}  // namespace

int execute(const Flavour& flavour, const Plan& p) {
  if (!p.error.empty()) {
    std::fprintf(stderr, "%s\n", p.error.c_str());
    return 2;
  }
  if (p.show_only) {
    std::string line;
    for (const auto& a : p.commands.back()) line += (line.empty() ? "" : " ") + quoted(a);
    std::printf("%s\n", line.c_str());
    return 0;
  }
  std::vector<std::vector<std::string>> commands = p.commands;
  std::vector<std::string> temporaries = p.temporaries;
  bool uses_entry = false;
  for (const auto& c : commands) {
    for (const auto& a : c) uses_entry = uses_entry || a == kEntryObject;
  }
  if (uses_entry) {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string path =
        std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/hybridsim-entry-XXXXXX.o";
    const int fd = mkstemps(path.data(), 2);
    if (fd < 0) {
      std::fprintf(stderr, "%s: cannot make a temporary file: %s\n", flavour.wrapper.c_str(),
                   std::strerror(errno));
      return 2;
    }
    close(fd);
    for (auto& c : commands) std::replace(c.begin(), c.end(), std::string(kEntryObject), path);
    std::replace(temporaries.begin(), temporaries.end(), std::string(kEntryObject), path);
  }
  int rc = 0;
  for (const auto& c : commands) {
    rc = run_command(c);
    if (rc != 0) break;
  }
  // A module runs as a program too (./a.out): make sure it is executable.
  if (rc == 0 && p.commands.size() > 1) {
    const std::string out = output_of(commands.back());
    struct stat st {};
    if (stat(out.c_str(), &st) == 0) chmod(out.c_str(), st.st_mode | S_IXUSR | S_IXGRP | S_IXOTH);
  }
  for (const auto& t : temporaries) std::remove(t.c_str());
  return rc;
}

namespace {
// The interfaces this build has (generated cc_paths.h): name, include directory, archive.
std::map<std::string, Interface> built_interfaces() {
  return std::map<std::string, Interface>{HYBRIDSIM_CC_INTERFACES};
}
}  // namespace

Flavour Layout::flavour(const std::string& wrapper, const std::string& interface, bool cxx,
                        std::vector<std::string> launch) const {
  Flavour f;
  f.wrapper = wrapper;
  f.cxx = cxx;
  f.launch = std::move(launch);
  const auto it = interfaces.find(interface);
  if (it != interfaces.end()) {
    f.include_dirs = {it->second.include_dir};
    f.archives = {it->second.archive};
  }
  return f;
}

Layout this_layout() {
  Layout l;
  l.c_compiler = HYBRIDSIM_CC_C_COMPILER;
  l.cxx_compiler = HYBRIDSIM_CC_CXX_COMPILER;
  // Where this wrapper is.
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = ".";
  if (n > 0) {
    self[n] = '\0';
    dir = self;
    dir = dir.substr(0, dir.find_last_of('/'));
  }
  // Installed: bin/hybridsim-mpicc beside bin/hybridsim, the rest under the prefix's library
  // and include directories (cmake/install.cmake).
  const std::string lib = dir + "/../" + HYBRIDSIM_CC_INSTALL_LIBDIR + "/hybridsim/";
  const std::string installed = lib + "libhybridsim_program_runtime.a";
  struct stat st {};
  if (std::string(HYBRIDSIM_CC_BUILD_DIR) != dir && stat(installed.c_str(), &st) == 0) {
    l.user_include = dir + "/../" + HYBRIDSIM_CC_INSTALL_INCLUDEDIR + "/hybridsim/program";
    for (const auto& [name, parts] : built_interfaces()) {
      (void)parts;
      l.interfaces[name] = {l.user_include, lib + "libhybridsim_" + name + "_runtime.a"};
    }
    l.runtime_archive = installed;
    l.runtime_cxx_archive = lib + "libhybridsim_program_runtime_cxx.a";
    l.exec_entry_source = lib + "exec_entry.c";
    l.hybridsim = dir + "/hybridsim";
    return l;
  }
  l.user_include = HYBRIDSIM_CC_USER_INCLUDE;
  l.interfaces = built_interfaces();
  l.runtime_archive = HYBRIDSIM_CC_RUNTIME;
  l.runtime_cxx_archive = HYBRIDSIM_CC_RUNTIME_CXX;
  l.exec_entry_source = HYBRIDSIM_CC_EXEC_ENTRY;
  l.hybridsim = HYBRIDSIM_CC_HYBRIDSIM;
  return l;
}

}  // namespace hs::cc
