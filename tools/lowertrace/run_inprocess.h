// How `lowertrace run` traces a compiler in its own process instead of
// reading dumps off its stderr: clang and opt load our LLVM pass plugin, and
// Debian's mlir-opt-22 is replaced by lowertrace-opt (mlir-opt's own driver on
// the same MLIR libraries, traced). The tool then writes its stdout and stderr
// itself, untouched; the trace is configured through the environment the
// plugin and lowertrace-opt read (TL_LOWER_TRACE, TL_LOWER_TRACE_DIR,
// TL_LOWER_TRACE_LOG for lowertrace's own lines).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::cli::run {

// A file shipped with lowertrace, looked up from the running executable's
// folder: the build tree (bin/, lib/) and an install prefix (bin/, lib/) alike.
// Returns "" when none of the relative paths exists.
std::string beside_self(std::initializer_list<std::string_view> relative);

// `name` as execvp would find it (through PATH unless it has a '/'), with
// symlinks resolved; "" when not found.
std::string resolve_program(const std::string &name);

// The command with `flags` inserted right after the program (and after a
// clang "-cc1"), so a "--" or input list later in the command is untouched.
std::vector<std::string> with_flags(const std::vector<std::string> &cmd, const std::vector<std::string> &flags);

struct InProcess {
  std::string exe;                // what to execute ("" = cmd[0] through PATH)
  std::vector<std::string> argv;  // argv[0] is the user's cmd[0]
};

// clang/clang++ (-fpass-plugin=) and opt (-load-pass-plugin=) with our plugin;
// nullopt when the plugin is not installed next to us.
std::optional<InProcess> plugin_plan(const std::vector<std::string> &cmd, bool clang);

// Debian's mlir-opt-22 (the mlir-opt lowertrace-opt is built against, by
// resolved path) runs as lowertrace-opt; nullopt for any other tool.
std::optional<InProcess> mlir_opt_plan(const std::vector<std::string> &cmd);

// clang, clang++, clang-22, clang++-22 (not clang-format, clang-tidy, ...).
bool is_clang_driver(std::string_view base);

}  // namespace lowertrace::cli::run
