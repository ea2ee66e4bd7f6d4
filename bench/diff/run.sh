#!/usr/bin/env bash
# Diff engine benchmark: lowertrace diff vs git diff --histogram, GNU diff -u
# and Python difflib (the original tool's engine) on repetitive MLIR-like IR
# where every SSA number shifted by one plus a few real edits.
#
#   bench/diff/run.sh [build-dir] [runs]     (default: build-diff, 5 runs)
# Needs a Release build of lowertrace_cli in the build dir.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${1:-$repo/build-diff}"
runs="${2:-5}"
lt="${LT_BIN:-$build/bin}/lowertrace"
[[ -x "$lt" ]] || { echo "no lowertrace binary at $lt (build lowertrace_cli first)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sizes=(10000 100000)
for n in "${sizes[@]}"; do
  python3 "$here/gen_ir.py" "$n" "$work/a_$n.mlir" "$work/b_$n.mlir"
done
echo "# $(nproc) cores, $(git --version), $(diff --version | head -1), $(python3 --version), runs=$runs"
python3 "$here/timeit_tools.py" "$runs" "$lt" "$work" "${sizes[@]}"
