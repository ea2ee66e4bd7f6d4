#!/usr/bin/env bash
# Diff engine benchmark: lowertrace diff vs git diff --histogram, GNU diff -u
# and Python difflib (the original tool's engine) on repetitive MLIR-like IR
# where every SSA number shifted by one plus a few real edits (ir-10000,
# ir-100000), then two 100k-line adversarial inputs without difflib.
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
cases=()
for n in 10000 100000; do
  python3 "$here/gen_ir.py" "$n" "$work/a_ir-$n.txt" "$work/b_ir-$n.txt"
  cases+=("ir-$n")
done
# Adversarial inputs for the cost bounds (difflib skipped: minutes per run).
for kind in random4 pairs; do
  python3 "$here/gen_adversarial.py" "$kind" 100000 "$work/a_adv-$kind.txt" "$work/b_adv-$kind.txt"
  cases+=("adv-$kind")
done
echo "# $(nproc) cores, $(git --version), $(diff --version | head -1), $(python3 --version), runs=$runs"
python3 "$here/timeit_tools.py" "$runs" "$lt" "$work" "${cases[@]}"
