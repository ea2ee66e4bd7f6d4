// `lowertrace run -- <command...>`: zero-intrusion tracing. The command's
// stdout, stderr and exit status stay its own.
//   clang, clang++, opt  load our LLVM pass plugin, traced in process;
//   Debian's mlir-opt-22 runs as lowertrace-opt (the same driver, traced);
//   anything else runs with the dump switches its compiler already has
//   (Triton's environment variables, an *-opt's --mlir-print-ir-*, llc's
//   -print-after-all); the dumps are split off its stderr and imported.
// lowertrace's own lines come after the command's output.
#include "capture/dump/stderr_splitter.h"
#include "command.h"
#include "manual.h"
#include "run_inprocess.h"
#include "run_python.h"
#include "run_spawn.h"
#include "lowertrace/config.h"
#include "lowertrace/dump.h"
#include "util/fs.h"
#include "util/log.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace lowertrace;
namespace run = lowertrace::cli::run;

constexpr const char *kUsage =
    "usage: lowertrace run [--mode html|terminal|both] [--dir TRACE_DIR] [--keep]\n"
    "                      [--as triton|triton-dumps|mlir|llvm|clang] -- <command> [args...]\n"
    "\n"
    "Runs the command and traces its passes:\n"
    "  clang, clang++    in process: -fpass-plugin=<lib>/liblowertrace-llvm.so\n"
    "  opt               in process: -load-pass-plugin=<lib>/liblowertrace-llvm.so\n"
    "  mlir-opt-22       in process: Debian's mlir-opt-22 runs as lowertrace-opt\n"
    "  python (Triton)   with the Python package installed: TL_LOWER_TRACE=<mode> and\n"
    "                    TL_LOWER_TRACE_DIR, as `TL_LOWER_TRACE=1 python ...` (one run per\n"
    "                    compiled variant, workers and threads included); without it, or\n"
    "                    with --as triton-dumps: MLIR_ENABLE_DUMP=1 MLIR_DUMP_PATH LLVM_IR_ENABLE_DUMP=1\n"
    "                    TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR TRITON_ALWAYS_COMPILE=1\n"
    "                    (one run per kernel, ttir -> ttgir -> llir -> LLVM -> MIR -> PTX)\n"
    "  other *-opt       --mlir-print-ir-before-all --mlir-print-ir-after-all\n"
    "                    --mlir-disable-threading, dumps split off its stderr\n"
    "  llc               -print-after-all, dumps split off its stderr\n"
    "  --as              choose the kind instead of guessing it from the command\n"
    "  --keep            keep the capture folder (re-import it with `lowertrace import DIR`)\n"
    "The command's stdout, stderr and exit status are its own; lowertrace's lines\n"
    "follow its output. Edited PTX working copies (codegen.<kernel>.ptx) are\n"
    "injected into the next Triton run through TRITON_KERNEL_OVERRIDE.\n";

enum class Kind { Triton, Mlir, Llvm, Clang };

Kind guess_kind(const std::vector<std::string> &cmd) {
  std::string base = fs::path(cmd[0]).filename().string();
  if (base.rfind("python", 0) == 0) return Kind::Triton;
  if (run::is_clang_driver(base)) return Kind::Clang;
  if (base == "opt" || base.rfind("opt-", 0) == 0 || base == "llc" || base.rfind("llc-", 0) == 0) return Kind::Llvm;
  if (base.find("mlir") != std::string::npos || base.ends_with("-opt") ||
      (base.find("-opt-") != std::string::npos))
    return Kind::Mlir;
  for (const auto &a : cmd)
    if (a.ends_with(".py")) return Kind::Triton;
  return Kind::Triton;  // the environment switches harm nothing else
}

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

// The command traced in its own process: stdout and stderr are its own (not
// even a pipe: a terminal stays a terminal, so colours and buffering are as
// without us). lowertrace's lines, written by the plugin or lowertrace-opt to
// TL_LOWER_TRACE_LOG, are shown after the command is done.
int run_in_process(const run::InProcess &p, const Config &cfg, const std::string &cap, bool keep) {
  std::string log = cap + "/lowertrace.log";
  std::error_code ec;
  run::Env env = {{"TL_LOWER_TRACE", std::string(to_string(cfg.mode))},
                  {"TL_LOWER_TRACE_DIR", fs::absolute(cfg.trace_dir, ec).string()},
                  {"TL_LOWER_TRACE_LOG", log}};
  pid_t pid = run::start(p.exe, p.argv, env, -1, -1);
  if (pid < 0) return 2;
  int status;
  {
    run::StayForTrace stay;
    status = run::wait_for(pid);
  }
  auto lines = util::read_file(log);
  if (lines && !lines->empty()) util::emit(*lines);
  else util::info("run: no pass ran in the command (nothing compiled?), so there is no trace");
  if (keep) util::info("run: capture kept in " + cap);
  else fs::remove_all(cap, ec);
  return run::end_like(status);
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
      return lowertrace::cli::print_command_manual("run");
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

  // In process where we can: the tool's output is then untouched by design.
  std::optional<run::InProcess> inproc;
  std::string base = fs::path(cmd[0]).filename().string();
  bool is_opt = base == "opt" || base.rfind("opt-", 0) == 0;
  if (kind == Kind::Clang || (kind == Kind::Llvm && is_opt)) {
    inproc = run::plugin_plan(cmd, kind == Kind::Clang);
    if (!inproc)
      util::warn("run: liblowertrace-llvm.so is not installed next to lowertrace (../lib/); "
                 "falling back to -print-after-all dumps on stderr");
  } else if (kind == Kind::Mlir) {
    inproc = run::mlir_opt_plan(cmd);
  }
  if (inproc) return run_in_process(*inproc, cfg, cap, keep);

  std::string mlir_dump = cap + "/mlir_dump.txt", stage_dir = cap + "/triton_dump";
  std::vector<Injected> injected;
  run::Env env;
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
    cmd = run::with_flags(cmd, {"--mlir-print-ir-before-all", "--mlir-print-ir-after-all", "--mlir-disable-threading"});
  } else if (kind == Kind::Llvm) {
    cmd = run::with_flags(cmd, {"-print-after-all"});
  } else {
    cmd = run::with_flags(cmd, {"-mllvm", "-print-after-all"});
  }

  std::string stderr_dump = cap + "/stderr.txt";
  FILE *dump_out = std::fopen(stderr_dump.c_str(), "wb");
  int pfd[2];
  if (!dump_out || pipe(pfd) != 0) {
    util::warn("run: cannot capture stderr");
    return 2;
  }
  pid_t pid = run::start("", cmd, env, pfd[1], pfd[0]);
  if (pid < 0) return 2;
  close(pfd[1]);
  int status = 0;
  {
    run::StayForTrace stay;
    // The tool's lines go out as they come, unbuffered, in their order.
    auto tool = [](std::string_view b) {
      while (!b.empty()) {
        ssize_t w = write(STDERR_FILENO, b.data(), b.size());
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        b.remove_prefix(static_cast<std::size_t>(w));
      }
    };
    auto dump = [&](std::string_view b) { std::fwrite(b.data(), 1, b.size(), dump_out); };
    dump::StderrSplitter split(tool, dump, kind == Kind::Triton);
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
    status = run::wait_for(pid);
  }

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
    // A compiler that stopped before its passes (an input that does not
    // parse) prints no dumps: nothing to trace, and nothing wrong with us.
    if (kind == Kind::Triton) util::warn("run: no IR dumps came out of the command (did it compile a Triton kernel?)");
    else util::info("run: no pass ran in the command (no IR dumps came out), so there is no trace");
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
  return run::end_like(status);
}

}  // namespace

LOWERTRACE_COMMAND(run, "run", "run a compiler or Triton script with its IR dumps on, and trace them", run_run);
