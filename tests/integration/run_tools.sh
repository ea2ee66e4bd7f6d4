#!/usr/bin/env bash
# `lowertrace run -- <mlir-opt-22|opt-22|clang-22 ...>`: the right print flags
# are added, the tool's stdout and exit status are its own, its stderr keeps
# its diagnostics but not the dump text, and the trace has the passes.
set -u
LT=${LT_BIN:?}/lowertrace
MLIROPT=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
OPT=$(command -v opt-22 || echo /usr/lib/llvm-22/bin/opt)
CLANG=$(command -v clang-22 || echo /usr/lib/llvm-22/bin/clang)
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
MLIR
cat > small.c <<'C'
int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; ++i) s += a[i] * a[i]; return s; }
C

same() {  # same <name> <cmd...>: plain vs traced run of one command
  local name=$1; shift
  "$@" > "$name.ref.out" 2> "$name.ref.err"; local rc_ref=$?
  "$LT" run --dir "$work/t_$name" -- "$@" > "$name.got.out" 2> "$name.got.err"; local rc_got=$?
  [ $rc_ref = $rc_got ] || bad "$name: exit $rc_got, tool alone exits $rc_ref"
  cmp -s "$name.ref.out" "$name.got.out" || bad "$name: stdout differs"
  grep -q 'IR Dump' "$name.got.err" && bad "$name: dump text leaked to stderr"
  # The tool's own stderr lines all survive.
  while IFS= read -r l; do grep -qxF -- "$l" "$name.got.err" || bad "$name: lost stderr line: $l"; done < "$name.ref.err"
  $SUM "$work/t_$name" > "$name.sum"
}

same mlir "$MLIROPT" in.mlir --pass-pipeline='builtin.module(func.func(canonicalize,cse))'
[ "$(wc -l < mlir.sum)" = 2 ] || bad "mlir: want 2 records, got $(cat mlir.sum)"
grep -q $'canonicalize\tcompleted' mlir.sum || bad "mlir: canonicalize missing"

# A failing pipeline: exit status and the diagnostic are the tool's; the pass is failed.
same mlirfail "$MLIROPT" in.mlir --pass-pipeline='builtin.module(func.func(canonicalize,test-pass-failure))'
grep -q $'test-pass-failure\tfailed' mlirfail.sum || bad "mlirfail: no failed record"

"$CLANG" -O0 -Xclang -disable-O0-optnone -emit-llvm -S small.c -o small.ll
same opt "$OPT" -passes='default<O2>' small.ll -S
[ "$(wc -l < opt.sum)" -gt 50 ] || bad "opt: too few records"

same clang "$CLANG" -O2 -c small.c -o small.o
grep -q $'\tmir\t' clang.sum || bad "clang: no machine passes"
[ -s small.o ] || bad "clang: no object file"

[ $fail = 0 ] && echo "PASS run_tools"
exit $fail
