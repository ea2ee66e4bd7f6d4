#!/usr/bin/env bash
# `lowertrace run -- <clang-22|opt-22|mlir-opt-22|llc-22|any *-opt ...>`: the
# tool's stdout, stderr and exit status are byte for byte its own (lowertrace's
# "[lower_trace]" lines come only after them), no tool output ends up in a
# record's IR, and the trace has the passes in the order they ran.
#   clang/opt    in process with the LLVM plugin (no dumps at all)
#   mlir-opt-22  in process as lowertrace-opt
#   my-opt       an unknown MLIR tool (a wrapper): dumps split off its stderr
#   llc          -print-after-all MIR dumps split off its stderr
set -u
LT=${LT_BIN:?}/lowertrace
MLIROPT=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
OPT=$(command -v opt-22 || echo /usr/lib/llvm-22/bin/opt)
CLANG=$(command -v clang-22 || echo /usr/lib/llvm-22/bin/clang)
LLC=$(command -v llc-22 || echo /usr/lib/llvm-22/bin/llc)
SUM="python3 ${LT_SRC:?}/tests/data/dumps/trace_summary.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$work"

cat > in.mlir <<'MLIR'
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  return %x : i32
}
func.func @g(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %x = arith.muli %a, %c1 : i32
  return %x : i32
}
MLIR
cat > bad.mlir <<'MLIR'
func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i64
  return %x : i32
}
MLIR
cat > warn.c <<'C'
int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; ++i) s += a[i] * a[i]; return s; }
int unused(void) { int y; return y; }
C
cat > other.c <<'C'
int twice(int x) { return x * 2; }
C
cat > broken.c <<'C'
int f(void) { return undeclared_thing + ; }
C
cat > main.c <<'C'
int main(void) { return 0; }
C
printf '#!/bin/sh\nexec "%s" "$@"\n' "$MLIROPT" > my-opt
chmod +x my-opt

# same <name> <cmd...>: the tool alone, then under lowertrace run. Exit status
# and stdout must match; stderr must be the tool's bytes followed only by
# lowertrace's own lines. `mask=1 same ...` compares stderr with numbers and
# runs of blanks masked (a timing report's figures differ from run to run).
same() {
  local name=$1; shift
  "$@" > "$name.ref.out" 2> "$name.ref.err"; local rc_ref=$?
  "$LT" run --dir "$work/t_$name" -- "$@" > "$name.got.out" 2> "$name.got.err"; local rc_got=$?
  [ $rc_ref = $rc_got ] || bad "$name: exit $rc_got, tool alone exits $rc_ref"
  cmp -s "$name.ref.out" "$name.got.out" || bad "$name: stdout differs"
  # Ours: the trailing "[lower_trace]" lines. The rest must be the tool's bytes.
  python3 - "$name.got.err" "$name.tool.err" "$name.ours.err" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
lines = data.splitlines(keepends=True)
i = len(lines)
while i > 0 and lines[i - 1].startswith(b"  [lower_trace] "):
    i -= 1
open(sys.argv[2], "wb").write(b"".join(lines[:i]))
open(sys.argv[3], "wb").write(b"".join(lines[i:]))
PY
  if [ "${mask:-0}" = 1 ]; then
    m() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/[ ]+/ /g' "$1"; }
    [ "$(m "$name.ref.err")" = "$(m "$name.tool.err")" ] || { bad "$name: stderr differs (masked)"; diff <(m "$name.ref.err") <(m "$name.tool.err") | head -20; }
  else
    cmp -s "$name.ref.err" "$name.tool.err" || { bad "$name: stderr differs"; diff "$name.ref.err" "$name.tool.err" | head -20; }
  fi
  grep -q 'IR Dump' "$name.got.err" && bad "$name: dump text on stderr"
  grep -q 'WARNING' "$name.ours.err" && bad "$name: lowertrace warned: $(grep WARNING "$name.ours.err" | head -2)"
  mkdir -p "$name.texts"
  $SUM "$work/t_$name" --texts "$name.texts" > "$name.sum" 2>/dev/null
  return 0
}
# no_tool_text <name> <fixed string>: no record's IR holds the tool's own output.
no_tool_text() { grep -rlF -- "$2" "$1.texts" >/dev/null && bad "$1: tool output '$2' inside a record's IR"; return 0; }

# --- clang and opt: in process, with the plugin -----------------------------
same clang "$CLANG" -O2 -Wall -c warn.c -o warn.o
grep -q 'warning: variable .y. is uninitialized' clang.ref.err || bad "clang: the test needs a warning"
[ "$(grep -c $'\tllvm\t' clang.sum)" -gt 50 ] || bad "clang: too few LLVM pass records: $(wc -l < clang.sum)"
grep -q $'\tSROAPass\t' clang.sum || bad "clang: no SROA record"
# The back end too (the plugin's shadow codegen), with no dump on stderr.
grep -q $'\tmir\tX86 DAG->DAG Instruction Selection\t' clang.sum || bad "clang: no machine pass records"
[ -s warn.o ] || bad "clang: no object file"
grep -q 'Final HTML report' clang.ours.err || bad "clang: lowertrace did not say where the report is"

same clangfail "$CLANG" -O2 -c broken.c -o broken.o
[ -s clangfail.ref.err ] || bad "clangfail: the compile should fail with diagnostics"

# Several translation units: one trace each.
same clang2 "$CLANG" -O2 -c warn.c other.c
[ "$(cut -f1 clang2.sum | sort -u | wc -l)" = 2 ] || bad "clang2: want 2 runs, got $(cut -f1 clang2.sum | sort -u | wc -l)"
[ "$(grep $'\tmir\t' clang2.sum | cut -f1 | sort -u | wc -l)" = 2 ] || bad "clang2: want machine passes in both runs"
[ -d t_clang2/warn ] && [ -d t_clang2/other ] || bad "clang2: want trace folders warn/ and other/: $(ls t_clang2)"

# Link only: nothing compiled, no trace, no error.
"$CLANG" -c main.c -o main.o && "$CLANG" -c other.c -o other.o
same link "$CLANG" main.o other.o -o prog
[ -s link.sum ] && bad "link: a link-only run made records"
[ -x prog ] || bad "link: no program linked"

# clang++ (a C++ driver name) goes the same way.
cat > tiny.cpp <<'CXX'
template <class T> T sq(T x) { return x * x; }
struct S { virtual ~S() = default; virtual int f() const { return sq(3); } };
int use(const S &s) { return s.f() + sq(2); }
CXX
same clangxx "${CLANG/clang/clang++}" -O1 -Wall -c tiny.cpp -o tiny.o
grep -q $'\tllvm\t' clangxx.sum || bad "clangxx: no LLVM pass records"

# -### runs nothing and prints the jobs: they must not show an added flag.
same clangdry "$CLANG" -### -O2 -c warn.c

# Without the plugin next to lowertrace: a warning, then dumps split off stderr.
mkdir -p lonely && cp "$LT" lonely/
"$CLANG" -O2 -Wall -c warn.c -o warn3.o 2> lonely.ref.err; rc_ref=$?
lonely/lowertrace run --dir "$work/t_lonely" -- "$CLANG" -O2 -Wall -c warn.c -o warn3.o 2> lonely.got.err; rc_got=$?
[ $rc_ref = $rc_got ] || bad "lonely: exit $rc_got, tool alone exits $rc_ref"
grep -q 'WARNING: run: liblowertrace-llvm.so is not installed' lonely.got.err || bad "lonely: no word about the missing plugin"
grep -v '^  \[lower_trace\] ' lonely.got.err | cmp -s - lonely.ref.err || bad "lonely: the tool's stderr differs: $(grep -v '^  \[lower_trace\] ' lonely.got.err | diff - lonely.ref.err | head -5)"
$SUM "$work/t_lonely" > lonely.sum
grep -q $'\tmir\t' lonely.sum || bad "lonely: no machine pass records from the stderr dumps"

"$CLANG" -O0 -Xclang -disable-O0-optnone -emit-llvm -S warn.c -o warn.ll 2>/dev/null
same opt "$OPT" -passes='default<O2>' warn.ll -S
[ "$(wc -l < opt.sum)" -gt 50 ] || bad "opt: too few records"
grep -q $'\tInstCombinePass\t' opt.sum || bad "opt: no InstCombinePass record"

# The channel run uses: TL_LOWER_TRACE_LOG takes lowertrace's lines off stderr.
TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$work/t_log" TL_LOWER_TRACE_LOG="$work/own.log" \
  "$OPT" -load-pass-plugin="$LT_BIN/../lib/liblowertrace-llvm.so" -passes=instcombine warn.ll -S -o /dev/null 2> log.err
[ -s log.err ] && bad "TL_LOWER_TRACE_LOG: lowertrace still wrote to stderr: $(head -2 log.err)"
grep -q 'Final HTML report' own.log || bad "TL_LOWER_TRACE_LOG: no lines in the log file"

# --- mlir-opt-22: in process as lowertrace-opt ------------------------------
PIPE='builtin.module(func.func(canonicalize,cse))'
same mlir "$MLIROPT" in.mlir --pass-pipeline="$PIPE" --mlir-pass-statistics
grep -q 'Pass statistics report' mlir.ref.err || bad "mlir: no statistics report to compare"
[ "$(grep -c $'\tcanonicalize\tcompleted' mlir.sum)" -ge 1 ] || bad "mlir: canonicalize missing: $(cat mlir.sum)"
no_tool_text mlir 'Pass statistics report'

mask=1 same mlirtiming "$MLIROPT" in.mlir --pass-pipeline="$PIPE" --mlir-timing
grep -q 'Execution time report' mlirtiming.ref.err || bad "mlirtiming: no timing report to compare"
no_tool_text mlirtiming 'Execution time report'

same mlirdiag "$MLIROPT" bad.mlir -canonicalize
grep -q '^ *\^' mlirdiag.ref.err || bad "mlirdiag: the test needs a caret line"

same mlirfail "$MLIROPT" in.mlir --pass-pipeline='builtin.module(func.func(canonicalize,test-pass-failure))'
grep -q $'test-pass-failure\tfailed' mlirfail.sum || bad "mlirfail: no failed record: $(cat mlirfail.sum)"

# The tool's own stderr between passes (the call graph printer writes to
# stderr): byte-identical, in no record's IR, records in pass order.
ORDER='builtin.module(func.func(canonicalize),test-print-callgraph,cse)'
same mlirorder "$MLIROPT" in.mlir --pass-pipeline="$ORDER"
grep -q 'CallGraph' mlirorder.ref.err || bad "mlirorder: the call graph printer printed nothing"
no_tool_text mlirorder 'CallGraph'
order=$(cut -f4 mlirorder.sum | grep -v '^func.func(' | tr '\n' ' ')  # the nested pipeline's own record aside
[ "$order" = "canonicalize test-print-callgraph cse " ] || bad "mlirorder: records out of order: $order"

# A "--" inside the command is the tool's.
same mlirdashdash "$MLIROPT" -canonicalize -- in.mlir
grep -q 'func.func @f' mlirdashdash.ref.out || bad "mlirdashdash: the tool printed no IR"
grep -q $'\tcanonicalize\t' mlirdashdash.sum || bad "mlirdashdash: no canonicalize record"

# A crashing pass: the same exit status and crash text up to the stack
# (whose frames name the executable that crashed), and a failed record.
"$MLIROPT" in.mlir --pass-pipeline='builtin.module(test-pass-crash)' > crash.ref.out 2> crash.ref.err; rc_ref=$?
"$LT" run --dir "$work/t_crash" -- "$MLIROPT" in.mlir --pass-pipeline='builtin.module(test-pass-crash)' \
  > crash.got.out 2> crash.got.err; rc_got=$?
[ $rc_ref = $rc_got ] || bad "crash: exit $rc_got, tool alone exits $rc_ref"
sed -n '1,/^Stack dump:/p' crash.ref.err > crash.ref.head
sed -n '1,/^Stack dump:/p' crash.got.err > crash.got.head
cmp -s crash.ref.head crash.got.head || bad "crash: the crash text differs: $(diff crash.ref.head crash.got.head | head -5)"
grep -F "$(grep '^0\.' crash.ref.err)" crash.got.err > /dev/null || bad "crash: the program arguments line differs"
grep -q 'test-pass-crash.*FAILED' crash.got.err || bad "crash: no failed record for the crashing pass"

# --- an unknown MLIR tool: dumps on its stderr, split off -------------------
same myopt ./my-opt in.mlir --pass-pipeline="$PIPE" --mlir-pass-statistics
grep -q 'Pass statistics report' myopt.tool.err || bad "myopt: statistics report lost"
no_tool_text myopt 'Pass statistics report'
[ "$(grep -c $'\tcanonicalize\tcompleted' myopt.sum)" = 2 ] || bad "myopt: want 2 canonicalize records: $(cat myopt.sum)"
same myoptdiag ./my-opt bad.mlir -canonicalize
same myoptfail ./my-opt in.mlir --pass-pipeline='builtin.module(func.func(canonicalize,test-pass-failure))'
grep -q $'test-pass-failure\tfailed' myoptfail.sum || bad "myoptfail: no failed record: $(cat myoptfail.sum)"
same myoptorder ./my-opt in.mlir --pass-pipeline="$ORDER"
no_tool_text myoptorder 'CallGraph'
order=$(cut -f4 myoptorder.sum | tr '\n' ' ')
[ "$order" = "canonicalize canonicalize test-print-callgraph cse " ] || bad "myoptorder: records out of order: $order"
same myoptdashdash ./my-opt -canonicalize -- in.mlir
grep -q $'\tcanonicalize\t' myoptdashdash.sum || bad "myoptdashdash: no canonicalize record"

# --- llc: machine passes on stderr, split off -------------------------------
"$CLANG" -O2 -S -emit-llvm warn.c -o warn2.ll 2>/dev/null
same llc "$LLC" -O2 warn2.ll -o warn2.s
[ -s warn2.s ] || bad "llc: no assembly"
grep -q $'\tmir\t' llc.sum || grep -q 'Machine code' llc.texts/* || bad "llc: no machine pass records"
[ "$(wc -l < llc.sum)" -gt 20 ] || bad "llc: too few records"

# --- an install layout: <prefix>/bin/lowertrace finds <prefix>/lib/liblowertrace-llvm.so
mkdir -p prefix/bin prefix/lib
cp "$LT" prefix/bin/ && cp "$LT_BIN/../lib/liblowertrace-llvm.so" prefix/lib/
LT="$work/prefix/bin/lowertrace" same installed "$CLANG" -O2 -c other.c -o other2.o
[ "$(grep -c $'\tllvm\t' installed.sum)" -gt 10 ] || bad "installed: the installed plugin traced nothing"

[ $fail = 0 ] && echo "PASS run_tools"
exit $fail
