#include "tlm/trace/signal_trace.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tlm/common/errors.h"
#include "tlm/parallel/bytes.h"

extern char** environ;

namespace hs {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOption = "--vcd";
constexpr const char* kConverter = "vcd2fst";

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() > end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  const std::string dirs = path;
  size_t start = 0;
  for (;;) {
    const size_t colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? colon : colon - start);
    if (dir.empty()) dir = ".";
    if (access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) return false;
    start = colon + 1;
  }
}

// Runs vcd2fst; returns what went wrong (with what it printed), or nothing. It prints a
// line on success too, so its output is kept from the terminal either way.
std::string convert_to_fst(const std::string& vcd, const std::string& fst) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return std::strerror(errno);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> args = {kConverter, vcd, fst};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, kConverter, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  std::string printed;
  if (rc == 0) {
    char buf[4096];
    for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) != 0;) {
      if (n > 0) {
        printed.append(buf, static_cast<size_t>(n));
      } else if (errno != EINTR) {
        break;
      }
    }
  }
  close(pipe_fds[0]);
  if (rc != 0) return fmt::format("cannot run {}: {}", kConverter, std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  struct stat st {};
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && stat(fst.c_str(), &st) == 0 &&
      st.st_size > 0) {
    return "";
  }
  while (!printed.empty() && (printed.back() == '\n' || printed.back() == ' ')) printed.pop_back();
  return fmt::format("{} failed{}{}", kConverter, printed.empty() ? "" : ": ", printed);
}

// The component a signal belongs to, a group in the save file: for the model's signals its
// first two scopes (node0.acc0, torus.x0y0z0), for a part's the block it came from (the
// part's outermost scope: torus.x0y0z0.dma.inj_counters).
std::string group_of(const VcdSignal& s) {
  size_t keep = s.source == 0 ? 2 : 0;
  if (s.source != 0) {
    size_t parts = 1;
    for (char c : s.scope) parts += c == '.' ? 1 : 0;
    const size_t inner = static_cast<size_t>(std::max(s.depth - 1, 0));
    keep = parts > inner ? parts - inner : parts;
  }
  size_t end = 0;
  for (size_t i = 0; i < keep && end != std::string::npos; ++i) {
    end = s.scope.find('.', i == 0 ? 0 : end + 1);
  }
  return end == std::string::npos ? s.scope : s.scope.substr(0, end);
}

}  // namespace

SignalTrace& SignalTrace::instance() {
  static SignalTrace trace;
  return trace;
}

SignalTrace::~SignalTrace() {
  abandon();
}

void SignalTrace::open(const std::string& path) {
  abandon();
  fst_ = ends_with(path, ".fst");
  if (!fst_ && !ends_with(path, ".vcd")) {
    throw InputError(
        fmt::format("{}: file name must end in .vcd or .fst, got '{}'", kOption, path));
  }
  if (fst_ && !on_path(kConverter)) {
    throw InputError(fmt::format(
        "{}: writing '{}' needs {} (Debian package gtkwave), which is not on PATH; install it "
        "or write a .vcd file",
        kOption, path, kConverter));
  }
  output_ = std::make_unique<PendingOutput>(kOption, path, fst_ ? ".fst" : ".vcd");
  // Intermediate files go beside the destination (same file system, same permissions), or,
  // for a device written in place, to the temporary directory.
  scratch_base_ =
      output_->direct() ? (fs::temp_directory_path() / "hybridsim-wave").string() : path;
  kernel_vcd_ = std::make_unique<PendingOutput>(kOption, scratch_base_, ".sc.vcd");
  // The kernel appends ".vcd" to the name it is given, and opens the file only when the
  // simulation starts: until then nothing exists on disk.
  std::string base = kernel_vcd_->write_path();
  base.resize(base.size() - 4);
  path_ = path;
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);
}

void SignalTrace::hide(const std::string& scope) {
  hidden_.insert(scope);
}

bool SignalTrace::traces(const std::string& name) const {
  if (!file_) return false;
  if (hidden_.empty()) return true;
  for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    if (hidden_.count(name.substr(0, dot))) return false;
  }
  return hidden_.count(name) == 0;
}

std::string SignalTrace::add_part(std::function<void()> finish, int shown_depth) {
  Part p{std::make_unique<PendingOutput>(kOption, scratch_base_, ".rtl.vcd"), std::move(finish),
         shown_depth};
  parts_.push_back(std::move(p));
  return parts_.back().file->write_path();
}

void SignalTrace::part_finished(const std::string& file) {
  for (auto& p : parts_) {
    if (p.file->write_path() == file) p.finished = true;
  }
}

void SignalTrace::finish_parts() {
  for (auto& p : parts_) {
    if (!p.finished) {
      p.finished = true;
      p.finish();
    }
  }
}

void SignalTrace::close_kernel_file() {
  if (!file_) return;
  sc_core::sc_close_vcd_trace_file(file_);
  file_ = nullptr;
}

void SignalTrace::close() {
  if (!output_) return;
  // The kernel's writer keeps its stream to itself, so its write errors cannot be seen here;
  // an output it never managed to create is. (Choices of what to trace stay until the next
  // open(): nothing is traced meanwhile.)
  close_kernel_file();
  finish_parts();
  const auto output = std::move(output_);
  const auto kernel_vcd = std::move(kernel_vcd_);
  const auto parts = std::move(parts_);
  struct stat st {};
  if (stat(kernel_vcd->write_path().c_str(), &st) != 0) output->fail("the file was never written");
  const bool partitioned = !partition_files_.empty();
  std::vector<VcdSource> sources = {{kernel_vcd->write_path(), "SystemC", partitioned}};
  for (const auto& f : partition_files_) sources.push_back({f, "SystemC", true});
  std::vector<int> shown_depth(sources.size(), 0);  // by source
  for (const auto& p : parts) {
    sources.push_back({p.file->write_path(), ""});
    shown_depth.push_back(p.shown_depth);
  }
  for (const auto& [file, depth] : partition_parts_) {
    sources.push_back({file, ""});
    shown_depth.push_back(depth);
  }
  std::unique_ptr<PendingOutput> merged;
  if (fst_) merged = std::make_unique<PendingOutput>(kOption, scratch_base_, ".vcd");
  std::vector<VcdSignal> signals;
  try {
    signals = merge_vcd(sources, fst_ ? merged->write_path() : output->write_path());
  } catch (const std::runtime_error& e) {
    output->fail(e.what());
  }
  if (fst_) {
    const std::string why = convert_to_fst(merged->write_path(), output->write_path());
    if (!why.empty()) output->fail(why);
  }
  output->commit();
  if (output->direct()) return;
  // The save file lists every signal traced through the kernel, and of the parts' signals
  // those near the top (a block's pins) that moved; the rest stay in the tree.
  std::vector<const VcdSignal*> shown;
  for (const auto& s : signals) {
    if (s.source == 0 || (s.changes && s.depth <= shown_depth[s.source])) {
      shown.push_back(&s);
    }
  }
  write_side_files(shown);
}

void SignalTrace::write_side_files(const std::vector<const VcdSignal*>& signals) {
  const fs::path dump = fs::absolute(path_);
  const std::string stem = ends_with(path_, ".fst") || ends_with(path_, ".vcd")
                               ? path_.substr(0, path_.size() - 4)
                               : path_;
  std::map<std::string, std::string> filter_files;  // enum name -> its file
  std::vector<SavedSignal> saved;
  for (const VcdSignal* sig : signals) {
    const VcdSignal& s = *sig;
    SavedSignal out;
    out.name = s.name;
    out.group = group_of(s);
    out.width = s.width;
    out.real = s.type == "real";
    out.hex = s.source > 0;  // RTL buses read best in hexadecimal; the model's counts do not
    // The enum's signal was registered under its name without the range.
    const auto bracket = s.name.find('[');
    const auto e = enums_.find(s.name.substr(0, bracket));
    if (e != enums_.end()) {
      auto& file = filter_files[e->second->name];
      if (file.empty()) {
        file = stem + "." + e->second->name + ".txt";
        write_output_file(kOption, file, translate_file_text(*e->second));
      }
      out.filter = fs::absolute(file).string();
    }
    saved.push_back(std::move(out));
  }
  const std::string save = stem + ".gtkw";
  write_output_file(kOption, save,
                    gtkwave_save_text(dump.string(), fs::absolute(save).string(), saved));
}

void SignalTrace::abandon() {
  close_kernel_file();
  finish_parts();
  parts_.clear();
  kernel_vcd_.reset();
  output_.reset();
  hidden_.clear();
  enums_.clear();
  partition_files_.clear();
  partition_parts_.clear();
  scratch_.clear();
  partition_enums_.clear();
}

void SignalTrace::open_partition() {
  abandon();
  // Its own name in the temporary directory: partitions may share a file system.
  scratch_base_ = (fs::temp_directory_path() / fmt::format("hybridsim-wave-{}", getpid())).string();
  kernel_vcd_ = std::make_unique<PendingOutput>(kOption, scratch_base_, ".sc.vcd");
  std::string base = kernel_vcd_->write_path();
  base.resize(base.size() - 4);
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);
}

namespace {
std::string whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read '{}'", kOption, path));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
}  // namespace

std::vector<uint8_t> SignalTrace::take_partition() {
  ByteWriter w;
  if (!kernel_vcd_) return w.take();
  close_kernel_file();
  finish_parts();
  w.put_string(whole_file(kernel_vcd_->write_path()));
  w.put<uint64_t>(parts_.size());
  for (const auto& p : parts_) {
    w.put<int32_t>(p.shown_depth);
    w.put_string(whole_file(p.file->write_path()));
  }
  w.put<uint64_t>(enums_.size());
  for (const auto& [signal, e] : enums_) {
    w.put_string(signal);
    w.put_string(e->name);
    w.put<uint64_t>(e->values.size());
    for (const auto& [value, name] : e->values) {
      w.put<int64_t>(value);
      w.put_string(name);
    }
  }
  abandon();
  return w.take();
}

std::string SignalTrace::scratch(const std::string& suffix, const std::string& text) {
  scratch_.push_back(std::make_unique<PendingOutput>(kOption, scratch_base_, suffix));
  const std::string& path = scratch_.back()->write_path();
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) output_->fail(fmt::format("cannot write '{}'", path));
  return path;
}

void SignalTrace::add_partitions(const std::vector<std::vector<uint8_t>>& others) {
  if (!output_) return;
  for (size_t p = 0; p < others.size(); ++p) {
    ByteReader r(others[p]);
    partition_files_.push_back(scratch(fmt::format(".p{}.sc.vcd", p + 1), r.get_string()));
    const auto parts = r.get<uint64_t>();
    for (uint64_t i = 0; i < parts; ++i) {
      const int depth = r.get<int32_t>();
      partition_parts_.emplace_back(scratch(fmt::format(".p{}.rtl.vcd", p + 1), r.get_string()),
                                    depth);
    }
    const auto enums = r.get<uint64_t>();
    for (uint64_t i = 0; i < enums; ++i) {
      const std::string signal = r.get_string();
      WaveEnum e;
      e.name = r.get_string();
      const auto values = r.get<uint64_t>();
      for (uint64_t v = 0; v < values; ++v) {
        const auto value = r.get<int64_t>();
        e.values.emplace_back(value, r.get_string());
      }
      if (enums_.count(signal)) continue;
      partition_enums_.push_back(std::move(e));
      enums_[signal] = &partition_enums_.back();
    }
  }
}

}  // namespace hs
