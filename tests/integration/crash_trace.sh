#!/bin/bash
# A pass that crashes (abort(), as an LLVM fatal error ends) in lowertrace-opt
# and in the LLVM plugin under opt-22:
#  - the exit status and the compiler's own crash output (the stack dump,
#    frame addresses aside) are those of the same command without tracing;
#  - the run ends as a `failed` record naming the pass, with "crashed:
#    SIGABRT" and the IR before it, trace.json (error filled) and the final
#    report written.
set -uo pipefail
: "${LT_BIN:?}"
PLUGIN="${LT_LLVM_PLUGIN:-$LT_BIN/../lib/liblowertrace-llvm.so}"
OPT=${OPT:-opt-22}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

# The crash output without what differs from run to run (addresses, our
# lines, the names of clang's crash reproducer files).
dump_of() { grep -v '^  \[lower_trace\]' "$1" | sed -E 's/0x[0-9a-f]+/ADDR/g; s#/c-[a-z0-9]+[.]#/c-X.#g'; }

check_trace() {  # dir, expected crashed pass name, before-text must contain[, signal]
  python3 - "$1" "$2" "$3" "${4:-SIGABRT}" <<'PY' || fail "trace of $2"
import glob, json, os, sys
d, name, needle, sig = sys.argv[1:]
runs = glob.glob(os.path.join(d, "*", ".run_records", "*"))
assert len(runs) == 1, runs
run = runs[0]
j = json.load(open(os.path.join(run, "trace.json")))
crashed = [r for r in j["records"] if r["error_msg"] == "crashed: " + sig]
assert crashed, [(r["name"], r["status"], r["error_msg"]) for r in j["records"]]
r = max(crashed, key=lambda r: r["depth"])  # the pass itself, not its pipeline
# LLVM names a pass by its type as the compiler spells it: GCC writes
# {anonymous}::, clang (the sanitizer builds) (anonymous namespace)::.
spell = lambda s: s.replace("(anonymous namespace)", "{anonymous}")
assert spell(r["name"]) == name and r["status"] == "failed", r
assert r["after_text"] is None
before = open(os.path.join(run, r["before_text"]["file"])).read()
assert needle in before, before[:200]
assert j["error"].startswith("crashed: " + sig + " in "), j["error"]
assert name in spell(j["error"]), j["error"]
assert any(x["status"] == "completed" for x in j["records"]), "the pass before it is there too"
assert not os.path.exists(os.path.join(run, "report_data")), "report left live"
html = open(os.path.join(run, "report.html")).read()
assert '"live":false' in html and "crashed: " + sig in html
print("ok -", name, "->", j["error"])
PY
}

# --- lowertrace-opt -------------------------------------------------------
cat > in.mlir <<'M'
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = arith.addi %a, %c0 : i32
  return %r : i32
}
M
PIPE='builtin.module(canonicalize,test-pass-crash)'
TL_LOWER_TRACE=0 "$LT_BIN/lowertrace-opt" in.mlir --pass-pipeline="$PIPE" >plain.out 2>plain.err
plain=$?
TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/mt" "$LT_BIN/lowertrace-opt" in.mlir --pass-pipeline="$PIPE" >traced.out 2>traced.err
traced=$?
[ "$plain" = 134 ] || fail "untraced lowertrace-opt exit $plain (expected SIGABRT, 134)"
[ "$traced" = "$plain" ] || fail "exit status changed by tracing: $traced vs $plain"
cmp -s plain.out traced.out || fail "stdout changed by tracing"
diff <(dump_of plain.err) <(dump_of traced.err) >/dev/null || {
  diff <(dump_of plain.err) <(dump_of traced.err) | head -20; fail "crash output changed by tracing"; }
grep -q 'Stack dump:' traced.err || fail "no stack dump"
grep -q 'FAILED (crashed: SIGABRT)' traced.err || fail "no FAILED line: $(cat traced.err)"
# Our lines come after the compiler's crash output.
[ "$(grep -n 'Stack dump:' traced.err | cut -d: -f1)" -lt "$(grep -n 'crashed: SIGABRT' traced.err | head -1 | cut -d: -f1)" ] ||
  fail "lowertrace's lines came before the stack dump"
check_trace "$tmp/mt" test-pass-crash 'return %arg0 : i32'
echo "ok - lowertrace-opt: crashing pass recorded, exit status and stack dump unchanged"

# Nested: the crash is inside func.func(...); the nested records, which the
# instrumentation only hands over when the top-level pass ends, are there.
rm -rf "$tmp/mt"
TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/mt" "$LT_BIN/lowertrace-opt" in.mlir \
  --pass-pipeline='builtin.module(cse,func.func(canonicalize,test-pass-crash))' >/dev/null 2>nested.err
[ $? = 134 ] || fail "nested crash: exit status"
check_trace "$tmp/mt" test-pass-crash 'return %arg0 : i32'
echo "ok - lowertrace-opt: a crash in a nested pipeline names the nested pass"

# With the crash reproducer the pass manager recovers from the crash (no
# after-pass event, exit 1): the crashed nested pass is still a failed record.
REPRO=(--mlir-pass-pipeline-crash-reproducer="$tmp/repro.mlir" --pass-pipeline='builtin.module(cse,func.func(canonicalize,test-pass-crash))')
TL_LOWER_TRACE=0 "$LT_BIN/lowertrace-opt" in.mlir "${REPRO[@]}" >plain.out 2>plain.err; plain=$?
rm -rf "$tmp/mt"
TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/mt" "$LT_BIN/lowertrace-opt" in.mlir "${REPRO[@]}" >traced.out 2>traced.err; traced=$?
[ "$plain" = 1 ] && [ "$traced" = 1 ] || fail "crash reproducer: exit $plain / $traced (expected 1)"
cmp -s plain.out traced.out || fail "crash reproducer: stdout changed"
diff <(grep -v '^  \[lower_trace\]' plain.err) <(grep -v '^  \[lower_trace\]' traced.err) >/dev/null || fail "crash reproducer: stderr changed"
python3 - "$tmp/mt" <<'PY' || fail "crash reproducer: trace"
import glob, json, sys
j = json.load(open(glob.glob(sys.argv[1] + "/*/.run_records/*/trace.json")[0]))
f = [r for r in j["records"] if r["status"] == "failed"]
assert any(r["name"] == "test-pass-crash" for r in f), [(r["name"], r["status"]) for r in j["records"]]
assert "test-pass-crash" in j["error"], j["error"]
PY
echo "ok - lowertrace-opt: a crash recovered by the crash reproducer names the pass"

# --- the LLVM plugin in opt-22 -------------------------------------------
[ -f "$PLUGIN" ] || fail "$PLUGIN not built"
cat > in.ll <<'L'
define i32 @f(i32 %x) {
  %y = add i32 %x, 0
  ret i32 %y
}
L
for pipeline in 'function(instcombine),trigger-crash-module' 'instcombine,trigger-crash-function'; do
  pass=${pipeline##*,}
  "$OPT" -passes="$pipeline" in.ll -S -o plain.ll 2>plain.err
  plain=$?
  rm -rf "$tmp/lt"
  TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/lt" "$OPT" -load-pass-plugin="$PLUGIN" \
    -passes="$pipeline" in.ll -S -o traced.ll 2>traced.err
  traced=$?
  [ "$plain" = 134 ] || fail "opt-22 $pass exit $plain"
  [ "$traced" = "$plain" ] || fail "$pass: exit status changed by the plugin: $traced vs $plain"
  # The plugin's argument appears in "Program arguments:"; drop that line.
  diff <(dump_of plain.err | grep -v 'Program arguments') <(dump_of traced.err | grep -v 'Program arguments') >/dev/null || {
    diff <(dump_of plain.err) <(dump_of traced.err) | head -20; fail "$pass: crash output changed"; }
  case $pass in
    trigger-crash-module) name=TriggerCrashModulePass ;;
    *) name=TriggerCrashFunctionPass ;;
  esac
  check_trace "$tmp/lt" "$name" 'define i32 @f'
done
echo "ok - opt-22 plugin: crashing pass recorded, exit status and stack dump unchanged"

# A segfaulting pass (tests/llvm/crash_plugin.cpp) in opt-22, and an aborting
# one in clang-22's pipeline (its driver reports the crash and exits 1).
CRASHER="$LT_BIN/../lib/liblt-test-crash.so"
[ -f "$CRASHER" ] || fail "$CRASHER not built"
run_both() {  # label, expected status, command... (TL_LOWER_TRACE off, then html)
  local label=$1 want=$2; shift 2
  TL_LOWER_TRACE=0 "$@" >plain.out 2>plain.err; local plain=$?
  rm -rf "$tmp/lt"
  TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/lt" "$@" >traced.out 2>traced.err; local traced=$?
  [ "$plain" = "$want" ] || fail "$label: untraced exit $plain (expected $want)"
  [ "$traced" = "$plain" ] || fail "$label: exit status changed by the plugin: $traced vs $plain"
  diff <(dump_of plain.err) <(dump_of traced.err) >/dev/null || {
    diff <(dump_of plain.err) <(dump_of traced.err) | head -20; fail "$label: crash output changed"; }
}
LT_TEST_CRASH=segv run_both "opt-22 SIGSEGV" 139 "$OPT" -load-pass-plugin="$PLUGIN" \
  -load-pass-plugin="$CRASHER" -passes='function(instcombine),lt-test-crash' in.ll -S -o out.ll
check_trace "$tmp/lt" '{anonymous}::LtTestCrashPass' 'define i32 @f' SIGSEGV
printf 'int f(int x) { return x + 0; }\n' > c.c
TMPDIR="$tmp" LT_TEST_CRASH_AT_START=1 run_both "clang-22" 1 "${CLANG:-clang-22}" -O2 \
  -fpass-plugin="$PLUGIN" -fpass-plugin="$CRASHER" -c c.c -o c.o
check_trace "$tmp/lt" '{anonymous}::LtTestCrashPass' 'define dso_local i32 @f'
echo "ok - a segfaulting pass in opt-22 and an aborting one in clang-22: recorded, exit status and crash output unchanged"
