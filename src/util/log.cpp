#include "util/log.h"

#include "util/no_xfsz.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace lowertrace::util {

bool stderr_color() {
  const char *no = std::getenv("NO_COLOR");
  if (no && *no) return false;
  const char *force = std::getenv("FORCE_COLOR");
  if (force && *force && std::string_view(force) != "0") return true;
  return isatty(STDERR_FILENO) == 1;
}

namespace {
// TL_LOWER_TRACE_LOG=<file>: our lines are appended there instead of stderr.
// `lowertrace run` sets it for tools traced in process (clang and opt with the
// plugin, lowertrace-opt standing in for mlir-opt-22), so the tool's stderr
// holds exactly the tool's bytes; it shows the lines after the tool is done.
// O_APPEND: every process of one compile (clang's driver and its cc1 jobs)
// adds whole lines to the same file. A plain int: it must outlive every
// static destructor that still reports (the plugin finishes its session in one).
int log_fd() {
  static int fd = [] {
    const char *path = std::getenv("TL_LOWER_TRACE_LOG");
    if (!path || !*path) return -1;
    return ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  }();
  return fd;
}

bool emit_to_log(std::string_view s) {
  int fd = log_fd();
  if (fd < 0) return false;
  NoXfsz guard;
  const char *p = s.data();
  std::size_t left = s.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (errno == EFBIG) guard.hit();
      return true;  // lost, like a full stderr: never mixed into the tool's stderr
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}
}  // namespace

void emit(std::string_view s) {
  if (emit_to_log(s)) return;
  // One fwrite per line keeps lines whole when several threads report.
  NoXfsz guard;  // stderr may be a file under a size limit
  bool short_write = std::fwrite(s.data(), 1, s.size(), stderr) != s.size();
  if ((std::fflush(stderr) != 0 || short_write) && errno == EFBIG) {
    guard.hit();
    std::clearerr(stderr);  // our line hit the limit, not the tool's
  }
}

void info(std::string_view line) {
  std::string s(kPrefix);
  s.append(line);
  s.push_back('\n');
  emit(s);
}

void warn(std::string_view line) {
  bool c = stderr_color();
  std::string s(kPrefix);
  if (c) s += "\x1b[31m";
  s += "WARNING: ";
  s.append(line);
  if (c) s += "\x1b[0m";
  s.push_back('\n');
  emit(s);
}

}  // namespace lowertrace::util
