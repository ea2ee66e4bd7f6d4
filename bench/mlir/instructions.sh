#!/usr/bin/env bash
# Tracing cost in instructions (valgrind callgrind), which unlike wall time
# does not move with the machine's load: lowertrace-opt untraced vs html mode
# on the same module and pipeline as run.sh, single-threaded so the counts
# are repeatable. Usage: bench/mlir/instructions.sh [build-dir] [functions]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
n=${2:-500}
LT=$build/bin/lowertrace-opt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_module.py" "$n" > "$work/in.mlir"
PIPE='builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion),convert-scf-to-cf,canonicalize,cse,expand-strided-metadata,finalize-memref-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,canonicalize)'
count() {  # count <mode>: total instructions of one run
  rm -rf "$work/trace"
  TL_LOWER_TRACE=$1 TL_LOWER_TRACE_DIR="$work/trace" valgrind --tool=callgrind \
    --callgrind-out-file="$work/cg.$1" "$LT" "$work/in.mlir" --pass-pipeline="$PIPE" \
    --mlir-disable-threading -o /dev/null 2> "$work/vg.$1"
  sed -n 's/^summary: //p' "$work/cg.$1"
}
off=$(count 0)
html=$(count html)
python3 -c "import sys; o,h=int(sys.argv[1]),int(sys.argv[2]); print(f'module: {sys.argv[3]} functions, --mlir-disable-threading'); print(f'untraced: {o:,} instructions'); print(f'html:     {h:,} instructions'); print(f'html / untraced = {h/o:.2f}x (goal <= 2x)')" "$off" "$html" "$n"
