#!/usr/bin/env bash
# GPU validation of `lowertrace run` on real Triton kernels (run on the device machine).
set -u
G=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$G
LT=$G/lowertrace
cd "$G"
for k in add softmax matmul; do
  "$LT" run --keep --dir "$OUT/trace" -- python3 kernels.py $k > "$OUT/$k.out" 2> "$OUT/$k.err"
  echo "rc=$?" >> "$OUT/$k.out"
  cap=$(grep -o '/tmp/lowertrace-run-[A-Za-z0-9]*' "$OUT/$k.err" | tail -1)
  mkdir -p "$OUT/cap_$k"
  cp "$cap"/mlir_dump.txt "$cap"/stderr.txt "$OUT/cap_$k/" 2>/dev/null
  (cd "$cap" && find triton_dump -type f | sort) > "$OUT/cap_$k/stage_files.txt"
  echo "== $k: mlir banners $(grep -c -E '^// -----// (IR Dump|SoftwarePipeliner)' "$cap/mlir_dump.txt")," \
       "stderr pipeliner steps $(grep -c SoftwarePipeliner "$cap/stderr.txt"), llvm/mir banners $(grep -c -E '^(; )?\*\*\* IR Dump|^# \*\*\* IR Dump' "$cap/stderr.txt")" >> "$OUT/counts.txt"
done
python3 trace_summary.py "$OUT/trace" > "$OUT/summary.txt"
# Edit-and-recompile: turn the add into a subtract in the PTX working copy.
wc="$OUT/trace/add_kernel/codegen.add_kernel.ptx"
grep -n 'add.f32\|add.rn.f32' "$wc" > "$OUT/edit_lines.txt"
sed -i 's/\badd\.f32\b/sub.f32/; s/\badd\.rn\.f32\b/sub.rn.f32/' "$wc"
python3 gpu_check.py > "$OUT/plain_check.out" 2>&1
"$LT" run --dir "$OUT/trace" -- python3 gpu_check.py > "$OUT/edit.out" 2> "$OUT/edit.err"
echo "rc=$?" >> "$OUT/edit.out"
cp "$wc.original" "$wc"
"$LT" run --dir "$OUT/trace" -- python3 gpu_check.py > "$OUT/revert.out" 2> "$OUT/revert.err"


# Pack what comes back into one file.
cd "$OUT"
for f in *.err; do grep -v '/[0-9][0-9][0-9]_' "$f" | grep 'lower_trace' > "$f.lt"; grep -vc 'lower_trace' "$f" > "$f.other_lines"; done
ls -la cap_*/ > caps_ls.txt
tar czf results.tgz summary.txt counts.txt *.out *.err *.lt *.other_lines edit_lines.txt caps_ls.txt cap_add cap_softmax/mlir_dump.txt cap_matmul/mlir_dump.txt cap_*/stage_files.txt
ls -la results.tgz
find . -mindepth 1 -maxdepth 1 ! -name results.tgz -exec rm -rf {} +
