#!/usr/bin/env bash
# With --verify-each=0 a pass may leave invalid IR behind. lowertrace-opt must
# then let the printer verify each snapshot, so invalid IR is shown in generic
# form (as mlir-opt-22 prints it) and never reaches a custom printer that
# trusts the verifier. With verification on, the traced output is unchanged.
set -u
BIN=${LT_BIN:?}/lowertrace-opt
REF=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
cd "$work"
cat > in.mlir <<'MLIR'
func.func @f(%a: i32) -> i32 {
  return %a : i32
}
MLIR
# The test pass adds "test.any_attr_of_i32_str" without its required attribute.
PIPE='builtin.module(func.func(test-pass-create-invalid-ir{emit-invalid-ir=true}))'

"$REF" in.mlir --pass-pipeline="$PIPE" --verify-each=0 > ref.out 2> ref.err; echo $? > ref.rc
TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$work/t" NO_COLOR=1 \
  "$BIN" in.mlir --pass-pipeline="$PIPE" --verify-each=0 > got.out 2> got.err; echo $? > got.rc
if cmp -s ref.out got.out && cmp -s ref.rc got.rc; then ok; else bad "output or exit status differs from mlir-opt-22"; fi
grep -q '^"builtin.module"() ({' ref.out && ok || bad "mlir-opt-22 no longer prints this IR in generic form; the test needs another invalid op"

run=$(ls -d "$work"/t/in/.run_records/run_*)
after=$(ls "$run"/pipeline/*test-pass-create-invalid-ir_after.mlir 2>/dev/null | head -1)
outer=$(ls "$run"/pipeline/*func.func*_after.mlir 2>/dev/null | head -1)
if [ -z "$after" ] || [ -z "$outer" ]; then
  bad "raw after-files missing: $(ls "$run"/pipeline 2>&1 | tr '\n' ' ')"
else
  # The nested pass's snapshot is the function alone, the adaptor's the module.
  grep -q '"func.func"() <{' "$after" && grep -q '"test.any_attr_of_i32_str"' "$after" && ok \
    || bad "nested snapshot of invalid IR is not in generic form: $(head -3 "$after")"
  grep -q '^"builtin.module"() ({' "$outer" && ok \
    || bad "module snapshot of invalid IR is not in generic form: $(head -3 "$outer")"
  grep -q 'CHANGED (+' got.err && ok || bad "no CHANGED line: $(cat got.err)"
fi

# Verification on (the default): the pass fails verification; same output and
# status as mlir-opt-22, and the failure is recorded.
"$REF" in.mlir --pass-pipeline="$PIPE" > ref2.out 2> ref2.err; echo $? > ref2.rc
TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$work/t2" NO_COLOR=1 \
  "$BIN" in.mlir --pass-pipeline="$PIPE" > got2.out 2> got2.err; echo $? > got2.rc
if cmp -s ref2.out got2.out && cmp -s ref2.rc got2.rc; then ok; else bad "verified run: output or exit status differs"; fi
[ "$(cat got2.rc)" != 0 ] && ok || bad "verified run should fail"
grep -q 'FAILED (' got2.err && ok || bad "no FAILED record line: $(cat got2.err)"

echo "unverified_ir: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
