#include "util/log.h"

#include "util/no_xfsz.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
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

void emit(std::string_view s) {
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
