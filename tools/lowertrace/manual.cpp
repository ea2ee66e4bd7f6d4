// The manual pages printed by `lowertrace --help`, `lowertrace help <command>`
// and `lowertrace <command> --help`: man-style sections (NAME, SYNOPSIS,
// DESCRIPTION, OPTIONS, ENVIRONMENT, EXIT STATUS, EXAMPLES), kept in one
// place so that they read alike. A command's short usage (on a usage error)
// stays next to its option parsing; tests/integration/cli_help.sh checks that
// every option a page's SYNOPSIS names is described under OPTIONS.
#include "manual.h"

#include "lowertrace/version.h"

#include <cstring>

namespace lowertrace::cli {
namespace {

struct Page {
  const char *command;  // "" for the lowertrace command itself
  const char *text;
};

// Shared by every page that writes a trace.
#define LT_MAN_ENVIRONMENT                                                                 \
  "ENVIRONMENT\n"                                                                          \
  "    TL_LOWER_TRACE (or LOWER_TRACE)\n"                                                  \
  "        0|off|false|no: off; 1|on|true|yes|html: HTML report; terminal: one line per\n" \
  "        pass on stderr; both. An unknown value means html, with a warning.\n"          \
  "    TL_LOWER_TRACE_DIR (or LOWER_TRACE_DIR)\n"                                          \
  "        The trace folder (default ./tmp/lower_trace_dir).\n"                            \
  "    TL_LOWER_TRACE_LOG\n"                                                               \
  "        A file: lowertrace's own lines are appended there instead of stderr (lowertrace\n" \
  "        run sets it for in-process tools, then shows the lines after the tool's output).\n" \
  "    TL_LOWER_TRACE_MIR\n"                                                              \
  "        0: the LLVM plugin in clang does not trace the back end (phase mir and the\n"  \
  "        assembly); by default it does, by running clang's back end once more on a copy.\n" \
  "    NO_COLOR\n"                                                                         \
  "        When set, terminal output has no colour.\n"

const Page kPages[] = {
    {"",
     "NAME\n"
     "    lowertrace - trace a compiler's lowering pass by pass, with diffs and a report\n"
     "\n"
     "SYNOPSIS\n"
     "    lowertrace <command> [options] [args...]\n"
     "    lowertrace help [<command>]\n"
     "    lowertrace --help | --version\n"
     "\n"
     "DESCRIPTION\n"
     "    Records the IR before and after every pass of an MLIR, LLVM or Triton\n"
     "    compilation and writes raw snapshot files, trace.json and a self-contained\n"
     "    HTML report under the trace folder (<dir>/<script>/). The commands below\n"
     "    capture a live compilation (run, demo), import dumps a compiler already wrote\n"
     "    (import), or compare texts and traces (diff, compare).\n"
     "\n"
     "COMMANDS\n"
     "@@COMMANDS@@"
     "\n"
     "OPTIONS\n"
     "    -h, --help     Print this page (`lowertrace <command> --help`: that command's).\n"
     "    --version      Print the version and exit.\n"
     "\n" LT_MAN_ENVIRONMENT
     "\n"
     "EXIT STATUS\n"
     "    The command's status; 2 for an unknown command or a usage error.\n"
     "\n"
     "SEE ALSO\n"
     "    lowertrace-opt --help (the traced mlir-opt), the LLVM plugin\n"
     "    liblowertrace-llvm.so (opt -load-pass-plugin, clang -fpass-plugin).\n"},

    {"run",
     "NAME\n"
     "    lowertrace run - run a compiler command with its IR dumps on, and import them\n"
     "\n"
     "SYNOPSIS\n"
     "    lowertrace run [--mode MODE] [--dir TRACE_DIR] [--keep] [--as KIND] -- <command> [args...]\n"
     "\n"
     "DESCRIPTION\n"
     "    Runs <command> with the switches that make its compiler print the IR around\n"
     "    every pass, then imports what it printed as `lowertrace import` does. The\n"
     "    command's stdout, its own stderr and its exit status are passed through\n"
     "    unchanged. What is switched on depends on the command:\n"
     "      python (Triton)    MLIR_ENABLE_DUMP=1, MLIR_DUMP_PATH, LLVM_IR_ENABLE_DUMP=1,\n"
     "                         TRITON_KERNEL_DUMP=1, TRITON_DUMP_DIR, TRITON_ALWAYS_COMPILE=1\n"
     "                         (one run per kernel: ttir, ttgir, llir, LLVM, MIR, PTX)\n"
     "      *mlir*-opt, *-opt  --mlir-print-ir-before-all --mlir-print-ir-after-all\n"
     "                         --mlir-disable-threading\n"
     "      opt, llc           -print-after-all\n"
     "      clang, clang++     -mllvm -print-after-all\n"
     "    Edited PTX working copies (codegen.<kernel>.ptx) are injected into the next\n"
     "    Triton run through TRITON_KERNEL_OVERRIDE.\n"
     "\n"
     "OPTIONS\n"
     "    --mode MODE    html, terminal or both (default: TL_LOWER_TRACE, else html).\n"
     "    --dir TRACE_DIR\n"
     "                   Trace folder (default: TL_LOWER_TRACE_DIR or ./tmp/lower_trace_dir).\n"
     "    --keep         Keep the capture folder; `lowertrace import DIR` re-imports it.\n"
     "    --as KIND      triton, mlir, llvm or clang: the kind of compiler, instead of\n"
     "                   guessing it from the command's name.\n"
     "    --             Ends lowertrace's options; everything after it is the command.\n"
     "\n" LT_MAN_ENVIRONMENT
     "\n"
     "EXIT STATUS\n"
     "    The command's exit status; 2 when lowertrace itself cannot start it.\n"
     "\n"
     "EXAMPLES\n"
     "    lowertrace run -- mlir-opt-22 in.mlir --canonicalize --cse\n"
     "    lowertrace run --mode terminal -- clang-22 -O2 -c f.c\n"
     "    lowertrace run -- python3 kernel.py\n"},

    {"import",
     "NAME\n"
     "    lowertrace import - turn IR dumps (MLIR, LLVM, Triton) into a trace and report\n"
     "\n"
     "SYNOPSIS\n"
     "    lowertrace import <file|dir>... [--format FORMAT] [--mode MODE] [--dir TRACE_DIR]\n"
     "                      [--stage-dir TRITON_DUMP_DIR] [--script NAME] [--parse-only]\n"
     "\n"
     "DESCRIPTION\n"
     "    Reads IR dumps (mlir-opt --mlir-print-ir-*, opt/clang -print-after-all,\n"
     "    -print-changed, -ir-dump-directory, Triton's MLIR_ENABLE_DUMP output) and\n"
     "    writes the trace (raw files, trace.json, report) as live capture does.\n"
     "    Inputs are read in the order given; a folder stands for its files in\n"
     "    natural name order, or, for a folder left by `lowertrace run --keep`, for\n"
     "    the dumps it holds. A file of several compilations gives one run each.\n"
     "\n"
     "OPTIONS\n"
     "    --format FORMAT\n"
     "                   Banner families to read: auto (all, the default), mlir, llvm,\n"
     "                   or triton (split by kernel).\n"
     "    --mode MODE    html, terminal or both (default: TL_LOWER_TRACE, else html).\n"
     "    --dir TRACE_DIR\n"
     "                   Trace folder (default: TL_LOWER_TRACE_DIR or ./tmp/lower_trace_dir).\n"
     "    --stage-dir TRITON_DUMP_DIR\n"
     "                   Triton's stage files; the .ptx becomes the codegen record.\n"
     "    --script NAME  Script folder name (default: the kernel name, else the input's stem).\n"
     "    --parse-only   Parse and stitch, write nothing (measures the importer alone).\n"
     "\n" LT_MAN_ENVIRONMENT
     "\n"
     "EXIT STATUS\n"
     "    0 imported; 1 no dump banner in the input; 2 usage error or missing input.\n"
     "\n"
     "EXAMPLES\n"
     "    mlir-opt-22 in.mlir --canonicalize --mlir-print-ir-after-all 2> dump.txt\n"
     "    lowertrace import dump.txt --mode both\n"},

    {"diff",
     "NAME\n"
     "    lowertrace diff - unified diff of two IR files, SSA renumbering counted apart\n"
     "\n"
     "SYNOPSIS\n"
     "    lowertrace diff <a> <b> [-U N] [--stat] [--color[=WHEN]] [--no-color] [--label L]...\n"
     "\n"
     "DESCRIPTION\n"
     "    Prints a git-style unified diff of two files with lowertrace's line diff\n"
     "    (histogram anchors, bounded Myers); \"-\" reads stdin. The output applies\n"
     "    with GNU patch.\n"
     "\n"
     "OPTIONS\n"
     "    -U N, --unified=N, -u\n"
     "                   N lines of context (default 3; -u: 3).\n"
     "    --stat         Print only 'N insertions(+), M deletions(-)', plus how many\n"
     "                   changed line pairs only renumber SSA values, blocks or\n"
     "                   attribute aliases (%5->%6, ^bb1, #loc3).\n"
     "    --color[=WHEN] always, never or auto (default auto: stdout is a terminal and\n"
     "                   NO_COLOR is unset).\n"
     "    --no-color     Same as --color=never.\n"
     "    --label L      Label for the ---/+++ lines; give it twice: a, then b.\n"
     "\n"
     "ENVIRONMENT\n"
     "    NO_COLOR       When set, --color=auto means never.\n"
     "\n"
     "EXIT STATUS\n"
     "    0 the files are the same, 1 they differ, 2 trouble (as diff(1)).\n"
     "\n"
     "EXAMPLES\n"
     "    lowertrace diff before.mlir after.mlir --stat\n"
     "    lowertrace diff a.ll b.ll > ab.patch && patch a.ll ab.patch\n"},

    {"compare",
     "NAME\n"
     "    lowertrace compare - one report comparing two traced runs\n"
     "\n"
     "SYNOPSIS\n"
     "    lowertrace compare <runA> <runB> [-o REPORT.html]\n"
     "\n"
     "DESCRIPTION\n"
     "    A run is a run folder (holding trace.json and its raw files), its\n"
     "    trace.json, or a script folder (its newest run). Writes one HTML report\n"
     "    that aligns the two pass sequences, marks passes present in only one run,\n"
     "    and opens on the first pass whose output differs, as the diff of A's\n"
     "    output against B's.\n"
     "\n"
     "OPTIONS\n"
     "    -o, --out REPORT.html\n"
     "                   Report path (default ./lowertrace-compare.html); also --out=PATH.\n"
     "\n"
     "EXIT STATUS\n"
     "    0 the report was written; 1 a run cannot be read; 2 usage error.\n"
     "\n"
     "EXAMPLES\n"
     "    lowertrace compare tmp/lower_trace_dir/O1 tmp/lower_trace_dir/O2 -o o1-vs-o2.html\n"},

    {"synth-trace",
     "NAME\n"
     "    lowertrace synth-trace - trace a synthetic compilation (tests and benchmarks)\n"
     "\n"
     "SYNOPSIS\n"
     "    lowertrace synth-trace --out DIR [--passes N] [--lines L] [--script NAME]\n"
     "                           [--fail-at K] [--hostile] [--kill-after K]\n"
     "                           [--pause-after K] [--pause-ms M]\n"
     "                           [--from-dump MLIR_DUMP] [--codegens N]\n"
     "\n"
     "DESCRIPTION\n"
     "    Traces a synthetic N-pass compilation of an L-line IR in html mode into DIR,\n"
     "    through the same session and report code as a real front end.\n"
     "\n"
     "OPTIONS\n"
     "    --out DIR          Trace folder (required).\n"
     "    --passes N         Number of passes (default 20).\n"
     "    --lines L          Lines of IR (default 200, at least 8).\n"
     "    --script NAME      Script folder name (default synth).\n"
     "    --fail-at K        Pass K fails.\n"
     "    --hostile          Put hostile text in the IR (</script>, onerror=, U+2028, NUL):\n"
     "                       the report must show it as text.\n"
     "    --kill-after K     SIGKILL itself after K passes (crash-safety tests).\n"
     "    --pause-after K    Sleep --pause-ms M ms after K passes (a long pass).\n"
     "    --pause-ms M       See --pause-after.\n"
     "    --from-dump MLIR_DUMP\n"
     "                       Replay the module-level blocks of a print-ir-before-all dump.\n"
     "    --codegens N       Generate the kernel N times (as an autotuner does).\n"
     "\n"
     "EXIT STATUS\n"
     "    0 done; 2 usage error.\n"},

    {"demo",
     "NAME\n"
     "    lowertrace demo - trace a GPU matmul from linalg on tensors down to PTX\n"
     "\n"
     "SYNOPSIS\n"
     "    lowertrace demo [--cpu] [--mode MODE] [--dir TRACE_DIR] [--codegen-output PATH]\n"
     "                    [--input FILE.mlir] [-o PATH] [--print-pipeline]\n"
     "\n"
     "DESCRIPTION\n"
     "    Runs the embedded pipeline (examples/) in process with the MLIR front end,\n"
     "    ends with the codegen step (NVPTX PTX, or host assembly with --cpu) and\n"
     "    runs the edit-and-recompile workflow on the generated code.\n"
     "\n"
     "OPTIONS\n"
     "    --cpu              Lower for the CPU, down to host assembly.\n"
     "    --mode MODE        terminal, html or both (default: TL_LOWER_TRACE, else html).\n"
     "    --dir TRACE_DIR    Trace folder (default: TL_LOWER_TRACE_DIR or ./tmp/lower_trace_dir).\n"
     "    --codegen-output PATH\n"
     "                       Working copy of the generated code.\n"
     "    --input FILE.mlir  Use this MLIR file instead of the embedded matmul.\n"
     "    -o, --output PATH  Also write the generated code here.\n"
     "    --print-pipeline   Print the pass pipeline and exit.\n"
     "\n" LT_MAN_ENVIRONMENT
     "\n"
     "EXIT STATUS\n"
     "    0 done; 1 the input does not parse or a pass failed; 2 usage error.\n"},
};

}  // namespace

bool print_manual(std::string_view command, const std::string &commands, FILE *out) {
  for (const Page &p : kPages) {
    if (command != p.command) continue;
    std::string_view text = p.text;
    if (auto at = text.find("@@COMMANDS@@"); at != std::string_view::npos) {
      std::fwrite(text.data(), 1, at, out);
      std::fputs(commands.c_str(), out);
      text.remove_prefix(at + std::strlen("@@COMMANDS@@"));
    }
    std::fwrite(text.data(), 1, text.size(), out);
    return true;
  }
  return false;
}

void print_version(const char *tool, FILE *out) {
  std::fprintf(out, "%s %s\n", tool, LOWERTRACE_VERSION_STRING);
}

}  // namespace lowertrace::cli
