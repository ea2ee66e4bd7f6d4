// Shared helpers for the unit tests: temp dirs, env scopes, file reads.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <functional>
#include <sys/wait.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>

namespace lt_test {

// A fresh directory under $TMPDIR, removed at scope exit.
class TempDir {
public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lt_test_XXXXXX").string();
    char *p = ::mkdtemp(tmpl.data());
    path_ = p ? p : tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  const std::string &path() const { return path_; }
  std::string operator/(const std::string &rel) const { return path_ + "/" + rel; }

private:
  std::string path_;
};

// Sets (or unsets, with nullopt) an environment variable for a scope.
class EnvScope {
public:
  EnvScope(const char *name, std::optional<std::string> value) : name_(name) {
    if (const char *old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  ~EnvScope() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

inline std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Captures what the code under test writes to stderr.
class StderrCapture {
public:
  StderrCapture() {
    std::fflush(stderr);
    saved_ = ::dup(2);
    path_ = (std::filesystem::temp_directory_path() / ("lt_err_" + std::to_string(::getpid()))).string();
    int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 2);
    ::close(fd);
  }
  std::string finish() {
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    std::string s = slurp(path_);
    ::unlink(path_.c_str());
    return s;
  }

  const std::string &path() const { return path_; }

private:
  int saved_;
  std::string path_;
};

// Runs `body` in a forked child whose stderr is a pipe (so a file-size limit
// spares it) and returns how the child ended and what it wrote to stderr.
// The child _exits 0 after `body` unless `body` ends it first.
struct ChildResult {
  int status = 0;  // as waitpid() reports it
  std::string err;
};
inline ChildResult in_child(const std::function<void()> &body) {
  ChildResult r;
  int fds[2];
  if (::pipe(fds) != 0) return r;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::dup2(fds[1], 2);
    body();
    ::_exit(0);
  }
  ::close(fds[1]);
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) r.err.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  ::waitpid(pid, &r.status, 0);
  return r;
}

}  // namespace lt_test
