#!/usr/bin/env bash
# Cost of tracing clang's back end (the plugin's shadow codegen,
# src/capture/llvm/shadow_codegen.h), side by side in one run:
#   cxx_plain      clang-22 -O2 -c bench/llvm/shapes.cpp
#   cxx_html_nomir the same with the plugin, TL_LOWER_TRACE=html TL_LOWER_TRACE_MIR=0 (optimiser only)
#   cxx_html       the same with the back end traced too (the default)
# and the back end alone, on the same module after clang's optimiser:
#   llc_plain      llc-22 -O2
#   llc_dumps      llc-22 -O2 -print-after-all, written to a file
#   llc_traced     lt-llc -O2 (llc's pipeline in the machine-pass tracer), html
# Prints "label wall_s peak_rss_mb records" per run (records: of the trace, if any).
# Usage: bench/llvm/mir.sh [build dir (build)]
set -euo pipefail
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PLUGIN=$ROOT/$BUILD/lib/liblowertrace-llvm.so
LTLLC=$ROOT/$BUILD/bin/lt-llc
CLANG=$(command -v clang-22 || echo /usr/lib/llvm-22/bin/clang)
LLC=$(command -v llc-22 || echo /usr/lib/llvm-22/bin/llc)
[ -f "$PLUGIN" ] && [ -x "$LTLLC" ] || { echo "build the default preset first ($PLUGIN, $LTLLC)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$HERE/shapes.cpp" "$work/"
cd "$work"
"$CLANG" -O2 -S -emit-llvm shapes.cpp -o shapes.ll

run() {  # label, command...
  local label=$1; shift
  rm -rf trace
  TL_LOWER_TRACE_DIR="$work/trace" TL_LOWER_TRACE_LOG="$work/log.txt" \
    /usr/bin/time -f "%e %M" -o time.txt "$@" 2> err.txt
  local recs=-
  if [ -d trace ]; then
    recs=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["records"]))' \
      "$(find trace -name trace.json | head -1)")
  fi
  read -r wall rss < time.txt
  echo "$label $wall $((rss / 1024)) $recs"
}
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run cxx_plain "$CLANG" -O2 -c shapes.cpp -o plain.o
TL_LOWER_TRACE=html TL_LOWER_TRACE_MIR=0 run cxx_html_nomir "$CLANG" -O2 -c -fpass-plugin="$PLUGIN" shapes.cpp -o nomir.o
TL_LOWER_TRACE=html run cxx_html "$CLANG" -O2 -c -fpass-plugin="$PLUGIN" shapes.cpp -o traced.o
cmp plain.o nomir.o && cmp plain.o traced.o || { echo "object files differ with the plugin" >&2; exit 1; }
run llc_plain "$LLC" -O2 shapes.ll -o llc.s
run llc_dumps sh -c "'$LLC' -O2 -print-after-all shapes.ll -o dumps.s 2> dumps.txt"
echo "# llc -print-after-all wrote $(stat -c %s dumps.txt) bytes"
TL_LOWER_TRACE=html run llc_traced "$LTLLC" -O2 shapes.ll -o lt.s
cmp llc.s lt.s || { echo "lt-llc's assembly differs from llc-22's" >&2; exit 1; }
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
