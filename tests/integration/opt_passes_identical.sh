#!/usr/bin/env bash
# lowertrace-opt must have exactly mlir-opt-22's dialects and passes, including
# the test dialects (test, test_dyn, test_irdl_to_cpp), the test extensions of
# the transform dialect and the test passes/pipelines that Debian links into
# mlir-opt-22 from its static libMLIR*Test*.a. Every case compares stdout bytes
# and the exit status with mlir-opt-22, and stderr without lowertrace's own
# "  [lower_trace]" lines, traced or not.
set -u
BIN=${LT_BIN:?}/lowertrace-opt
REF=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0; n=0

# Ops of all three test dialects; test.op_a is rewritten to test.op_b by
# test-greedy-patterns.
cat > "$work/testdialect.mlir" <<'MLIR'
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = test.format_all_types_match_var %a, %b : i32
  %1 = "test.op_a"(%0) {attr = 10 : i32} : (i32) -> i32
  test.format_literal_op keyword_$. -> :, = <> () []( ) ? + * {
  } {foo.some_attr}
  %2 = "test_dyn.one_result"() : () -> i32
  %3 = "test_irdl_to_cpp.bar"() : () -> i32
  return %1 : i32
}
func.func @g() {
  return
}
MLIR
# One op of each of the other two test transform extensions (TestTransforms,
# TilingInterface); unregistered ops would be rejected by the transform dialect.
cat > "$work/transform_ext.mlir" <<'MLIR'
module attributes {transform.with_named_sequence} {
  transform.named_sequence @seq(%a: !transform.any_op {transform.consumed}, %b: !transform.any_op {transform.consumed}) {
    "transform.test.move_operand_deps"(%a, %b) : (!transform.any_op, !transform.any_op) -> ()
    %t:2 = "transform.test.fuse_and_yield"(%b) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
MLIR
# Runs two ops of the main test transform extension (remarks on stderr).
cat > "$work/transform_run.mlir" <<'MLIR'
module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  func.func @g() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.test_produce_param_with_number_of_test_ops %f : !transform.any_op
    transform.debug.emit_param_as_remark %p : !transform.test_dialect_param
    transform.test_emit_remark_and_erase_operand %f, "erasing" : !transform.any_op
    transform.yield
  }
}
MLIR
cat > "$work/arith.mlir" <<'MLIR'
func.func @h(%a: i32) -> i32 {
  %c = arith.constant 2 : i32
  %r = arith.muli %a, %c : i32
  return %r : i32
}
MLIR

# check <name> <expected mlir-opt-22 exit status> <args...>
# The expected status keeps a case from passing vacuously (e.g. both tools
# rejecting an input that was meant to parse).
check() {
  local name=$1 want=$2; shift 2
  n=$((n+1))
  (cd "$work" && "$REF" "$@" > ref.out 2> ref.err; echo $? > ref.rc)
  if [ "$(cat "$work/ref.rc")" != "$want" ]; then
    echo "FAIL [$name]: mlir-opt-22 exited $(cat "$work/ref.rc"), the case expects $want"; head -3 "$work/ref.err"; fail=1
  fi
  for mode in 0 terminal both; do
    rm -rf "$work/trace"
    (cd "$work" && TL_LOWER_TRACE=$mode TL_LOWER_TRACE_DIR="$work/trace" NO_COLOR=1 \
        "$BIN" "$@" > got.out 2> got.err; echo $? > got.rc)
    if ! cmp -s "$work/ref.out" "$work/got.out"; then
      echo "FAIL [$name, mode=$mode]: stdout differs"; diff "$work/ref.out" "$work/got.out" | head -5 | cut -c1-300; fail=1
    fi
    if ! cmp -s "$work/ref.rc" "$work/got.rc"; then
      echo "FAIL [$name, mode=$mode]: exit $(cat "$work/got.rc") != $(cat "$work/ref.rc")"; fail=1
    fi
    # The terminal sink also prints its diff hunks (lines starting with
    # - + @ or space) on stderr; mlir-opt's diagnostics never start that way.
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

# Registration: the listings are compared byte for byte (the column width of
# --list-passes depends on the longest registered option, so a missing or
# extra test pass shows up even beyond its own line).
check show-dialects 0 --show-dialects
check list-passes 0 --list-passes
# --help also lists the pass pipelines; only its "Compiler passes to run"
# group is compared (USAGE names the binary, and lowertrace adds its options).
n=$((n+1))
passes_section() { awk '/^  Compiler passes to run$/{on=1} on&&/^[^ ]/{exit} on' ; }
"$REF" --help | passes_section > "$work/ref.help"
"$BIN" --help | passes_section > "$work/got.help"
if [ "$(grep -c -- '--test-' "$work/ref.help")" -lt 100 ]; then
  echo "FAIL [help-passes]: mlir-opt-22 --help lists fewer than 100 test passes; is it the build with test passes?"; fail=1
elif ! cmp -s "$work/ref.help" "$work/got.help"; then
  echo "FAIL [help-passes]: --help pass/pipeline section differs"; diff "$work/ref.help" "$work/got.help" | head -10 | cut -c1-200; fail=1
fi

# The test dialects parse and print identically, custom and generic forms.
check roundtrip-test-dialects 0 testdialect.mlir
check roundtrip-generic 0 testdialect.mlir --mlir-print-op-generic
check roundtrip-transform-extensions 0 transform_ext.mlir
check transform-test-extension 0 transform_run.mlir --transform-interpreter
# Test passes: printing to stdout, rewriting the test dialect, failing.
check test-print-nesting 0 testdialect.mlir --mlir-disable-threading --pass-pipeline='builtin.module(func.func(test-print-nesting))'
check test-print-defuse-flag 0 testdialect.mlir --test-print-defuse
check test-greedy-patterns 0 testdialect.mlir -test-greedy-patterns
check test-pass-failure 1 testdialect.mlir --pass-pipeline='builtin.module(test-pass-failure)'
check test-pass-failure-nested 1 testdialect.mlir --mlir-disable-threading --pass-pipeline='builtin.module(func.func(canonicalize,test-pass-failure))'
check test-options-pass 0 arith.mlir --pass-pipeline='builtin.module(func.func(test-options-pass{list=1,2,3 string=foo}))'
# A test pass pipeline (registered with PassPipelineRegistration).
check test-lower-to-llvm 0 arith.mlir --test-lower-to-llvm

# The trace records test passes like any other pass.
rm -rf "$work/trace"
n=$((n+1))
(cd "$work" && TL_LOWER_TRACE=both TL_LOWER_TRACE_DIR="$work/trace" NO_COLOR=1 \
    "$BIN" testdialect.mlir -test-greedy-patterns > /dev/null 2> traced.err)
if ! grep -q '^  \[lower_trace\] .*test-greedy-patterns' "$work/traced.err"; then
  echo "FAIL [trace-test-pass]: no [lower_trace] line for test-greedy-patterns"; head -3 "$work/traced.err"; fail=1
elif ! grep -rlq 'test.op_b' "$work/trace"; then
  echo "FAIL [trace-test-pass]: no recorded IR after test-greedy-patterns (test.op_b) under the trace dir"; fail=1
fi

echo "$n cases"
if [ $fail = 0 ]; then echo "$n passed, 0 failed"; exit 0; fi
exit 1
