#include "tlm/common/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "tlm/common/errors.h"

namespace hs {

namespace fs = std::filesystem;

namespace {

std::string cannot_write(const std::string& option, const std::string& path,
                         const std::string& why) {
  return fmt::format("{}: cannot write '{}': {}", option, path, why);
}

// Where a write through `path` lands: a symbolic link is followed, so the link stays.
std::string resolved(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

// A name beside `target` that nothing uses yet: hidden, and unique to this process.
std::string temporary_name(const std::string& target, const std::string& suffix, int attempt) {
  static std::atomic<unsigned> counter{0};
  const fs::path p(target);
  return (p.parent_path() / fmt::format(".{}.tmp-{}-{}-{}{}", p.filename().string(), getpid(),
                                        counter++, attempt, suffix))
      .string();
}

}  // namespace

void check_output_path(const std::string& option, const std::string& path) {
  if (path.empty()) throw InputError(fmt::format("{}: the file name is empty", option));
  if (path == kStandardOutput) return;
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw InputError(cannot_write(option, path, "it is a directory"));
    if (!S_ISREG(st.st_mode)) {  // a device or pipe: written in place
      if (access(path.c_str(), W_OK) != 0) {
        throw InputError(cannot_write(option, path, std::strerror(errno)));
      }
      return;
    }
  }
  fs::path dir = fs::path(resolved(path)).parent_path();
  if (dir.empty()) dir = ".";
  if (stat(dir.c_str(), &st) != 0) {
    throw InputError(cannot_write(option, path, std::strerror(errno)));
  }
  if (!S_ISDIR(st.st_mode)) {
    throw InputError(cannot_write(option, path, dir.string() + " is not a directory"));
  }
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    throw InputError(cannot_write(option, path, std::strerror(errno)));
  }
}

PendingOutput::PendingOutput(std::string option, std::string path, const std::string& suffix)
    : option_(std::move(option)), path_(std::move(path)) {
  check_output_path(option_, path_);
  const std::string target = resolved(path_);
  struct stat st {};
  direct_ = path_ == kStandardOutput || (stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode));
  if (direct_) {
    write_path_ = target;
    return;
  }
  for (int attempt = 0;; ++attempt) {
    write_path_ = temporary_name(target, suffix, attempt);
    if (lstat(write_path_.c_str(), &st) != 0) break;
  }
}

PendingOutput::~PendingOutput() {
  abandon();
}

void PendingOutput::abandon() {
  if (done_) return;
  done_ = true;
  if (!direct_) unlink(write_path_.c_str());
}

void PendingOutput::fail(const std::string& why) {
  abandon();
  throw InputError(cannot_write(option_, path_, why));
}

void PendingOutput::commit() {
  if (done_) return;
  if (direct_) {
    done_ = true;
    return;
  }
  const std::string target = resolved(path_);
  struct stat st {};
  if (lstat(write_path_.c_str(), &st) != 0) fail("the file was never written");
  // A file replaced keeps its permissions; a new one gets the usual (0666 less the umask).
  if (stat(target.c_str(), &st) == 0) chmod(write_path_.c_str(), st.st_mode & 07777);
  if (std::rename(write_path_.c_str(), target.c_str()) != 0) fail(std::strerror(errno));
  done_ = true;
}

OutputFile::OutputFile(const std::string& option, const std::string& path)
    : target_(option, path, "") {
  const int flags = O_WRONLY | O_CLOEXEC | (target_.direct() ? O_TRUNC : O_CREAT | O_EXCL);
  int fd = -1;
  if (path == kStandardOutput) {
    // After what the process printed so far, and never truncating what stdout was sent to.
    std::fflush(stdout);
    fd = dup(STDOUT_FILENO);
  } else {
    fd = open(target_.write_path().c_str(), flags, 0666);
  }
  if (fd < 0) target_.fail(std::strerror(errno));
  file_ = fdopen(fd, "w");
  if (!file_) {
    const int err = errno;
    close(fd);
    target_.fail(std::strerror(err));
  }
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
}

void OutputFile::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() && first_error_ == 0) {
    first_error_ = errno ? errno : EIO;
  }
}

void OutputFile::commit() {
  if (!file_) return;
  errno = 0;
  const bool flushed = std::fflush(file_) == 0 && !std::ferror(file_) && first_error_ == 0;
  std::string why = flushed        ? ""
                    : first_error_ ? std::strerror(first_error_)
                    : errno        ? std::strerror(errno)
                                   : "a write failed";
  if (std::fclose(file_) != 0 && why.empty()) why = std::strerror(errno);
  file_ = nullptr;
  if (!why.empty()) target_.fail(why);
  target_.commit();
}

void write_output_file(const std::string& option, const std::string& path,
                       const std::string& text) {
  OutputFile out(option, path);
  out.write(text);
  out.commit();
}

}  // namespace hs
