#include "run_spawn.h"

#include "util/log.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace lowertrace::cli::run {

pid_t start(const std::string &exe, const std::vector<std::string> &argv, const Env &env, int stderr_fd,
            int close_in_child) {
  std::vector<char *> av;
  for (const auto &s : argv) av.push_back(const_cast<char *>(s.c_str()));
  av.push_back(nullptr);
  std::fflush(nullptr);  // nothing buffered here is written twice
  pid_t pid = fork();
  if (pid < 0) {
    util::warn(std::string("run: fork failed: ") + std::strerror(errno));
    return -1;
  }
  if (pid == 0) {
    if (stderr_fd >= 0) {
      dup2(stderr_fd, STDERR_FILENO);
      close(stderr_fd);
    }
    if (close_in_child >= 0) close(close_in_child);
    for (const auto &[n, v] : env) setenv(n.c_str(), v.c_str(), 1);
    if (exe.empty()) execvp(av[0], av.data());
    else execv(exe.c_str(), av.data());
    std::string msg = std::string(util::kPrefix) + "cannot run " + (exe.empty() ? argv[0] : exe) + ": " +
                      std::strerror(errno) + "\n";
    ssize_t ignored = write(STDERR_FILENO, msg.data(), msg.size());
    (void)ignored;
    _exit(127);
  }
  return pid;
}

StayForTrace::StayForTrace() : old_int_(std::signal(SIGINT, SIG_IGN)), old_term_(std::signal(SIGTERM, SIG_IGN)) {}

StayForTrace::~StayForTrace() {
  std::signal(SIGINT, old_int_);
  std::signal(SIGTERM, old_term_);
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

int end_like(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    std::fflush(nullptr);
    std::signal(sig, SIG_DFL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    sigprocmask(SIG_UNBLOCK, &s, nullptr);
    raise(sig);
  }
  return exit_code(status);
}

}  // namespace lowertrace::cli::run
