// `lowertrace synth-trace`: a synthetic compilation traced through a real
// Session in html mode. It exists for the browser tests and the report bench:
// it exercises the real sinks and layout without needing MLIR or a GPU.
//
// The IR is MLIR-like text of about 60 bytes a line. Most passes edit ~1% of
// the lines (renamed values, new constants, a few inserted/deleted ops), some
// leave the IR alone, every 10th has two nested child passes, one optional
// pass fails, and the run ends with a codegen record (MLIR -> PTX).
#include "command.h"
#include "manual.h"

#include "lowertrace/session.h"

#include <csignal>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct Opts {
  int passes = 20, lines = 200, kill_after = -1, fail_at = -1, pause_after = -1, pause_ms = 0, codegens = 1;
  bool hostile = false;
  std::string out, script = "synth", from_dump;
};

// Deliberately nasty text for the XSS test: every form must render as text.
const char *kHostile[] = {
    "</script><script>window.__pwned=1;alert(1)</script>",
    "<img src=x onerror=\"window.__pwned=2;alert(2)\">",
    "<!-- <script>window.__pwned=3</script> -->",
    "line\u2028sep\u2029para",
    "nul\0byte",
    "bad utf8 \xff\xfe\xc3(",
    "<svg onload=alert(4)>{{constructor.constructor('alert(5)')()}}",
};

std::string hostile(int i) {
  const char *s = kHostile[i % (sizeof kHostile / sizeof *kHostile)];
  // "nul\0byte" needs its length spelled out.
  if (!std::strcmp(s, "nul")) return std::string("nul\0byte", 8);
  return s;
}

class Ir {
public:
  Ir(int lines, bool hostile) : rng_(42) {
    body_.push_back("module attributes {gpu.container_module} {");
    body_.push_back("  func.func @kernel(%arg0: memref<1024xf32>, %arg1: memref<1024xf32>) {");
    for (int i = 0; i < lines - 4; ++i) body_.push_back(op(i));
    if (hostile)
      for (int i = 0; i < 7; ++i) body_.push_back("    // " + ::hostile(i));
    body_.push_back("  }");
    body_.push_back("}");
  }
  // Edits about 1% of the lines (at least one) in place, and inserts/deletes a few.
  void mutate() {
    int n = static_cast<int>(body_.size());
    int edits = std::max(1, n / 100);
    for (int e = 0; e < edits; ++e) {
      int at = 2 + static_cast<int>(rng_() % (n - 4));
      switch (rng_() % 4) {
        case 0: body_[at] = op(static_cast<int>(rng_() % 100000)); break;
        case 1: body_.insert(body_.begin() + at, op(next_++)); break;
        case 2: if (n > 8) body_.erase(body_.begin() + at); break;
        default: body_[at] = "  " + body_[at]; break;  // a whitespace-only change
      }
      n = static_cast<int>(body_.size());
    }
  }
  std::string text() const {
    std::string t;
    for (const auto &l : body_) t += l + "\n";
    return t;
  }

private:
  std::string op(int i) {
    static const char *kinds[] = {"arith.addf", "arith.mulf", "arith.subf", "arith.maximumf"};
    char buf[160];
    std::snprintf(buf, sizeof buf, "    %%v%d = %s %%v%d, %%c%d : f32 loc(#loc%d)", i,
                  kinds[i % 4], i > 0 ? i - 1 : 0, i % 17, i % 53);
    return buf;
  }
  std::mt19937 rng_;
  std::vector<std::string> body_;
  int next_ = 1000000;
};

std::string ptx_of(int lines) {
  std::string s = ".version 8.4\n.target sm_90\n.address_size 64\n\n.visible .entry kernel(\n"
                  "\t.param .u64 kernel_param_0\n)\n{\n\t.reg .f32 \t%f<64>;\n";
  for (int i = 0; i < lines; ++i)
    s += "\tadd.f32 \t%f" + std::to_string(i % 64) + ", %f" + std::to_string((i + 1) % 64) +
         ", %f" + std::to_string((i + 7) % 64) + ";\n";
  return s + "\tret;\n}\n";
}

// Module-level blocks of an MLIR `-mlir-print-ir-before-all` dump (as Triton's
// MLIR_ENABLE_DUMP writes): [(pass argument, IR)]. Op-scoped blocks are
// skipped because they hold only part of the module.
std::vector<std::pair<std::string, std::string>> dump_blocks(const std::string &path) {
  std::ifstream f(path);
  std::vector<std::pair<std::string, std::string>> out;
  std::string line;
  bool keep = false;
  while (std::getline(f, line)) {
    if (line.rfind("// -----// IR Dump", 0) == 0) {
      keep = line.find("'builtin.module' operation") != std::string::npos;
      if (keep) {
        size_t a = line.find('('), b = line.find(')', a);
        out.emplace_back(a != std::string::npos && b != std::string::npos ? line.substr(a + 1, b - a - 1)
                                                                          : "pass",
                         "");
      }
      continue;
    }
    if (keep) out.back().second += line + "\n";
  }
  return out;
}

int usage(int rc) {
  std::fprintf(rc ? stderr : stdout,
               "usage: lowertrace synth-trace --out DIR [--passes N] [--lines L] [--script NAME]\n"
               "                              [--fail-at K] [--hostile] [--kill-after K]\n"
               "                              [--from-dump MLIR_DUMP] [--pause-after K --pause-ms M] [--codegens N]\n"
               "Traces a synthetic N-pass compilation of an L-line IR in html mode into DIR.\n"
               "--kill-after K sends SIGKILL to itself after K passes (crash-safety tests).\n"
               "--pause-after K sleeps M ms after K passes (a long pass, for the live report).\n"
               "--from-dump replays the module-level blocks of a real print-ir-before-all dump.\n"
               "--codegens N generates the kernel N times (as an autotuner does), each a little different.\n");
  return rc;
}

int run(int argc, char **argv) {
  Opts o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    const char *v = nullptr;
    if (a == "--help" || a == "-h") return lowertrace::cli::print_command_manual("synth-trace");
    if (a == "--hostile") { o.hostile = true; continue; }
    if (!(v = val())) {
      std::fprintf(stderr, "lowertrace synth-trace: %s needs a value\n", a.c_str());
      return 2;
    }
    if (a == "--passes") o.passes = std::atoi(v);
    else if (a == "--lines") o.lines = std::atoi(v);
    else if (a == "--kill-after") o.kill_after = std::atoi(v);
    else if (a == "--pause-after") o.pause_after = std::atoi(v);
    else if (a == "--pause-ms") o.pause_ms = std::atoi(v);
    else if (a == "--fail-at") o.fail_at = std::atoi(v);
    else if (a == "--codegens") o.codegens = std::atoi(v);
    else if (a == "--out") o.out = v;
    else if (a == "--script") o.script = v;
    else if (a == "--from-dump") o.from_dump = v;
    else {
      std::fprintf(stderr, "lowertrace synth-trace: unknown option %s\n", a.c_str());
      return usage(2);
    }
  }
  if (o.out.empty() || o.passes < 1 || o.lines < 8) return usage(2);

  lowertrace::Config cfg;
  cfg.mode = lowertrace::Mode::Html;
  cfg.trace_dir = o.out;
  cfg.codegen_output = lowertrace::none;
  std::string input = o.hostile ? "synthetic " + hostile(0) : "synthetic.mlir";
  if (!o.from_dump.empty()) input = o.from_dump.substr(o.from_dump.find_last_of('/') + 1);
  lowertrace::Session s({o.script, input, "lowertrace synth-trace", true}, cfg);
  if (!o.from_dump.empty()) {
    auto blocks = dump_blocks(o.from_dump);
    if (blocks.empty()) {
      std::fprintf(stderr, "lowertrace synth-trace: no module-level IR dump blocks in %s\n",
                   o.from_dump.c_str());
      return 2;
    }
    auto ph = s.phase("pipeline");
    for (size_t i = 0; i < blocks.size(); ++i) {
      int idx = s.begin_pass(blocks[i].first, s.intern(blocks[i].second), "mlir");
      s.end_pass(idx, s.intern(i + 1 < blocks.size() ? blocks[i + 1].second : blocks[i].second));
    }
    s.finish();
    std::printf("%s\n", s.run().run_dir.c_str());
    return 0;
  }
  Ir ir(o.lines, o.hostile);
  auto cur = s.intern(ir.text());
  int done = 0;
  auto after_pass = [&] {
    if (++done == o.kill_after) ::kill(::getpid(), SIGKILL);
    if (done == o.pause_after) ::usleep(static_cast<useconds_t>(o.pause_ms) * 1000);
  };
  auto one = [&](const std::string &name, bool change) {
    int idx = s.begin_pass(name, cur, "mlir");
    if (change) {
      ir.mutate();
      cur = s.intern(ir.text());
    }
    s.end_pass(idx, cur);
    after_pass();
  };
  {
    auto ph = s.phase(o.hostile ? hostile(1) : "unscoped");
    one("verify-module", false);
  }
  auto ph = s.phase("pipeline");
  for (int p = 1; p < o.passes - 1; ++p) {
    std::string name = o.hostile ? hostile(p) : "pass-" + std::to_string(p);
    if (p == o.fail_at) {
      int idx = s.begin_pass("failing-" + name, cur, "mlir");
      s.fail_pass(idx, o.hostile ? hostile(p + 1) : "Boom: pass-" + std::to_string(p) +
                                                         " could not legalize 'arith.addf'");
      after_pass();
      continue;
    }
    if (p % 10 == 0) {  // a pass manager with two nested passes
      int parent = s.begin_pass("nest-" + name, cur, "mlir");
      one("canonicalize", true);
      one("cse", p % 20 == 0);
      s.end_pass(parent, cur);
      after_pass();
      continue;
    }
    one(name, p % 3 != 0);
  }
  {  // a change that is only the final '\n' (the viewer says so instead of diffing)
    int idx = s.begin_pass("strip-final-newline", cur, "mlir");
    std::string t = cur->text;
    if (!t.empty() && t.back() == '\n') t.pop_back();
    cur = s.intern(t);
    s.end_pass(idx, cur);
    after_pass();
  }
  {
    auto cg = s.phase("codegen");
    for (int k = 0; k < std::max(1, o.codegens); ++k) {
      std::string ptx = ptx_of(std::max(8, o.lines / 4));
      if (o.hostile) ptx += "// " + hostile(2) + "\n";
      if (k > 0) ptx += "\tmov.u32 \t%r9, " + std::to_string(k) + ";\t// variant " + std::to_string(k) + "\n";
      s.codegen(cur->text, "mlir", ptx, "ptx", "kernel");
      after_pass();
    }
  }
  s.finish();
  std::printf("%s\n", s.run().run_dir.c_str());
  return 0;
}

}  // namespace

LOWERTRACE_COMMAND(synth, "synth-trace", "trace a synthetic compilation (tests, benchmarks)", run);
