#include "run_python.h"

#include "util/log.h"

#include <fmt/format.h>

#include <cerrno>
#include <fcntl.h>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace lowertrace::cli {
namespace {

namespace fs = std::filesystem;

// Forks, execs `argv` (with `env` added) and waits; 128+signal for a signal.
int spawn(const std::vector<std::string> &cmd, const std::vector<std::pair<std::string, std::string>> &env,
          bool quiet) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    for (const auto &[n, v] : env) setenv(n.c_str(), v.c_str(), 1);
    if (quiet) {
      int null = open("/dev/null", O_WRONLY);
      if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
      }
    }
    std::vector<char *> av;
    for (const auto &s : cmd) av.push_back(const_cast<char *>(s.c_str()));
    av.push_back(nullptr);
    execvp(av[0], av.data());
    if (!quiet)
      std::fprintf(stderr, "%scannot run %s: %s\n", std::string(util::kPrefix).c_str(), av[0], std::strerror(errno));
    _exit(127);
  }
  // Ctrl-C reaches the program (same process group); we only wait for it.
  auto old_int = std::signal(SIGINT, SIG_IGN);
  auto old_term = std::signal(SIGTERM, SIG_IGN);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// liblowertrace_c.so beside this binary (build tree: bin/../lib).
std::string library_beside_binary() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  fs::path lib = self.parent_path().parent_path() / "lib" / "liblowertrace_c.so";
  return fs::exists(lib, ec) ? lib.string() : std::string();
}

}  // namespace

bool python_package_available(const std::vector<std::string> &cmd) {
  std::string base = fs::path(cmd[0]).filename().string();
  if (base.rfind("python", 0) != 0) return true;  // a launcher script: its python is not ours to probe
  return spawn({cmd[0], "-c", "import _lowertrace_boot"}, {}, true) == 0;
}

int run_python(const std::vector<std::string> &cmd, const Config &cfg) {
  std::vector<std::pair<std::string, std::string>> env = {
      {"TL_LOWER_TRACE", std::string(to_string(cfg.mode))}, {"TL_LOWER_TRACE_DIR", cfg.trace_dir}};
  if (!std::getenv("LOWERTRACE_LIB"))
    if (std::string lib = library_beside_binary(); !lib.empty()) env.push_back({"LOWERTRACE_LIB", lib});
  int rc = spawn(cmd, env, false);
  if (rc < 0) {
    util::warn(std::string("run: fork failed: ") + std::strerror(errno));
    return 2;
  }
  util::info(fmt::format("run: Triton kernels traced in {} (each kernel's index.html lists its variants)",
                         cfg.trace_dir));
  return rc;
}

}  // namespace lowertrace::cli
