// `lowertrace import <file|dir>...`: IR dumps a compiler already printed
// (mlir-opt --mlir-print-ir-*, opt/clang -print-after-all, -print-changed,
// Triton MLIR_ENABLE_DUMP) become the same runs and report as live capture.
#include "command.h"
#include "manual.h"
#include "lowertrace/config.h"
#include "lowertrace/dump.h"
#include "util/log.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char *kUsage =
    "usage: lowertrace import <file|dir>... [--format auto|mlir|llvm|triton]\n"
    "                         [--mode html|terminal|both] [--dir TRACE_DIR]\n"
    "                         [--stage-dir TRITON_DUMP_DIR] [--script NAME]\n"
    "\n"
    "Reads IR dumps and writes the trace (raw files, trace.json, report) as live\n"
    "capture does. Inputs are read in the order given; a folder stands for its\n"
    "files in natural name order (-ir-dump-directory, --mlir-print-ir-tree-dir),\n"
    "or, for a folder left by `lowertrace run --keep`, for the dumps it holds.\n"
    "  --format     banner families to read (auto: all; triton: split by kernel)\n"
    "  --mode       report kind (default: TL_LOWER_TRACE, else html)\n"
    "  --dir        trace folder (default: TL_LOWER_TRACE_DIR or ./tmp/lower_trace_dir)\n"
    "  --stage-dir  Triton TRITON_DUMP_DIR: stage files; the .ptx becomes the codegen record\n"
    "  --script     run folder name (default: kernel name, else the input's stem)\n"
    "  --parse-only parse and stitch, write nothing (measures the importer alone)\n";

int usage_error(const std::string &msg) {
  lowertrace::util::info("import: " + msg);
  std::fputs(kUsage, stderr);
  return 2;
}

// Counts events and keeps nothing: what the importer costs without the engine.
class NullTarget final : public lowertrace::dump::Target {
public:
  lowertrace::Snapshot intern(std::string_view t) override {
    auto s = std::make_shared<lowertrace::SnapshotData>();
    s->text = std::string(t);
    return s;
  }
  void set_phase(std::string_view) override {}
  int begin_pass(std::string_view, lowertrace::Snapshot, std::string_view) override { return n_++; }
  void end_pass(int, lowertrace::Snapshot) override {}
  void fail_pass(int, std::string_view) override {}
  int skipped_pass(std::string_view, lowertrace::Snapshot, std::string_view) override { return n_++; }
  void annotate(int, std::string_view, std::string_view) override {}
  std::string codegen(std::string_view, std::string_view, std::string_view s, std::string_view,
                      std::string_view) override {
    return std::string(s);
  }
  void finish(std::string_view) override {}

private:
  int n_ = 0;
};

lowertrace::dump::ImportResult parse_only_import(const lowertrace::dump::ImportJob &job) {
  using namespace lowertrace::dump;
  Importer imp(job.options, [](const Compilation &) { return std::make_unique<NullTarget>(); });
  for (const auto &in : job.inputs)
    for (const auto &f : expand_input(in))
      if (std::string err = imp.feed_file(f); !err.empty()) lowertrace::util::warn("import: " + err);
  return imp.finish();
}

std::string mb(std::uint64_t b) { return fmt::format("{:.1f} MB", b / 1e6); }

int run_import(int argc, char **argv) {
  using namespace lowertrace;
  dump::ImportJob job;
  std::string mode_s, dir;
  bool parse_only = false;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    auto value = [&]() -> std::optional<std::string> {
      if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) return a.substr(eq + 1);
      if (k + 1 >= argc) return std::nullopt;
      return std::string(argv[++k]);
    };
    auto flag = [&](const char *name) { return a == name || a.rfind(std::string(name) + "=", 0) == 0; };
    if (a == "-h" || a == "--help") {
      return lowertrace::cli::print_command_manual("import");
    } else if (a == "--parse-only") {
      parse_only = true;
    } else if (flag("--format")) {
      auto v = value();
      auto f = v ? dump::parse_format(*v) : std::nullopt;
      if (!f) return usage_error("--format takes auto, mlir, llvm or triton");
      job.options.format = *f;
    } else if (flag("--mode")) {
      auto v = value();
      if (!v) return usage_error("--mode needs a value");
      mode_s = *v;
    } else if (flag("--dir")) {
      auto v = value();
      if (!v) return usage_error("--dir needs a folder");
      dir = *v;
    } else if (flag("--stage-dir")) {
      auto v = value();
      if (!v) return usage_error("--stage-dir needs a folder");
      job.options.stage_dir = *v;
    } else if (flag("--script")) {
      auto v = value();
      if (!v) return usage_error("--script needs a name");
      job.script = *v;
    } else if (a.rfind("--", 0) == 0) {
      return usage_error("unknown option " + a);
    } else {
      job.inputs.push_back(a);
    }
  }
  if (job.inputs.empty()) return usage_error("no input");

  // A capture folder from `lowertrace run --keep`: its dumps, in compile order.
  if (job.inputs.size() == 1 && std::filesystem::exists(job.inputs[0] + "/lowertrace-run")) {
    std::string d = job.inputs[0];
    job.inputs.clear();
    for (const char *f : {"mlir_dump.txt", "stderr.txt"})
      if (std::filesystem::exists(d + "/" + f)) job.inputs.push_back(d + "/" + f);
    if (job.options.stage_dir.empty() && std::filesystem::exists(d + "/triton_dump"))
      job.options.stage_dir = d + "/triton_dump";
  }
  for (const auto &in : job.inputs)
    if (!std::filesystem::exists(in)) return usage_error("no such file or folder: " + in);

  Config cfg = current_config();
  if (!mode_s.empty()) {
    bool unknown = false;
    cfg.mode = parse_mode(mode_s, &unknown);
    if (unknown || cfg.mode == Mode::Off) return usage_error("--mode takes html, terminal or both");
  } else if (!cfg.enabled()) {
    cfg.mode = Mode::Html;  // asking for an import is asking for a trace
  }
  if (!dir.empty()) cfg.trace_dir = dir;

  bool tty = isatty(STDERR_FILENO) == 1;
  auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  if (tty)
    job.options.progress = [&](std::uint64_t done, std::uint64_t total) {
      auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(200)) return;
      last = now;
      std::string line = total ? fmt::format("\r{}import: {} / {} ({:.0f}%)", util::kPrefix, mb(done), mb(total),
                                             100.0 * done / total)
                               : fmt::format("\r{}import: {}", util::kPrefix, mb(done));
      std::fputs(line.c_str(), stderr);
      std::fflush(stderr);
    };
  dump::ImportResult r = parse_only ? parse_only_import(job) : dump::import_into_sessions(job, cfg);
  if (tty && r.bytes > 0) std::fputs("\r\x1b[K", stderr);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.dumps == 0) {
    util::warn(fmt::format("import: no IR dump banners found in {} of input", mb(r.bytes)));
    return 1;
  }
  util::info(fmt::format("import: {} dumps -> {} records in {} run(s) ({} input, {}, {:.2f} s, {:.0f} MB/s){}",
                         r.dumps, r.records, r.compilations, mb(r.bytes), dump::to_string(r.detected), s,
                         s > 0 ? r.bytes / 1e6 / s : 0.0,
                         r.warnings.empty() ? "" : fmt::format(", {} warning(s)", r.warnings.size())));
  util::info("import: trace in " + cfg.trace_dir);
  return 0;
}

}  // namespace

LOWERTRACE_COMMAND(import, "import", "turn IR dumps (MLIR, LLVM, Triton) into a trace and report", run_import);
