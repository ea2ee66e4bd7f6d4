#!/usr/bin/env bash
# Import peak memory, time and disk against input size (issue 8, item 15).
# Usage: bench/import/scale.sh [build dir (default build)] [sizes: any of 10 100 1000]
# Dumps (made here, kept in $DUMPS, default /tmp/lt-import-scale):
#   llvm-N   opt-22 -passes='default<O2>' -print-after-all of gen_module.py N
#            (N=14: ~9 MB, N=100: ~72 MB); the 1000 point is 14 copies of the
#            100-function dump with functions renamed per copy (~1 GB; opt
#            itself would take half an hour)
#   mlir-N   mlir-opt-22 'func.func(canonicalize,cse),symbol-dce' --mlir-print-ir-after-all
#            of gen_mlir_funcs.py N (N=20000: ~11 MB, 40,001 records; 200000: ~108 MB)
# Peers in the same run: cat (reading the input) and, with OLD=<binary>, an
# older lowertrace on the same dumps. Trace folders go under $DUMPS.
set -eu
BUILD=${1:-build}; shift || true
SIZES=${*:-10 100}
HERE=$(cd "$(dirname "$0")" && pwd)
LT=$(cd "$HERE/../.." && pwd)/$BUILD/bin/lowertrace
DUMPS=${DUMPS:-/tmp/lt-import-scale}
mkdir -p "$DUMPS"
make_llvm() {  # make_llvm N
  [ -s "$DUMPS/llvm-$1.txt" ] && return
  python3 "$HERE/gen_module.py" "$1" > "$DUMPS/llvm-$1.ll"
  opt-22 -passes='default<O2>' -print-after-all "$DUMPS/llvm-$1.ll" -o /dev/null 2> "$DUMPS/llvm-$1.txt"
}
make_mlir() {
  [ -s "$DUMPS/mlir-$1.txt" ] && return
  python3 "$HERE/gen_mlir_funcs.py" "$1" > "$DUMPS/mlir-$1.mlir"
  mlir-opt-22 "$DUMPS/mlir-$1.mlir" --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)' \
    --mlir-print-ir-after-all --mlir-disable-threading -o /dev/null 2> "$DUMPS/mlir-$1.txt"
}
dumps=()
for s in $SIZES; do
  case $s in
  10) make_llvm 14; make_mlir 20000; dumps+=(llvm-14 mlir-20000) ;;
  100) make_llvm 100; make_mlir 200000; dumps+=(llvm-100 mlir-200000) ;;
  1000) make_llvm 100
        if [ ! -s "$DUMPS/llvm-1g.txt" ]; then
          for k in $(seq 1 14); do sed "s/@f\([0-9]\)/@c${k}_f\1/g" "$DUMPS/llvm-100.txt"; done > "$DUMPS/llvm-1g.txt"
        fi
        dumps+=(llvm-1g) ;;
  esac
done
measure() {  # measure LABEL BINARY DUMP
  local trace; trace=$(mktemp -d "$DUMPS/trace.XXXXXX")
  /usr/bin/time -v "$2" import "$DUMPS/$3.txt" --mode html --dir "$trace" > /dev/null 2> "$trace.time" || true
  local bytes wall rss recs mb names inodes
  bytes=$(stat -L -c %s "$DUMPS/$3.txt")
  wall=$(grep 'Elapsed (wall' "$trace.time" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep 'Maximum resident' "$trace.time" | awk '{print $NF}')
  recs=$(grep -o '[0-9]* records in' "$trace.time" | head -1 | cut -d' ' -f1)
  mb=$(du -sm "$trace" | cut -f1)
  names=$(find "$trace" -type f | wc -l)
  inodes=$(find "$trace" -type f -printf '%i\n' | sort -u | wc -l)
  printf '%-5s %-12s input %7.1f MB  %8s records  %7.1f s  %6.1f MB/s  peak RSS %6d MB (%5.2f x input)  trace %6d MB, %d names, %d files\n' \
    "$1" "$3" "$(echo "$bytes/1000000" | bc -l)" "${recs:-?}" "$wall" "$(echo "$bytes/1000000/$wall" | bc -l)" \
    $((rss / 1024)) "$(echo "$rss*1024/$bytes" | bc -l)" "$mb" "$names" "$inodes"
  rm -rf "$trace" "$trace.time"
}
echo "trace folders on $(stat -f -c %T "$DUMPS")"
for d in "${dumps[@]}"; do
  s=$(date +%s.%N); cat "$DUMPS/$d.txt" > /dev/null; e=$(date +%s.%N)
  echo "peer  cat $d: $(echo "$e - $s" | bc) s"
  measure new "$LT" "$d"
  [ -n "${OLD:-}" ] && [ "$d" != llvm-1g ] && measure old "$OLD" "$d"
done
