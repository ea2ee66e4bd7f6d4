#include "run_inprocess.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace lowertrace::cli::run {
namespace fs = std::filesystem;

std::string beside_self(std::initializer_list<std::string_view> relative) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (std::string_view r : relative) {
    fs::path p = (self.parent_path() / r).lexically_normal();
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return "";
}

std::string resolve_program(const std::string &name) {
  std::error_code ec;
  auto canonical = [&](const fs::path &p) -> std::string {
    if (access(p.c_str(), X_OK) != 0 || !fs::is_regular_file(p, ec)) return "";
    fs::path c = fs::canonical(p, ec);
    return ec ? "" : c.string();
  };
  if (name.find('/') != std::string::npos) return canonical(name);
  const char *path = std::getenv("PATH");
  std::string_view rest = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    std::size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (std::string r = canonical(fs::path(dir.empty() ? "." : std::string(dir)) / name); !r.empty()) return r;
    if (colon == std::string_view::npos) return "";
    rest.remove_prefix(colon + 1);
  }
}

std::vector<std::string> with_flags(const std::vector<std::string> &cmd, const std::vector<std::string> &flags) {
  std::vector<std::string> out;
  out.reserve(cmd.size() + flags.size());
  std::size_t at = 1;
  if (cmd.size() > 1 && cmd[1] == "-cc1") at = 2;  // cc1 must stay first
  out.insert(out.end(), cmd.begin(), cmd.begin() + std::min(at, cmd.size()));
  out.insert(out.end(), flags.begin(), flags.end());
  if (at < cmd.size()) out.insert(out.end(), cmd.begin() + at, cmd.end());
  return out;
}

bool is_clang_driver(std::string_view base) {
  if (base.rfind("clang", 0) != 0) return false;
  base.remove_prefix(5);
  if (base.rfind("++", 0) == 0) base.remove_prefix(2);
  if (base.empty()) return true;
  if (base[0] != '-' || base.size() < 2) return false;
  for (char c : base.substr(1))
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return false;
  return true;
}

std::optional<InProcess> plugin_plan(const std::vector<std::string> &cmd, bool clang) {
  // Build tree: build/bin/lowertrace, build/lib/liblowertrace-llvm.so; an
  // install: <prefix>/bin and <prefix>/<libdir> (GNUInstallDirs: lib, or
  // lib/x86_64-linux-gnu under /usr on Debian).
  std::string so = beside_self({"../lib/liblowertrace-llvm.so", "../" LT_INSTALL_LIBDIR "/liblowertrace-llvm.so",
                                "liblowertrace-llvm.so"});
  if (so.empty()) return std::nullopt;
  if (clang && cmd.size() > 1 && cmd[1] == "-cc1as") return std::nullopt;  // the assembler runs no passes
  InProcess p;
  // clang -### prints the jobs it would run and runs none: an added flag
  // would only show up in what it prints.
  bool dry = clang && std::find(cmd.begin(), cmd.end(), "-###") != cmd.end();
  p.argv = dry ? cmd : with_flags(cmd, {clang ? "-fpass-plugin=" + so : "-load-pass-plugin=" + so});
  return p;
}

std::optional<InProcess> mlir_opt_plan(const std::vector<std::string> &cmd) {
#ifdef LT_MLIR_OPT_PATH
  std::error_code ec;
  fs::path debian = fs::canonical(LT_MLIR_OPT_PATH, ec);
  if (ec || resolve_program(cmd[0]) != debian.string()) return std::nullopt;
  std::string lo = beside_self({"lowertrace-opt"});
  if (lo.empty()) return std::nullopt;
  InProcess p;
  p.exe = lo;
  p.argv = cmd;  // argv[0] as the user typed it: mlir-opt's messages name it
  return p;
#else
  (void)cmd;
  return std::nullopt;
#endif
}

}  // namespace lowertrace::cli::run
