#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz: clang-22, ASan+UBSan, coverage
# in the libraries) and runs each one for SECONDS (default 30) on a corpus
# seeded from the repository's fixtures, with its dictionary (fuzz/dict/).
#   scripts/fuzz.sh            # CI: 30 s per target
#   scripts/fuzz.sh 1800       # the longer run: 30 min per target
#   scripts/fuzz.sh 60 diff_fuzzer   # one target
# Any crash, leak, sanitizer report or broken invariant (the fuzzers abort)
# fails the script; the reproducer is left in build-fuzz/artifacts/.
# The corpora grow in build-fuzz/corpus/<target>/ and are reused next time.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(dump_import_fuzzer diff_fuzzer html_fuzzer)
preset=${LT_FUZZ_PRESET:-fuzz}  # fuzz: engine-only build (no MLIR), the quickest
B=build-$preset
cmake --preset "$preset" >/dev/null
cmake --build $B -j"${LT_FUZZ_JOBS:-2}" --target "${targets[@]}"

# Seeds: the fixtures, cut to the fuzzers' max_len.
max_len=${LT_FUZZ_MAX_LEN:-16384}
seed() {  # seed <target> <file>...
  local dir=$B/corpus/$1; shift
  mkdir -p "$dir"
  for f in "$@"; do
    local name; name=$(echo "$f" | tr '/' '_')
    case "$f" in
      *.gz) { gzip -dc "$f" 2>/dev/null || true; } | head -c "$max_len" >"$dir/$name" ;;
      *) head -c "$max_len" "$f" >"$dir/$name" ;;
    esac
  done
}
dumps=(tests/data/dumps/mlir/*.txt tests/data/dumps/llvm/*.txt tests/data/dumps/triton36_h200_add/*.gz
       tests/data/fixtures/triton-3.6/*.txt)
seed dump_import_fuzzer "${dumps[@]}"
# The diff fuzzer reads "<context byte>a\0b": pairs of fixtures.
mkdir -p $B/corpus/diff_fuzzer $B/corpus/html_fuzzer
irs=(tests/data/fixtures/samples/mlir/input.mlir tests/data/fixtures/samples/mlir-gpu/matmul.mlir
     tests/data/dumps/llvm/two.ll tests/data/features/three_funcs.ll tests/data/dumps/mlir/fail-upstream.mlir)
for a in "${irs[@]}"; do for b in "${irs[@]}"; do
  { printf '\003'; head -c 4000 "$a"; printf '\0'; head -c 4000 "$b"; } \
    >"$B/corpus/diff_fuzzer/$(basename "$a")-$(basename "$b")"
done; done
seed html_fuzzer "${irs[@]}"

mkdir -p $B/artifacts $B/logs
status=0
for t in "${targets[@]}"; do
  dict=fuzz/dict/${t%_fuzzer}.dict
  log=$B/logs/$t.log
  echo "== $t: ${secs}s"
  if ! ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
       "$B/fuzz/$t" -max_total_time="$secs" -max_len="$max_len" -timeout=25 -rss_limit_mb=2048 \
       -print_final_stats=1 -close_fd_mask=2 -dict="$dict" -artifact_prefix="$B/artifacts/$t-" \
       "$B/corpus/$t" >"$log" 2>&1; then
    echo "FAIL: $t (log: $log)"; tail -40 "$log"; status=1
  fi
  # Executions and coverage, for BENCHMARKS.md.
  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$log" | tr '\n' ' ' || true
  grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 || true
done
exit $status
