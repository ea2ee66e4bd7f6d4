#!/usr/bin/env bash
# `lowertrace demo` end to end: PTX is produced; records run in order with
# codegen last; every pass that mlir-opt-22 --mlir-print-ir-after-all lists
# for the same pipeline appears, in the same order; an edited PTX working
# copy is what the next run emits (PATCHED). Then the CPU variant.
set -u
BIN=${LT_BIN:?}
REF=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0; pass=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

cd "$work"
"$BIN/lowertrace" demo --mode html --dir "$work/t" -o first.ptx > out.txt 2> err.txt || bad "demo exit status $?"
grep -q '^\.target sm_80' first.ptx && ok || bad "no PTX in -o output"
grep -q 'Final HTML report: .*/demo_gpu_matmul/report.html' err.txt && ok || bad "no report path"
[ -s "$work/t/demo_gpu_matmul/report.html" ] && ok || bad "report missing"
[ ! -s out.txt ] && ok || bad "demo wrote to stdout"
trace=$(ls "$work"/t/demo_gpu_matmul/.run_records/*/trace.json | head -1)

python3 - "$trace" > ours.txt <<'PY' || bad "trace.json checks"
import json, sys
d = json.load(open(sys.argv[1]))
recs = d["records"]
idx = [r["index"] for r in recs]
assert idx == list(range(len(recs))), "indices not in order"
assert recs[-1]["status"] == "codegen", "codegen is not last"
assert recs[-1]["lang"] == "ptx"
# The MLIR passes; the LLVM and machine passes of codegen follow (it.ptx_trace).
recs = [r for r in recs if r["phase"] == "pipeline_gpu"]
assert all(r["status"] == "completed" for r in recs)
# Leaf passes in execution order (adaptors are containers, not printed by MLIR).
leaves = [r for r in recs if not any(c["parent_index"] == r["index"] for c in recs)]
for r in leaves: print(r["name"])
PY
P=$("$BIN/lowertrace" demo --print-pipeline)
"$REF" "$BIN/../../examples/matmul.mlir" --pass-pipeline="$P" --mlir-disable-threading \
  --mlir-print-ir-after-all -o /dev/null 2> ref_dump.txt 2>/dev/null || true
if [ ! -s ref_dump.txt ]; then
  "$REF" "${LT_SRC:?}/examples/matmul.mlir" --pass-pipeline="$P" --mlir-disable-threading \
    --mlir-print-ir-after-all -o /dev/null 2> ref_dump.txt || bad "mlir-opt-22 failed on the demo pipeline"
fi
# "// -----// IR Dump After Canonicalizer (canonicalize) //----- //" -> canonicalize
sed -n 's|^// -----// IR Dump After .* (\([^()]*\))\( (.*)\)\? //----- //$|\1|p' ref_dump.txt > theirs.txt
# mlir-opt prints a nested pass once per op it ran on; we record it once per
# pipeline position. Collapse consecutive repeats on both sides.
uniq ours.txt > ours.u; uniq theirs.txt > theirs.u
[ "$(wc -l < theirs.u)" -gt 20 ] && ok || bad "reference dump too short: $(wc -l < theirs.u)"
if diff ours.u theirs.u > order.diff; then ok; else bad "pass order differs from mlir-opt-22:"; head -20 order.diff; fi

# Edit the working copy: the next run must emit it, tagged PATCHED.
wc_file="$work/t/demo_gpu_matmul/codegen.matmul_kernel.ptx"
[ -f "$wc_file" ] && ok || bad "no working copy"
sed -i 's|^\.target sm_80|.target sm_80 // hand-edited|' "$wc_file"
"$BIN/lowertrace" demo --mode html --dir "$work/t" -o second.ptx 2> err2.txt || bad "second run failed"
grep -q 'PATCHED' err2.txt && ok || bad "no PATCHED tag"
grep -q 'hand-edited' second.ptx && ok || bad "the edit did not reach -o"
[ "$(ls -d "$work"/t/demo_gpu_matmul/.run_records/run_* | wc -l)" = 2 ] && ok || bad "runs not kept"

# CPU variant: host assembly.
"$BIN/lowertrace" demo --cpu --mode terminal --dir "$work/t" -o cpu.s 2> err3.txt || bad "cpu demo failed"
grep -q 'matmul' cpu.s && grep -qE '^\s+\.(text|section)' cpu.s && ok || bad "no host assembly"
grep -q 'codegen/.*CODEGEN' err3.txt && ok || bad "no codegen line in terminal mode"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
