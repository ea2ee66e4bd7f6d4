#!/usr/bin/env bash
# `lowertrace import` of a real `lowertrace run` capture from Triton 3.6.0 on an
# H200 (tests/data/dumps/triton36_h200_add): one run for the kernel, records
# one to one with the banners of both files, the pipeliner steps from stderr
# under tritongpu-pipeline, and the PTX codegen record from the stage folder.
set -u
LT=${LT_BIN:?}/lowertrace
DATA=${LT_SRC:?}/tests/data/dumps/triton36_h200_add
SUM="python3 $LT_SRC/tests/data/dumps/trace_summary.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
zcat "$DATA/mlir_dump.txt.gz" > "$work/mlir_dump.txt"
zcat "$DATA/stderr.txt.gz" > "$work/stderr.txt"
mkdir -p "$work/stage/HASH"
echo 'module {}' > "$work/stage/HASH/add_kernel.ttir"
printf 'define void @add_kernel() {\n  ret void\n}\n' > "$work/stage/HASH/add_kernel.llir"
printf '.version 8.7\n.visible .entry add_kernel()\n{\n\tret;\n}\n' > "$work/stage/HASH/add_kernel.ptx"

"$LT" import "$work/mlir_dump.txt" "$work/stderr.txt" --stage-dir "$work/stage" --dir "$work/trace" \
  > /dev/null 2> "$work/err" || bad "import exited $?"
grep -q WARNING "$work/err" && bad "warnings: $(grep WARNING "$work/err" | head -2)"
$SUM "$work/trace" > "$work/sum"
[ "$(cut -f1 "$work/sum" | sort -u)" = 0 ] || bad "want exactly one run"
sed -n 's|^// -----// IR Dump Before .* (\([^() ]*\)) (.*$|\1|p' "$work/mlir_dump.txt" > "$work/want_mlir"
awk -F'\t' '($3=="ttir"||$3=="ttgir"||$3=="llir") && $4!="LowerLoops" && $4!="ExpandLoops" {print $4}' "$work/sum" > "$work/got_mlir"
diff "$work/want_mlir" "$work/got_mlir" > /dev/null || bad "MLIR records are not one to one with the banners"
python3 - "$work/stderr.txt" > "$work/want_llvm" <<'PY'
import re, sys
for l in open(sys.argv[1]):
    m = re.match(r'^; \*\*\* IR Dump After (.+?) on .* \*\*\*$', l)
    if m: print(m.group(1)); continue
    m = re.match(r'^(# )?\*\*\* IR Dump After .* \(([^()]+)\)( on .*)? \*\*\*:?$', l)
    if m: print(m.group(2))
PY
awk -F'\t' '$3=="llvm"||$3=="mir" {print $4}' "$work/sum" > "$work/got_llvm"
diff "$work/want_llvm" "$work/got_llvm" > /dev/null || bad "LLVM/MIR records are not one to one with the banners"
[ "$(wc -l < "$work/want_llvm")" -gt 100 ] || bad "too few LLVM banners in the recording"
grep -A1 -P '\ttritongpu-pipeline\t' "$work/sum" | grep -qP '\tLowerLoops\tcompleted\t1\t' || bad "pipeliner step not under its pass"
grep -qP '\tcodegen\tcodegen\tcodegen\t0\tadd_kernel\t' "$work/sum" || bad "no PTX codegen record"
for p in ttir ttgir llir llvm mir; do grep -qP "\t$p\t" "$work/sum" || bad "phase $p missing"; done

[ $fail = 0 ] && echo "PASS import_triton"
exit $fail
