#!/usr/bin/env bash
# lowertrace-opt must print the same bytes and exit with the same status as
# Debian's mlir-opt-22 for the same arguments, traced or not; its stderr may
# differ only by lowertrace's own "[lower_trace]" lines.
set -u
BIN=${LT_BIN:?}/lowertrace-opt
REF=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
SAMPLES=${LT_FIXTURES:?}/samples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0; n=0

cat > "$work/two.mlir" <<'MLIR'
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %x : i32
  %z = arith.muli %x, %x : i32
  %r = arith.addi %y, %z : i32
  return %r : i32
}
func.func private @dead() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}
// -----
func.func @g(%a: f32) -> f32 {
  return %a : f32
}
MLIR
cat > "$work/fail.mlir" <<'MLIR'
module attributes {gpu.container_module} {
  gpu.module @k { gpu.func @kern() kernel { gpu.return } }
}
MLIR
cat > "$work/bad_syntax.mlir" <<'MLIR'
func.func @f( {
MLIR
cat > "$work/diag.mlir" <<'MLIR'
// expected-error @+1 {{custom op 'func.func' expected valid '@'-identifier for symbol name}}
func.func @
MLIR

# gpu-module-to-binary writes its own wall time into the IR; nothing else
# may differ.
normalise() { sed -i -E 's/LLVMIRToISATimeInMs = [0-9]+/LLVMIRToISATimeInMs = N/g' "$1"; }

check() {  # check <name> <args...>
  local name=$1; shift
  n=$((n+1))
  (cd "$work" && "$REF" "$@" > ref.out 2> ref.err; echo $? > ref.rc)
  normalise "$work/ref.out"
  for mode in 0 terminal both; do
    (cd "$work" && TL_LOWER_TRACE=$mode TL_LOWER_TRACE_DIR="$work/trace" NO_COLOR=1 \
        "$BIN" "$@" > got.out 2> got.err; echo $? > got.rc)
    normalise "$work/got.out"
    if ! cmp -s "$work/ref.out" "$work/got.out"; then
      echo "FAIL [$name, mode=$mode]: stdout differs"; diff "$work/ref.out" "$work/got.out" | head -5 | cut -c1-300; fail=1
    fi
    if ! cmp -s "$work/ref.rc" "$work/got.rc"; then
      echo "FAIL [$name, mode=$mode]: exit $(cat "$work/got.rc") != $(cat "$work/ref.rc")"; fail=1
    fi
    grep -v '^  \[lower_trace\]' "$work/got.err" | grep -v '^[-+@ ]' > "$work/got.err.f" || true
    grep -v '^[-+@ ]' "$work/ref.err" > "$work/ref.err.f" || true
    if [ "$mode" = 0 ] && ! cmp -s "$work/ref.err" "$work/got.err"; then
      echo "FAIL [$name, mode=$mode]: stderr differs with tracing off"; diff "$work/ref.err" "$work/got.err" | head -5 | cut -c1-300; fail=1
    fi
    if ! cmp -s "$work/ref.err.f" "$work/got.err.f"; then
      echo "FAIL [$name, mode=$mode]: stderr differs beyond [lower_trace] lines"; diff "$work/ref.err.f" "$work/got.err.f" | head -5 | cut -c1-300; fail=1
    fi
  done
}

check canon-cse two.mlir --split-input-file --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)'
check canon-cse-nothreads two.mlir --split-input-file --mlir-disable-threading --canonicalize --cse
check generic-form two.mlir --split-input-file --mlir-print-op-generic -cse
check print-ir-after-all two.mlir --split-input-file --mlir-disable-threading --mlir-print-ir-after-all -canonicalize
check output-file two.mlir --split-input-file -canonicalize -o out.mlir
check failing-pass fail.mlir --pass-pipeline='builtin.module(canonicalize,gpu-module-to-binary)'
check parse-error bad_syntax.mlir -canonicalize
check verify-diagnostics diag.mlir --verify-diagnostics
check missing-input does-not-exist.mlir -canonicalize
check unknown-pass two.mlir --pass-pipeline='builtin.module(no-such-pass)'
check gpu-matmul "$SAMPLES/mlir-gpu/matmul.mlir" --pass-pipeline="$(cat "$SAMPLES/mlir-gpu/pipeline_gpu.txt")"
check cpu-matmul "$SAMPLES/mlir-gpu/matmul.mlir" --pass-pipeline="$(cat "$SAMPLES/mlir-gpu/pipeline_cpu.txt")"
check sample-input "$SAMPLES/mlir/input.mlir" --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)'
check show-dialects --show-dialects

echo "$n cases, each in 3 trace modes"
if [ $fail = 0 ]; then echo "$((n*3)) passed, 0 failed"; exit 0; fi
exit 1
