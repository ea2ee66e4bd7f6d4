#!/usr/bin/env bash
# Tracing cost on a 2,000-function module and a realistic CPU lowering
# pipeline, as ratios measured in the same run:
#   plain      mlir-opt-22, no dumps
#   dumps      mlir-opt-22 --mlir-print-ir-before-all --mlir-print-ir-after-all 2> file
#   untraced   lowertrace-opt, tracing off
#   html       lowertrace-opt --lower-trace=html (raw files, trace.json, report)
# Usage: bench/mlir/run.sh [build-dir] [functions] [repeats]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
n=${2:-2000}
reps=${3:-3}
OPT=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
LT=$build/bin/lowertrace-opt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_module.py" "$n" > "$work/in.mlir"
PIPE='builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion),convert-scf-to-cf,canonicalize,cse,expand-strided-metadata,finalize-memref-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,canonicalize)'

best() {  # best wall seconds of $reps runs of "$@"
  local b=""
  for _ in $(seq "$reps"); do
    rm -rf "$work/trace"
    local s e
    s=$(date +%s.%N); "$@"; e=$(date +%s.%N)
    b=$(python3 -c "import sys; a=float(sys.argv[1]); t=float(sys.argv[2])-float(sys.argv[3]); print(t if not a or t<a else a)" "${b:-0}" "$e" "$s")
  done
  echo "$b"
}
plain=$(best "$OPT" "$work/in.mlir" --pass-pipeline="$PIPE" -o "$work/o1.mlir")
dumps=$(best sh -c "'$OPT' '$work/in.mlir' --pass-pipeline='$PIPE' --mlir-print-ir-before-all --mlir-print-ir-after-all -o '$work/o2.mlir' 2> '$work/dump.txt'")
untraced=$(best env TL_LOWER_TRACE=0 "$LT" "$work/in.mlir" --pass-pipeline="$PIPE" -o "$work/o3.mlir")
html=$(best sh -c "TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR='$work/trace' '$LT' '$work/in.mlir' --pass-pipeline='$PIPE' -o '$work/o4.mlir' 2> '$work/lt.err'")
cmp -s "$work/o1.mlir" "$work/o4.mlir" || { echo "traced output differs!" >&2; exit 1; }
dump_mb=$(du -sm "$work/dump.txt" | cut -f1)
TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$work/trace" "$LT" "$work/in.mlir" --pass-pipeline="$PIPE" -o /dev/null 2>/dev/null
trace_mb=$(du -sm "$work/trace" | cut -f1)
python3 - "$n" "$plain" "$dumps" "$untraced" "$html" "$dump_mb" "$trace_mb" <<'PY'
import sys
n, plain, dumps, untraced, html, dmb, tmb = sys.argv[1], *map(float, sys.argv[2:6]), sys.argv[6], sys.argv[7]
print(f"module: {n} functions; best of runs, wall seconds")
print(f"| run | seconds | vs plain mlir-opt-22 |")
print(f"|---|---|---|")
print(f"| mlir-opt-22 (plain) | {plain:.2f} | 1.00x |")
print(f"| mlir-opt-22 --mlir-print-ir-before-all --mlir-print-ir-after-all 2>file ({dmb} MB) | {dumps:.2f} | {dumps/plain:.2f}x |")
print(f"| lowertrace-opt, tracing off | {untraced:.2f} | {untraced/plain:.2f}x |")
print(f"| lowertrace-opt --lower-trace=html ({tmb} MB on disk) | {html:.2f} | {html/plain:.2f}x |")
print()
print(f"html trace / print-ir dumps = {html/dumps:.2f}x (goal <= 0.5x)")
print(f"html trace / untraced       = {html/untraced:.2f}x (goal <= 2x)")
PY
