// Starting and waiting for the command of `lowertrace run`, and ending the
// way it ended.
#pragma once

#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace lowertrace::cli::run {

using Env = std::vector<std::pair<std::string, std::string>>;

// Forks and executes argv with `env` added: `exe` when given (argv[0] stays
// the user's name for the program), else argv[0] through PATH. stderr_fd >= 0
// becomes the command's stderr (the other end of a pipe); -1 leaves it ours.
// Returns the pid, or -1 (a warning was given).
pid_t start(const std::string &exe, const std::vector<std::string> &argv, const Env &env, int stderr_fd,
            int close_in_child);

// While it lives, SIGINT and SIGTERM are ignored here: Ctrl-C reaches the
// command (same process group), and we stay to write the trace. Made after
// start(): the command must not inherit the ignored dispositions.
class StayForTrace {
public:
  StayForTrace();
  ~StayForTrace();
  StayForTrace(const StayForTrace &) = delete;
  StayForTrace &operator=(const StayForTrace &) = delete;

private:
  void (*old_int_)(int);
  void (*old_term_)(int);
};

// Waits for `pid`; returns its wait status.
int wait_for(pid_t pid);

// The exit code a shell would show for `status` (128 + signal for a signal).
int exit_code(int status);

// Ends this process as the command ended: a command killed by a signal
// kills us with the same signal (after the trace is written), so a parent
// sees exactly what it would have seen; otherwise returns its exit code.
int end_like(int status);

}  // namespace lowertrace::cli::run
