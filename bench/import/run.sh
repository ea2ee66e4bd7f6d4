#!/usr/bin/env bash
# Dump import throughput and peak memory on a large LLVM -print-after-all dump.
# Usage: bench/import/run.sh [N functions (default 400)] [build dir (default build)]
# Prints one line per measurement; peers (cat, grep -c, opt producing the dump)
# are timed in the same run so the numbers can be read as ratios.
set -eu
N=${1:-400}
BUILD=${2:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LT=$ROOT/$BUILD/bin/lowertrace
OPT=$(command -v opt-22 || echo /usr/lib/llvm-22/bin/opt)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$HERE/gen_module.py" "$N" > "$work/big.ll"
t0=$(date +%s.%N)
if [ -n "${DUMP:-}" ]; then cp "$DUMP" "$work/dump.txt"  # reuse a dump made earlier (opt takes minutes)
else "$OPT" -passes='default<O2>' -print-after-all "$work/big.ll" -o /dev/null 2> "$work/dump.txt"; fi
t1=$(date +%s.%N)
bytes=$(stat -c %s "$work/dump.txt")
mb=$(echo "scale=1; $bytes/1000000" | bc)
banners=$(grep -c '^; \*\*\* IR Dump' "$work/dump.txt")
[ -n "${DUMP:-}" ] && echo "dump: reused $DUMP"
echo "dump: $N functions, $mb MB, $banners banners (opt-22 -O2 -print-after-all: $(echo "$t1-$t0" | bc) s)"

secs() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
rate() { echo "scale=0; $bytes/1000000/$1" | bc; }
c=$(secs cat "$work/dump.txt")
g=$(secs grep -c 'IR Dump' "$work/dump.txt")
echo "peer: cat        $c s  ($(rate "$c") MB/s)"
echo "peer: grep -c    $g s  ($(rate "$g") MB/s)"
/usr/bin/time -v "$LT" import "$work/dump.txt" --parse-only > /dev/null 2> "$work/time.txt"
wall=$(grep 'Elapsed (wall' "$work/time.txt" | awk '{print $NF}' | awk -F: '{print $1*60+$2}')
rss=$(grep 'Maximum resident' "$work/time.txt" | awk '{print $NF}')
echo "lowertrace import --parse-only (parse + stitch, no engine): $wall s ($(rate "$wall") MB/s), peak RSS $((rss/1024)) MB"
# Trace folders on the work folder's file system and, where there is one, on
# tmpfs: creating thousands of raw files is kernel work whose cost depends on
# the file system and its state (on a much-churned ext4 it dominates).
roots="$work"
[ -d /dev/shm ] && [ -w /dev/shm ] && roots="$roots /dev/shm"
for root in $roots; do
for mode in html terminal; do
  # A new trace folder per run, as a user's runs get: re-creating thousands of
  # files just after deleting them makes ext4 scan past recently freed inodes,
  # which measures the benchmark's own rm -rf, not the importer.
  trace=$(mktemp -d "$root/lt-trace.XXXXXX")
  /usr/bin/time -v "$LT" import "$work/dump.txt" --mode $mode --dir "$trace" > /dev/null 2> "$work/time.txt"
  wall=$(grep 'Elapsed (wall' "$work/time.txt" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep 'Maximum resident' "$work/time.txt" | awk '{print $NF}')
  recs=$(grep -o '[0-9]* records in' "$work/time.txt" | head -1)
  out=$(du -sm "$trace" | cut -f1)
  fstype=$(stat -f -c %T "$trace")
  rm -rf "$trace"
  echo "lowertrace import --mode $mode (trace on $fstype): $wall s ($(rate "$wall") MB/s), peak RSS $((rss/1024)) MB ($(echo "scale=2; $rss*1024/$bytes" | bc) x dump size), $recs, trace folder $out MB"
done
done
