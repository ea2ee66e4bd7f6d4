#!/usr/bin/env bash
# Cost of the LLVM pass plugin in opt-22 -O2, as ratios measured in the same run:
#   plain      opt-22 -passes='default<O2>'
#   dumps      the same with -print-after-all 2> file (the usual way to look)
#   plugin     the same with -load-pass-plugin=liblowertrace-llvm.so, TL_LOWER_TRACE=html
# on a generated module of N functions (bench/import/gen_module.py).
# Usage: bench/llvm/run.sh [N functions (default 100)] [build dir (default build)] [repeats (3)]
set -euo pipefail
N=${1:-100}
BUILD=${2:-build}
REPS=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PLUGIN=$ROOT/$BUILD/lib/liblowertrace-llvm.so
OPT=$(command -v opt-22 || echo /usr/lib/llvm-22/bin/opt)
[ -f "$PLUGIN" ] || { echo "no $PLUGIN (build the default preset)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$ROOT/bench/import/gen_module.py" "$N" > "$work/in.ll"

best() {  # best wall seconds of $REPS runs of "$@"
  local b=""
  for _ in $(seq "$REPS"); do
    local t=$work/trace.$RANDOM$RANDOM   # a fresh trace folder per run
    local s e
    s=$(date +%s.%N); T="$t" "$@"; e=$(date +%s.%N)
    rm -rf "$t"
    b=$(python3 -c "import sys; a=float(sys.argv[1]); t=float(sys.argv[2])-float(sys.argv[3]); print(t if not a or t<a else a)" "${b:-0}" "$e" "$s")
  done
  echo "$b"
}
plain=$(best "$OPT" -passes='default<O2>' "$work/in.ll" -o "$work/o1.bc")
dumps=$(best sh -c "'$OPT' -passes='default<O2>' -print-after-all '$work/in.ll' -o '$work/o2.bc' 2> '$work/dump.txt'")
plugin=$(best sh -c "TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR=\"\$T\" '$OPT' -load-pass-plugin='$PLUGIN' -passes='default<O2>' '$work/in.ll' -o '$work/o3.bc' 2> '$work/lt.err'")
cmp -s "$work/o1.bc" "$work/o3.bc" || { echo "output differs with the plugin!" >&2; exit 1; }
recs=$(grep -o '[0-9]* records' "$work/lt.err" | tail -1)
dump_mb=$(du -m "$work/dump.txt" | cut -f1)
python3 - "$N" "$plain" "$dumps" "$plugin" "$dump_mb" "$recs" <<'PY'
import sys
n, plain, dumps, plugin, dmb, recs = sys.argv[1], *map(float, sys.argv[2:5]), sys.argv[5], sys.argv[6]
print(f"module: {n} functions, opt-22 -passes='default<O2>'; best of runs, wall seconds")
print(f"| run | seconds | vs plain |")
print(f"|---|---|---|")
print(f"| opt-22 (plain) | {plain:.2f} | 1.00x |")
print(f"| opt-22 -print-after-all 2>file ({dmb} MB) | {dumps:.2f} | {dumps/plain:.2f}x |")
print(f"| opt-22 + liblowertrace-llvm.so, html ({recs}) | {plugin:.2f} | {plugin/plain:.2f}x |")
print()
print(f"plugin / print-after-all = {plugin/dumps:.2f}x")
PY
