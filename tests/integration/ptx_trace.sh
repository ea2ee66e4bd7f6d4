#!/bin/bash
# One in-process trace from MLIR to PTX (issue 10 item 4): `lowertrace demo`
# and `lowertrace-opt --lower-trace-codegen=ptx` record the LLVM optimiser's
# passes (phase llvm) and the NVPTX machine passes (phase mir) that run inside
# the translation to PTX, between the MLIR passes and the PTX codegen record:
#  - phases come in that order, each non-empty, with their languages;
#  - the codegen record's input is the text of the last machine pass, and the
#    last IR text of the llvm phase is what the first codegen pass started from;
#  - the PTX is byte for byte what the untraced path (gpu-module-to-binary) gives.
set -euo pipefail
: "${LT_BIN:?}" "${LT_SRC:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$LT_BIN/lowertrace" demo --mode html --dir "$tmp/demo" -o demo.ptx 2> demo.err || fail "demo failed: $(tail -3 demo.err)"
P=$("$LT_BIN/lowertrace" demo --print-pipeline)
TL_LOWER_TRACE=0 "$LT_BIN/lowertrace-opt" "$LT_SRC/examples/matmul.mlir" --pass-pipeline="$P" \
  --lower-trace-codegen=ptx -o plain.ptx
TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/opt" "$LT_BIN/lowertrace-opt" "$LT_SRC/examples/matmul.mlir" \
  --pass-pipeline="$P" --lower-trace-codegen=ptx -o traced.ptx 2> opt.err || fail "lowertrace-opt failed"
grep -q '^\.target sm_80' plain.ptx || fail "no PTX from the untraced path"
cmp plain.ptx traced.ptx || fail "lowertrace-opt: traced PTX differs from untraced"
cmp plain.ptx demo.ptx || fail "demo: PTX differs from untraced lowertrace-opt"

check() {  # trace.json, the MLIR pipeline's phase
  python3 - "$1" "$2" <<'PY'
import json, os, sys
from itertools import groupby
trace, mlir_phase = sys.argv[1:]
d = json.load(open(trace))
run = os.path.dirname(trace)
recs = sorted(d["records"], key=lambda r: r["index"])
phases = [k for k, _ in groupby(r["phase"] for r in recs)]
assert phases == [mlir_phase, "llvm", "mir", "codegen"], phases
llvm = [r for r in recs if r["phase"] == "llvm"]
mir = [r for r in recs if r["phase"] == "mir"]
assert all(r["ir_lang"] == "llvm" for r in llvm)
assert any(r["changed"] for r in llvm), "the optimiser changed nothing?"
machine = [r for r in mir if r["ir_lang"] == "mir"]
assert machine and any(r["changed"] for r in machine), "no machine pass changed anything"
assert any("Instruction Selection" in r["name"] for r in machine), [r["name"] for r in machine][:5]
assert all(r["status"] in ("completed", "skipped") for r in llvm + mir)
text = lambda r, side: open(os.path.join(run, r[side + "_text"]["file"])).read()
cg = recs[-1]
assert cg["status"] == "codegen" and cg["lang"] == "ptx" and cg["ir_lang"] == "mir", cg
assert text(machine[-1], "after") == text(cg, "before"), "codegen input is not the last machine text"
assert "# Machine code for function" in text(cg, "before")
# The chain from MLIR through LLVM IR: the last function-level LLVM text is the
# before-text of the first codegen pass on that function.
fn = [r for r in llvm if r["anchor"] not in ("[module]",) and not r["anchor"].startswith("(")]
if fn:
    last = fn[-1]
    first = [r for r in mir if r["anchor"] == last["anchor"]]
    assert first and text(first[0], "before") == text(last, "after"), (last["name"], last["anchor"])
print(f"{trace.split('/')[-4]}: {len(llvm)} llvm, {len(mir)} mir ({len(machine)} machine) records; codegen input = last MIR")
PY
}
check "$(ls "$tmp"/demo/demo_gpu_matmul/.run_records/*/trace.json)" pipeline_gpu || fail "demo trace"
check "$(find "$tmp/opt" -name trace.json)" "$(python3 -c "
import json,sys; print(sorted(json.load(open(sys.argv[1]))['records'], key=lambda r: r['index'])[0]['phase'])" "$(find "$tmp/opt" -name trace.json)")" \
  || fail "lowertrace-opt trace"
echo "ptx trace: OK"
