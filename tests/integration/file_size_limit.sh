#!/bin/bash
# Trace I/O never kills or changes the compile: under `ulimit -f` with the
# output on a pipe, the raw trace files outgrow the limit. Without the fix
# the traced tools died of SIGXFSZ (exit 153, output cut); now they exit and
# print exactly as the untraced tools do, with one trace I/O warning.
set -uo pipefail
: "${LT_BIN:?}"
PLUGIN="${LT_LLVM_PLUGIN:-$LT_BIN/../lib/liblowertrace-llvm.so}"
OPT=${OPT:-opt-22}
MLIR_OPT=${MLIR_OPT:-mlir-opt-22}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

# ~190 KB of dead functions that the pass removes: the before-IR is far over
# 100 KiB, the output is tiny (it goes through a pipe, outside the limit).
python3 - <<'PY'
with open("in.mlir", "w") as f:
    for i in range(3000):
        f.write(f"func.func private @dead_function_number_{i}() {{\n  return\n}}\n")
    f.write("func.func @keep() {\n  return\n}\n")
with open("in.ll", "w") as f:
    for i in range(3000):
        f.write(f"define internal void @dead_function_number_{i}() {{\n  ret void\n}}\n")
    f.write("define void @keep() {\n  ret void\n}\n")
PY

# Runs a command under the limit with stdout and stderr on pipes (files
# beyond the limit are the trace's only); prints its exit status.
limited() {  # stdout file, stderr file, command...
  local out=$1 err=$2; shift 2
  { ( ulimit -f 100; exec "$@" 2>&3 3>&- ) | cat >"$out"; echo "${PIPESTATUS[0]}" >"$out.status"; } 3>&1 | cat >"$err"
  cat "$out.status"
}

ref=$(limited ref.out ref.err "$MLIR_OPT" in.mlir --pass-pipeline='builtin.module(symbol-dce)')
[ "$ref" = 0 ] || fail "mlir-opt-22 itself exit $ref"
for mode in html terminal both; do
  got=$(TL_LOWER_TRACE=$mode TL_LOWER_TRACE_DIR="$tmp/t_$mode" limited got.out got.err \
        "$LT_BIN/lowertrace-opt" in.mlir --pass-pipeline='builtin.module(symbol-dce)')
  [ "$got" = 0 ] || fail "lowertrace-opt ($mode) exit $got under ulimit -f (mlir-opt-22: 0): $(tail -3 got.err)"
  cmp -s ref.out got.out || fail "lowertrace-opt ($mode) output differs from mlir-opt-22's"
  grep -q 'WARNING: .*File too large' got.err || fail "no trace I/O warning ($mode): $(grep -v "^[-+ @]" got.err | tail -3)"
done
echo "ok - lowertrace-opt under ulimit -f: exit 0, output identical, a trace I/O warning"

[ -f "$PLUGIN" ] || fail "$PLUGIN not built"
ref=$(limited ref.out ref.err "$OPT" -passes=globaldce in.ll -S -o -)
[ "$ref" = 0 ] || fail "opt-22 itself exit $ref"
got=$(TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/t_llvm" limited got.out got.err \
      "$OPT" -load-pass-plugin="$PLUGIN" -passes=globaldce in.ll -S -o -)
[ "$got" = 0 ] || fail "opt-22 with the plugin exit $got under ulimit -f: $(tail -3 got.err)"
cmp -s ref.out got.out || fail "opt-22 output changed by the plugin"
grep -q 'WARNING: .*File too large' got.err || fail "no trace I/O warning (plugin): $(grep -v "^[-+ @]" got.err | tail -3)"
echo "ok - opt-22 + plugin under ulimit -f: exit 0, output identical, a trace I/O warning"
