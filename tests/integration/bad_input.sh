#!/usr/bin/env bash
# Bad input and faults: each gets a one-line warning, and the compiler's
# output and exit status stay exactly mlir-opt-22's.
#   - an unknown TL_LOWER_TRACE value
#   - an unwritable trace dir
#   - a full disk (a file-size limit makes every trace write fail)
set -u
BIN=${LT_BIN:?}/lowertrace-opt
REF=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
pass=0; fail=0
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
cd "$work"
cat > in.mlir <<'MLIR'
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  return %x : i32
}
MLIR
PIPE='builtin.module(func.func(canonicalize,cse))'
"$REF" in.mlir --pass-pipeline="$PIPE" > ref.out 2> ref.err; echo $? > ref.rc

same() {  # same <name>: compare got.* with ref.*
  if cmp -s ref.out got.out && cmp -s ref.rc got.rc; then pass=$((pass+1)); else bad "$1: output or exit status changed"; fi
}

# Unknown mode: warned once, traced as html.
TL_LOWER_TRACE=loud TL_LOWER_TRACE_DIR="$work/t1" "$BIN" in.mlir --pass-pipeline="$PIPE" > got.out 2> got.err; echo $? > got.rc
same unknown-mode
[ "$(grep -c "WARNING: unknown TL_LOWER_TRACE value 'loud'" got.err)" = 1 ] && pass=$((pass+1)) || bad "unknown-mode: no single warning"
[ -e "$work/t1/in/report.html" ] && pass=$((pass+1)) || bad "unknown-mode: not traced as html"

# Unwritable trace dir (below a regular file, so even root cannot create it).
echo x > plainfile
TL_LOWER_TRACE=both TL_LOWER_TRACE_DIR="$work/plainfile/sub" "$BIN" in.mlir --pass-pipeline="$PIPE" > got.out 2> got.err; echo $? > got.rc
same unwritable-dir
grep -q 'WARNING: could not save raw trace files' got.err && pass=$((pass+1)) || bad "unwritable-dir: no warning"
n=$(grep -c 'WARNING' got.err)
[ "$n" -le 3 ] && pass=$((pass+1)) || bad "unwritable-dir: $n warnings (one per sink expected)"

# Full disk: the trace dir is a 48 KiB tmpfs in a private mount namespace, so
# trace writes fail with ENOSPC part-way through the run.
full_disk() {  # full_disk <name> <input>
  "$REF" "$2" --pass-pipeline="$PIPE" > ref.out 2> ref.err; echo $? > ref.rc
  mkdir -p "$work/small"
  unshare -m bash -c "mount -t tmpfs -o size=48k tmpfs '$work/small' &&
    TL_LOWER_TRACE=both TL_LOWER_TRACE_DIR='$work/small/t' '$BIN' '$2' --pass-pipeline='$PIPE' \
      > got.out 2> got.err; echo \$? > got.rc; df -k '$work/small' | tail -1 > df.txt"
  if [ ! -s df.txt ]; then echo "SKIP: $1 (cannot mount a tmpfs here)"; return; fi
  same "$1"
  grep -q 'WARNING' got.err && pass=$((pass+1)) || bad "$1: no warning"
  grep -q 'pipeline/' got.err && pass=$((pass+1)) || bad "$1: pass lines missing"
  rm -f df.txt
}
python3 - > big.mlir <<'PY'
print("module {")
for i in range(400):
    print(f"  func.func @f{i}(%a: i32) -> i32 {{\n    %c0 = arith.constant 0 : i32\n    %x = arith.addi %a, %c0 : i32\n    return %x : i32\n  }}")
print("}")
PY
full_disk full-disk big.mlir

echo "$pass passed, $fail failed"
[ $fail = 0 ]
