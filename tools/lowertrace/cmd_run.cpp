// `lowertrace run -- <command...>`: zero-intrusion tracing. The command runs
// unchanged except for the dump switches its compiler already has (Triton's
// environment variables, mlir-opt's --mlir-print-ir-*, opt/clang's
// -print-after-all); the dumps are then imported into the usual trace.
// The command's stdout, its stderr minus the dump text and its exit status
// stay its own.
#include "capture/dump/splitter.h"
#include "command.h"
#include "run_python.h"
#include "lowertrace/config.h"
#include "lowertrace/dump.h"
#include "util/fs.h"
#include "util/log.h"

#include <fmt/format.h>

#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace lowertrace;

constexpr const char *kUsage =
    "usage: lowertrace run [--mode html|terminal|both] [--dir TRACE_DIR] [--keep]\n"
    "                      [--as triton|triton-dumps|mlir|llvm|clang] -- <command> [args...]\n"
    "\n"
    "Runs the command with its compiler's IR dumps switched on and imports them:\n"
    "  python (Triton)   with the Python package installed: TL_LOWER_TRACE=<mode> and\n"
    "                    TL_LOWER_TRACE_DIR, as `TL_LOWER_TRACE=1 python ...` (one run per\n"
    "                    compiled variant, workers and threads included); without it, or\n"
    "                    with --as triton-dumps: MLIR_ENABLE_DUMP=1 MLIR_DUMP_PATH LLVM_IR_ENABLE_DUMP=1\n"
    "                    TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR TRITON_ALWAYS_COMPILE=1\n"
    "                    (one run per kernel, ttir -> ttgir -> llir -> LLVM -> MIR -> PTX)\n"
    "  *mlir*-opt, *-opt --mlir-print-ir-before-all --mlir-print-ir-after-all\n"
    "                    --mlir-disable-threading\n"
    "  opt, llc          -print-after-all\n"
    "  clang, clang++    -mllvm -print-after-all\n"
    "  --as              choose the kind instead of guessing it from the command\n"
    "  --keep            keep the capture folder (re-import it with `lowertrace import DIR`)\n"
    "Edited PTX working copies (codegen.<kernel>.ptx) are injected into the next\n"
    "Triton run through TRITON_KERNEL_OVERRIDE.\n";

enum class Kind { Triton, Mlir, Llvm, Clang };

Kind guess_kind(const std::vector<std::string> &cmd) {
  std::string base = fs::path(cmd[0]).filename().string();
  if (base.rfind("python", 0) == 0) return Kind::Triton;
  if (base.rfind("clang", 0) == 0) return Kind::Clang;
  if (base == "opt" || base.rfind("opt-", 0) == 0 || base == "llc" || base.rfind("llc-", 0) == 0) return Kind::Llvm;
  if (base.find("mlir") != std::string::npos || base.ends_with("-opt") ||
      (base.find("-opt-") != std::string::npos))
    return Kind::Mlir;
  for (const auto &a : cmd)
    if (a.ends_with(".py")) return Kind::Triton;
  return Kind::Triton;  // the environment switches harm nothing else
}

// Lines of an LLVM/MIR dump body; anything else ends the dump (the tool's
// own stderr, a Python traceback).
bool looks_like_llvm_ir(std::string_view l) {
  if (l.empty()) return true;
  if (l.rfind("  File \"", 0) == 0) return false;
  char c = l[0];
  if (c == ' ' || c == '\t' || c == ';' || c == '#' || c == '!' || c == '}' || c == '{' || c == '%' ||
      c == '@' || c == '$' || c == '^')
    return true;
  for (std::string_view p : {"define ", "declare ", "attributes ", "source_filename", "target ", "uselistorder",
                             "bb.", "Function Live Ins", "Frame Objects", "Constant Pool", "Jump Tables",
                             "fi#", "cp#", "module asm", "Machine Function"})
    if (l.rfind(p, 0) == 0) return true;
  // MIR after slot indexes: "16B\t  %3:b64 = ...".
  std::size_t d = 0;
  while (d < l.size() && std::isdigit(static_cast<unsigned char>(l[d]))) ++d;
  if (d > 0 && d + 1 < l.size() && l[d] == 'B' && (l[d + 1] == '\t' || l[d + 1] == ' ')) return true;
  // A basic-block label: "for.body:" / "12:" (possibly followed by "; preds").
  std::size_t colon = l.find(':');
  if (colon != std::string_view::npos && colon > 0 && l.substr(0, colon).find(' ') == std::string_view::npos)
    return true;
  return false;
}

// Separates the dump text in a live stderr from the tool's own lines.
class StderrSplitter {
public:
  StderrSplitter(FILE *dump_out, bool drop_chatter) : out_(dump_out), drop_chatter_(drop_chatter) {}
  void feed(std::string_view bytes) {
    while (!bytes.empty()) {
      std::size_t nl = bytes.find('\n');
      if (nl == std::string_view::npos) {
        partial_.append(bytes);
        return;
      }
      partial_.append(bytes.substr(0, nl + 1));
      line(partial_);
      partial_.clear();
      bytes.remove_prefix(nl + 1);
    }
  }
  void finish() {
    if (!partial_.empty()) line(partial_);
    partial_.clear();
  }
  std::uint64_t dump_bytes = 0;

private:
  void line(const std::string &with_nl) {
    std::string_view l(with_nl);
    if (l.ends_with('\n')) l.remove_suffix(1);
    auto to_dump = [&] {
      std::fwrite(with_nl.data(), 1, with_nl.size(), out_);
      if (!with_nl.ends_with('\n')) std::fputc('\n', out_);
      dump_bytes += with_nl.size();
    };
    auto to_tool = [&] {
      std::fwrite(with_nl.data(), 1, with_nl.size(), stderr);
      std::fflush(stderr);
    };
    if (dump::is_banner_line(l)) {
      in_dump_ = true;
      mlir_ = l.rfind("// ", 0) == 0;
      to_dump();
      return;
    }
    if (drop_chatter_ && dump::is_pass_manager_chatter(l)) return;  // printed because we asked for dumps
    if (dump::is_diagnostic_line(l)) {
      to_tool();
      to_dump();  // the importer attaches it to the failing pass
      return;
    }
    if (in_dump_ && (mlir_ || looks_like_llvm_ir(l))) {
      to_dump();
      return;
    }
    in_dump_ = false;
    to_tool();
  }

  FILE *out_;
  bool drop_chatter_;
  std::string partial_;
  bool in_dump_ = false, mlir_ = false;
};

std::string rstrip(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

struct Injected {
  std::string kernel, hash, baseline;  // baseline: the PTX Triton generated before the edit
};

// Edited PTX working copies from earlier runs go where TRITON_OVERRIDE_DIR
// reads them: <override>/<hash>/<kernel>.ptx. The hash folder name of each
// kernel's last compile is kept in <trace_dir>/<kernel>/.triton_hash.
std::vector<Injected> place_overrides(const Config &cfg, const std::string &override_dir) {
  std::vector<Injected> out;
  std::error_code ec;
  if (!fs::is_directory(cfg.trace_dir, ec)) return out;
  for (const auto &d : fs::directory_iterator(cfg.trace_dir, ec)) {
    auto hash = util::read_file((d.path() / ".triton_hash").string());
    auto kernel = util::read_file((d.path() / ".triton_kernel").string());
    if (!hash || !kernel) continue;
    std::string k = rstrip(*kernel), h = rstrip(*hash);
    fs::path w = d.path() / ("codegen." + util::sanitize_component(k) + ".ptx");
    auto wc = util::read_file(w.string());
    auto orig = util::read_file(w.string() + ".original");
    if (!wc || !orig || rstrip(*wc) == rstrip(*orig)) continue;
    fs::path dst = fs::path(override_dir) / h / (k + ".ptx");
    if (!util::make_dirs(dst.parent_path().string()).empty() || !util::write_file(dst.string(), *wc).empty()) {
      util::warn("run: could not stage the edited PTX " + w.string());
      continue;
    }
    util::info(fmt::format("run: injecting your edited PTX {} for kernel {} (TRITON_KERNEL_OVERRIDE)", w.string(), k));
    out.push_back({k, h, *orig});
  }
  return out;
}

int run_run(int argc, char **argv) {
  std::string mode_s, dir, as;
  bool keep = false;
  int k = 1;
  for (; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--") {
      ++k;
      break;
    }
    auto value = [&]() -> std::optional<std::string> {
      if (auto eq = a.find('='); eq != std::string::npos) return a.substr(eq + 1);
      if (k + 1 >= argc) return std::nullopt;
      return std::string(argv[++k]);
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--keep") keep = true;
    else if (a.rfind("--mode", 0) == 0) mode_s = value().value_or("");
    else if (a.rfind("--dir", 0) == 0) dir = value().value_or("");
    else if (a.rfind("--as", 0) == 0) as = value().value_or("");
    else {
      util::info("run: unknown option " + a + " (the command goes after --)");
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  std::vector<std::string> cmd(argv + k, argv + argc);
  if (cmd.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  Config cfg = current_config();
  if (!mode_s.empty()) {
    bool unknown = false;
    cfg.mode = parse_mode(mode_s, &unknown);
    if (unknown || cfg.mode == Mode::Off) {
      util::info("run: --mode takes html, terminal or both");
      return 2;
    }
  } else if (!cfg.enabled()) {
    cfg.mode = Mode::Html;
  }
  if (!dir.empty()) cfg.trace_dir = dir;

  Kind kind = as == "triton" || as == "triton-dumps" ? Kind::Triton : as == "mlir" ? Kind::Mlir : as == "llvm" ? Kind::Llvm
              : as == "clang" ? Kind::Clang : guess_kind(cmd);
  // Python: the package's start-up hook traces each compile in process.
  if (kind == Kind::Triton && as != "triton-dumps") {
    if (cli::python_package_available(cmd)) return cli::run_python(cmd, cfg);
    util::info("run: the lowertrace Python package is not installed for " + cmd[0] +
               " (pip install <lowertrace>/python gives one trace per kernel variant); using Triton's dump switches");
  }
  char tmpl[] = "/tmp/lowertrace-run-XXXXXX";
  if (!mkdtemp(tmpl)) {
    util::warn(std::string("run: cannot create a capture folder: ") + std::strerror(errno));
    return 2;
  }
  std::string cap = tmpl;
  util::write_file(cap + "/lowertrace-run", "capture folder of `lowertrace run`\n");
  std::string mlir_dump = cap + "/mlir_dump.txt", stage_dir = cap + "/triton_dump";
  std::vector<Injected> injected;
  std::vector<std::pair<std::string, std::string>> env;
  if (kind == Kind::Triton) {
    env = {{"MLIR_ENABLE_DUMP", "1"},      {"MLIR_DUMP_PATH", mlir_dump}, {"LLVM_IR_ENABLE_DUMP", "1"},
           {"TRITON_KERNEL_DUMP", "1"},    {"TRITON_DUMP_DIR", stage_dir}, {"TRITON_ALWAYS_COMPILE", "1"}};
    util::info("run: Triton prints no dumps on a cache hit, so TRITON_ALWAYS_COMPILE=1 recompiles every kernel");
    injected = place_overrides(cfg, cap + "/override");
    if (!injected.empty()) {
      env.push_back({"TRITON_KERNEL_OVERRIDE", "1"});
      env.push_back({"TRITON_OVERRIDE_DIR", cap + "/override"});
    }
  } else if (kind == Kind::Mlir) {
    for (const char *f : {"--mlir-print-ir-before-all", "--mlir-print-ir-after-all", "--mlir-disable-threading"})
      cmd.push_back(f);
  } else if (kind == Kind::Llvm) {
    cmd.push_back("-print-after-all");
  } else {
    cmd.push_back("-mllvm");
    cmd.push_back("-print-after-all");
  }

  std::string stderr_dump = cap + "/stderr.txt";
  FILE *dump_out = std::fopen(stderr_dump.c_str(), "wb");
  int pfd[2];
  if (!dump_out || pipe(pfd) != 0) {
    util::warn("run: cannot capture stderr");
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0) {
    util::warn(std::string("run: fork failed: ") + std::strerror(errno));
    return 2;
  }
  if (pid == 0) {
    dup2(pfd[1], STDERR_FILENO);
    close(pfd[0]);
    close(pfd[1]);
    for (auto &[n, v] : env) setenv(n.c_str(), v.c_str(), 1);
    std::vector<char *> av;
    for (auto &s : cmd) av.push_back(s.data());
    av.push_back(nullptr);
    execvp(av[0], av.data());
    std::fprintf(stderr, "%scannot run %s: %s\n", std::string(util::kPrefix).c_str(), av[0], std::strerror(errno));
    _exit(127);
  }
  close(pfd[1]);
  // Ctrl-C reaches the command; we stay to import what it printed.
  auto old_int = std::signal(SIGINT, SIG_IGN);
  auto old_term = std::signal(SIGTERM, SIG_IGN);
  StderrSplitter split(dump_out, kind == Kind::Triton);
  char buf[1 << 16];
  ssize_t n;
  while ((n = read(pfd[0], buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    split.feed(std::string_view(buf, static_cast<std::size_t>(n)));
  }
  split.finish();
  close(pfd[0]);
  std::fclose(dump_out);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

  dump::ImportJob job;
  job.tool = "lowertrace run";
  std::string label;
  for (const auto &c : cmd) label += (label.empty() ? "" : " ") + c;
  job.input_label = label;
  if (kind == Kind::Triton) {
    job.options.format = dump::Format::Triton;
    job.options.stage_dir = stage_dir;
    if (fs::exists(mlir_dump)) job.inputs.push_back(mlir_dump);
    job.options.lowered_for = [&](const std::string &kernel, const std::string &sd, const std::string &dumped) {
      std::string h = fs::path(sd).filename().string();
      for (const auto &i : injected)
        if (i.kernel == kernel && i.hash == h) return i.baseline;  // Triton wrote the edit, not its output
      return dumped;
    };
  } else {
    job.options.format = kind == Kind::Mlir ? dump::Format::Mlir : dump::Format::Llvm;
    for (std::size_t i = 1; i < cmd.size(); ++i)
      if (cmd[i][0] != '-' && fs::is_regular_file(cmd[i])) {
        job.script = util::stem(cmd[i]);
        break;
      }
    if (job.script.empty()) job.script = util::stem(cmd[0]);
  }
  job.inputs.push_back(stderr_dump);
  dump::ImportResult r = dump::import_into_sessions(job, cfg);
  if (r.dumps == 0) {
    util::warn(kind == Kind::Triton
                   ? "run: no IR dumps came out of the command (did it compile a Triton kernel?)"
                   : "run: no IR dumps came out of the command");
  } else {
    util::info(fmt::format("run: {} dumps -> {} records in {} run(s); trace in {}", r.dumps, r.records,
                           r.compilations, cfg.trace_dir));
  }
  // Remember each kernel's hash folder: the next run injects edits through it.
  for (const auto &c : r.codegens) {
    std::string sd = cfg.trace_dir + "/" + util::sanitize_component(c.kernel);
    util::write_file(sd + "/.triton_hash", fs::path(c.stage_dir).filename().string() + "\n");
    util::write_file(sd + "/.triton_kernel", c.kernel + "\n");
  }
  for (const auto &i : injected) {
    bool used = false;
    for (const auto &c : r.codegens) used |= c.kernel == i.kernel && fs::path(c.stage_dir).filename() == i.hash;
    if (!used)
      util::warn("run: the edited PTX for " + i.kernel +
                 " was not used: the kernel's source or options changed, so Triton compiled it afresh");
  }
  std::error_code ec;
  if (keep) util::info("run: capture kept in " + cap);
  else fs::remove_all(cap, ec);
  return rc;
}

}  // namespace

LOWERTRACE_COMMAND(run, "run", "run a compiler or Triton script with its IR dumps on, and trace them", run_run);
