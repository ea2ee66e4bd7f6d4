#!/usr/bin/env bash
# Cost of the LLVM pass plugin, side by side in one run (issue 10's goals):
#   plain      the compile alone
#   dumps      the same with -print-after-all written to a file (the usual way to look)
#   html       the same with the plugin, TL_LOWER_TRACE=html
# on two workloads:
#   cxx        clang-22 -O2 -c bench/llvm/shapes.cpp (209 lines: templates, virtuals,
#              exceptions, std::variant, lambdas, containers)
#   opt        opt-22 -passes='default<O2>' on a generated module of N functions
#              (bench/import/gen_module.py)
# For each run: wall seconds and peak RSS (/usr/bin/time -v; the best wall of
# REPS repeats, and the ratio to plain within each repeat),
# and for html the seconds between the output file being written and the
# process ending (opt writes trace.json and the report at exit; clang beside
# its own back end, once the plugin's shadow back end has run).
# The plugin's per-pass console lines go to a file, as -print-after-all's dump does.
# Usage: bench/llvm/run.sh [N functions (2000)] [build dir (build)] [repeats (1)]
# Environment: DUMPS=0 leaves out the -print-after-all runs (minutes each on a
# loaded machine); PLUGIN=<path> measures another build of the plugin;
# BASE=<path> measures a second build (say, a baseline worktree's) beside it,
# in each repeat.
set -euo pipefail
N=${1:-2000}
BUILD=${2:-build}
REPS=${3:-1}
BASE=${BASE:-}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PLUGIN=${PLUGIN:-$ROOT/$BUILD/lib/liblowertrace-llvm.so}
DUMPS=${DUMPS:-1}
OPT=$(command -v opt-22 || echo /usr/lib/llvm-22/bin/opt)
CLANG=$(command -v clang-22 || echo /usr/lib/llvm-22/bin/clang)
[ -f "$PLUGIN" ] || { echo "no $PLUGIN (build the default preset)" >&2; exit 1; }
[ -z "$BASE" ] || [ -f "$BASE" ] || { echo "no $BASE" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$ROOT/bench/import/gen_module.py" "$N" > "$work/in.ll"
cp "$HERE/shapes.cpp" "$work/shapes.cpp"

# measure LABEL OUTFILE CMD...: prints "LABEL wall rss_mb tail_s" for one run.
measure() {
  local label=$1 out=$2; shift 2
  # The previous run's trace is moved aside, not deleted: a run right after
  # a deletion pays for it (ext4 without a journal, as here, skips inodes
  # freed in the last minutes when it allocates new ones: clang html runs
  # took 6.5-7.8 s just after ~100,000 files were deleted, 5.4 s before).
  # Users keep their runs; the folders go at exit.
  if [ -e "$work/trace" ]; then mv "$work/trace" "$(mktemp -d "$work/old.XXXXXX")/"; fi
  rm -f "$out"
  local t0 t1 tv line
  t0=$(date +%s.%N)
  TL_LOWER_TRACE_DIR="$work/trace" /usr/bin/time -v -o "$work/time.txt" "$@"
  t1=$(date +%s.%N)
  tv=$(stat -c %.9Y "$out")
  line=$(python3 - "$work/time.txt" "$t0" "$t1" "$tv" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
t0, t1, tv = map(float, sys.argv[2:5])
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
print(f"{t1 - t0:.2f} {rss:.0f} {max(0.0, t1 - tv):.2f}")
PY
)
  echo "$label $line"
  echo "measured: $label $line" >&2  # progress, in case a long run is cut short
}
records_of() {  # "records changed" of the trace just written
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['records']; print(len(r), sum(x['changed'] for x in r))" "$(find "$work/trace" -name trace.json)"
}

# The runs of one repeat go one after the other (plain, dumps, html, base),
# so that a ratio compares runs made minutes apart at most: on a shared
# machine the speed of the same run moves by half within an hour.
rows=()
cxx_dump_mb=- opt_dump_mb=-
for rep in $(seq "$REPS"); do
  # ---- clang-22 -O2 -c shapes.cpp
  rows+=("$(measure cxx_plain "$work/p.o" "$CLANG" -O2 -c "$work/shapes.cpp" -o "$work/p.o")")
  if [ "$DUMPS" != 0 ]; then
    rows+=("$(measure cxx_dumps "$work/d.o" sh -c "'$CLANG' -O2 -c '$work/shapes.cpp' -o '$work/d.o' -mllvm -print-after-all 2> '$work/cxx_dump.txt'")")
    cxx_dump_mb=$(du -m "$work/cxx_dump.txt" | cut -f1); rm -f "$work/cxx_dump.txt"
  fi
  rows+=("$(measure cxx_html "$work/h.o" sh -c "TL_LOWER_TRACE=html '$CLANG' -O2 -c '$work/shapes.cpp' -o '$work/h.o' -fpass-plugin='$PLUGIN' 2> '$work/lt.err'")")
  cmp -s "$work/p.o" "$work/h.o" || { echo "clang output differs with the plugin!" >&2; exit 1; }
  cxx_recs=$(records_of); cxx_sizes=$(du -sm "$work/trace" | cut -f1)
  if [ -n "$BASE" ]; then
    rows+=("$(measure cxx_base "$work/b.o" sh -c "TL_LOWER_TRACE=html '$CLANG' -O2 -c '$work/shapes.cpp' -o '$work/b.o' -fpass-plugin='$BASE' 2> '$work/lt.err'")")
    cmp -s "$work/p.o" "$work/b.o" || { echo "clang output differs with the base plugin!" >&2; exit 1; }
  fi
  # ---- opt-22 default<O2> on N functions
  rows+=("$(measure opt_plain "$work/o1.bc" "$OPT" -passes='default<O2>' "$work/in.ll" -o "$work/o1.bc")")
  if [ "$DUMPS" != 0 ]; then
    rows+=("$(measure opt_dumps "$work/o2.bc" sh -c "'$OPT' -passes='default<O2>' -print-after-all '$work/in.ll' -o '$work/o2.bc' 2> '$work/opt_dump.txt'")")
    opt_dump_mb=$(du -m "$work/opt_dump.txt" | cut -f1); rm -f "$work/opt_dump.txt"
  fi
  rows+=("$(measure opt_html "$work/o3.bc" sh -c "TL_LOWER_TRACE=html '$OPT' -load-pass-plugin='$PLUGIN' -passes='default<O2>' '$work/in.ll' -o '$work/o3.bc' 2> '$work/lt.err'")")
  cmp -s "$work/o1.bc" "$work/o3.bc" || { echo "opt output differs with the plugin!" >&2; exit 1; }
  opt_recs=$(records_of); opt_sizes=$(du -sm "$work/trace" | cut -f1)
  if [ -n "$BASE" ]; then
    rows+=("$(measure opt_base "$work/o4.bc" sh -c "TL_LOWER_TRACE=html '$OPT' -load-pass-plugin='$BASE' -passes='default<O2>' '$work/in.ll' -o '$work/o4.bc' 2> '$work/lt.err'")")
    cmp -s "$work/o1.bc" "$work/o4.bc" || { echo "opt output differs with the base plugin!" >&2; exit 1; }
  fi
done

python3 - "$N" "$cxx_dump_mb" "$opt_dump_mb" "$cxx_recs" "$opt_recs" "$cxx_sizes" "$opt_sizes" "${rows[@]}" <<'PY'
import sys
n, cdmb, odmb, crec, orec, csz, osz = sys.argv[1:8]
runs = {}  # label -> [(wall, rss, tail)], one per repeat
for r in sys.argv[8:]:
    label, wall, rss, tail = r.split()
    runs.setdefault(label, []).append((float(wall), float(rss), float(tail)))
best = {k: min(v) for k, v in runs.items()}  # by wall
def ratios(w, label):
    """html/plain of each repeat (runs of one repeat are minutes apart at most)."""
    r = [a[0] / b[0] for a, b in zip(runs[label], runs[w + "_plain"])]
    return f"{min(r):.2f}x-{max(r):.2f}x" if len(r) > 1 else f"{r[0]:.2f}x"
for w, title, dmb, rec, sz in (("cxx", "clang-22 -O2 -c shapes.cpp", cdmb, crec, csz),
                               ("opt", f"opt-22 default<O2>, {n} functions", odmb, orec, osz)):
    p, d, h = best[w + "_plain"], best.get(w + "_dumps"), best[w + "_html"]
    recs, changed = rec.split()
    print(f"{title}: {recs} records, {changed} changed; trace folder {sz} MB; "
          f"best wall of {len(runs[w + '_plain'])}, with its RSS and tail")
    print("| run | wall s | vs plain | per repeat | peak RSS MB | vs plain | after the output file |")
    print("|---|---|---|---|---|---|---|")
    print(f"| plain | {p[0]:.2f} | 1.00x | | {p[1]:.0f} | 1.00x | {p[2]:.2f} s |")
    if d:
        print(f"| -print-after-all 2>file ({dmb} MB) | {d[0]:.2f} | {d[0]/p[0]:.2f}x | {ratios(w, w + '_dumps')} | {d[1]:.0f} | {d[1]/p[1]:.2f}x | |")
    else:
        print("| -print-after-all 2>file | not run (DUMPS=0) | | | | | |")
    for label, key in (("plugin, html", w + "_html"), ("base plugin, html", w + "_base")):
        if row := best.get(key):
            print(f"| {label} | {row[0]:.2f} | {row[0]/p[0]:.2f}x | {ratios(w, key)} | {row[1]:.0f} | {row[1]/p[1]:.2f}x | "
                  f"{row[2]:.2f} s = {row[2]/p[0]*100:.0f}% of plain |")
    if d:
        print(f"plugin html / print-after-all = {h[0]/d[0]:.2f}x")
    print()
PY
