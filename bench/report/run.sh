#!/usr/bin/env bash
# HTML report bench: report size against the original's embedding, bytes
# written during the run against the final size, and Chromium's time to the
# first pass and peak memory on the 1,000-pass x 10k-line report.
#
# usage: bench/report/run.sh [BUILD_BIN_DIR]   (default: build/bin)
# Needs: lowertrace (synth-trace), node, tests/browser/node_modules (npm install
# playwright-core there), /usr/bin/chromium. Writes under ${TMPDIR:-/tmp}.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$SRC/build/bin}
LT=$BIN/lowertrace
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lt-report-bench.XXXXXX")
DUMP=$SRC/tests/data/fixtures/triton-3.6/mlir_dump_softmax.txt

# One traced run; prints a table row. IR size S = mean size of the texts handed
# to each pass (the raw before files), so the original's report is ~6*N*S.
one() {
  local name=$1; shift
  local out=$WORK/$name
  local t0=$(date +%s.%N)
  LT_REPORT_STATS=1 NO_COLOR=1 "$LT" synth-trace --out "$out" "$@" >/dev/null 2>"$out.err"
  local t1=$(date +%s.%N)
  local stats=$(grep 'html report:' "$out.err")
  local final=$(sed -E 's/.*report: ([0-9]+) bytes.*/\1/' <<<"$stats")
  local written=$(sed -E 's/.* ([0-9]+) bytes written.*/\1/' <<<"$stats")
  local rundir=$(ls -d "$out"/synth/.run_records/*)
  python3 - "$rundir" "$final" "$written" "$name" "$t0" "$t1" <<'PY'
import json, os, sys
run, final, written, name, t0, t1 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
recs = json.load(open(os.path.join(run, 'trace.json')))['records']
sizes = [os.path.getsize(os.path.join(run, r['before_text']['file'])) for r in recs if r.get('before_text')]
n, S = len(recs), sum(sizes) / len(sizes)
c = sum(1 for r in recs if r['changed']) / n
orig6 = 6 * n * S
rule = 45e3 + n * S * (3.4 + 4.7 * c)
print(f"| {name} | {n} | {S/1e3:.1f} KB | {c:.0%} | {final/1e6:.3f} MB | {orig6/1e6:.1f} MB | {final/orig6:.4f} | {final/rule:.4f} | {written/1e6:.3f} MB | {written/final:.2f} | {t1-t0:.1f} s |")
PY
}

echo "| trace | records | mean IR | changed | report | 6·N·S | report/6NS | report/rule | written | written/report | run wall |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
[ -f "$DUMP" ] && one triton-softmax-dump --from-dump "$DUMP"
one synth-100x1300 --passes 100 --lines 1300
one synth-1000x1300 --passes 1000 --lines 1300
one synth-1000x10000 --passes 1000 --lines 10000

# Cross-check the sink's own byte counter with the kernel's view: every write(2)
# to a report file (report.html, its temp files, report_data/) under strace -y.
if command -v strace >/dev/null; then
  echo
  out=$WORK/strace-100
  # -ff: one file per thread, so no write is split into "unfinished"/"resumed"
  # halves (the sinks finish on threads of their own).
  LT_REPORT_STATS=1 strace -ff -y -e trace=write -o "$out.strace" "$LT" synth-trace --out "$out" --passes 100 --lines 1300 >/dev/null 2>"$out.err"
  counted=$(sed -E -n 's/.* ([0-9]+) bytes written.*/\1/p' "$out.err")
  seen=$(cat "$out.strace".* | grep -E '^write\([0-9]+<[^>]*(report\.html|report_data)' | sed -E 's/.*= ([0-9]+)$/\1/' | awk '{s+=$1} END {print s+0}')
  echo "strace cross-check (100 x 1300): sink counter $counted bytes, write(2) to report files $seen bytes"
fi

echo
echo "Chromium, 1000 x 10000-line report (3 runs):"
REPORT=$(ls -d "$WORK"/synth-1000x10000/synth/.run_records/*)/report.html
for i in 1 2 3; do
  node "$SRC/bench/report/first_pass.mjs" "$REPORT"
done
# Baseline in the same conditions: the small real-dump report (browser start-up
# and page overhead with almost no data).
if [ -d "$WORK/triton-softmax-dump" ]; then
  echo "Chromium, triton-softmax-dump report (baseline, 1 run):"
  node "$SRC/bench/report/first_pass.mjs" "$(ls -d "$WORK"/triton-softmax-dump/synth/.run_records/*)/report.html"
fi
rm -rf "$WORK"
