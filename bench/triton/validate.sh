#!/usr/bin/env bash
# Device validation of the Python package on real Triton 3.6 (H200): 4
# variants of one kernel (2 dtypes x 2 constexprs), autotune with 2 configs,
# a torch.compile model, a front-end error, and an edit of one variant's PTX
# reaching the GPU for that variant only. Not CI (needs the GPU machine).
# Usage: OUT=<dir> LIBDIR=<dir with liblowertrace_c.so and its libs> bash bench/triton/validate.sh
set -u
R=$(cd "$(dirname "$0")/../.." && pwd)
B=$R/bench/triton
CHECK="python3 $R/tests/data/python/check_trace.py"
cd "$OUT"
exec > >(tee "$OUT/validate.txt") 2>&1
log() { echo "== $*"; }

# Install: pip install ./python, else the files pip would install.
cp -r "$R/python" "$OUT/pysrc"
if LOWERTRACE_LIB=$LIBDIR/liblowertrace_c.so python3 -m pip install -q --no-deps --no-build-isolation \
     --break-system-packages "$OUT/pysrc" > pip.log 2>&1; then log "pip install ./python: ok"
else
  log "pip install failed ($(tail -1 pip.log)); copying into site-packages"
  site=$(python3 -c 'import site; print(site.getsitepackages()[0])')
  (cd "$OUT/pysrc" && LOWERTRACE_LIB=$LIBDIR/liblowertrace_c.so python3 setup.py -q build_py -d "$site")
fi
python3 -c 'import lowertrace, _lowertrace_boot; print("installed:", lowertrace.__file__)'
export TORCHINDUCTOR_FORCE_DISABLE_CACHES=1

log "variants (2 dtypes x 2 constexprs)"
python3 "$B/cases.py" variants > variants0.out 2>&1
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$OUT/trace python3 "$B/cases.py" variants > variants1.out 2> variants1.err
echo "rc=$?"; cat variants1.out; grep -c WARNING variants1.err | sed 's/^/warnings: /'
$CHECK "$OUT/trace" > variants1.sum; grep -c '^variant add_kernel' variants1.sum | sed 's/^/add_kernel variants: /'
grep '^variant' variants1.sum | cut -d' ' -f2-4,6-
grep '^seq' variants1.sum | awk '{n=split($4,a,","); print $3, n" records"}'
grep '^seq' variants1.sum | cut -d' ' -f4 | tr ',' '\n' | cut -d/ -f1 | sort | uniq -c | tr '\n' ' '; echo

log "edit the fp32 BLOCK=512 variant's PTX: add.f32 -> sub.f32"
wc=$(python3 - "$OUT/trace/add_kernel" <<'PY'
import sys, lowertrace
for v in lowertrace.variants(sys.argv[1]):
    d = v["describe"]
    if d["constexprs"].get("BLOCK") == 512 and d["signature"].get("x_ptr") == "*fp32":
        print(sys.argv[1] + "/" + v["working_copy"])
PY
)
echo "working copy: $wc"; grep -c 'add.f32' "$wc" | sed 's/^/add.f32 lines: /'
sed -i 's/\badd\.f32\b/sub.f32/g' "$wc"
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$OUT/trace python3 "$B/cases.py" variants > variants2.out 2> variants2.err
cat variants2.out; grep 'edited PTX' variants2.err
log "rerun keeps the edit"
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$OUT/trace python3 "$B/cases.py" variants > variants3.out 2> variants3.err; cat variants3.out
log "untraced run after the edit (the user's cache is untouched)"
python3 "$B/cases.py" variants
cp "$wc.original" "$wc"
log "reverted"
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$OUT/trace python3 "$B/cases.py" variants > variants4.out 2> variants4.err; cat variants4.out
grep -o '<tr data-variant' "$OUT/trace/add_kernel/index.html" | wc -l | sed 's/^/index rows: /'

log "autotune, 2 configs"
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$OUT/tune python3 "$B/cases.py" autotune > tune.out 2> tune.err; echo "rc=$?"; cat tune.out
$CHECK "$OUT/tune" > tune.sum; grep '^variant' tune.sum | cut -d' ' -f2-4,6-

log "torch.compile model (Linear, LayerNorm, GELU, Linear, softmax)"
t0=$(date +%s.%N)
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$OUT/model LOWERTRACE_KEEP_TRITON_CACHE=1 python3 "$B/cases.py" model > model.out 2> model.err
echo "rc=$? wall $(python3 -c "import time; print(round(time.time() - $t0, 1))") s"; cat model.out
grep -c WARNING model.err | sed 's/^/warnings: /'; grep WARNING model.err | head -5
grep -c 'one at a time' model.err | sed 's/^/serialisation notices: /'
$CHECK "$OUT/model" > model.sum
grep '^variant' model.sum | cut -d' ' -f2-4,6- | cut -c1-300
echo "cache ptx files: $(find "$OUT"/model/.triton_cache -name '*.ptx' | wc -l), traced variants: $(grep -c '^variant' model.sum)"
find "$OUT"/model/.triton_cache -name '*.json' ! -name '__grp__*' -exec python3 -c '
import json, sys
for f in sys.argv[1:]:
    j = json.load(open(f))
    if "hash" in j: print("cache", j["name"], j["hash"][:10])' {} + | sort > model_cache.txt
grep '^variant' model.sum | awk '{print "cache", $2, $3}' | sort > model_traced.txt
diff model_cache.txt model_traced.txt && echo "every kernel in Triton's cache has a trace, and no other"
grep '^seq' model.sum | cut -d' ' -f4 | tr ',' '\n' | grep -c '^run[0-9]' | sed 's/^/run<N>_ phases (interleaving): /'
grep '^seq' model.sum | awk '{n=split($4,a,","); s=0; for(i in a) if (a[i] ~ /^(ttir\/inline|codegen\/codegen|mir\/nvptx-isel|llir\/convert-triton-gpu-to-llvm)$/) s++; print $2, $3, n" records", s" of 4 landmarks"}'

log "front-end error"
python3 "$B/cases.py" error > err0.out 2> err0.err; echo "untraced rc=$?"
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$OUT/err python3 "$B/cases.py" error > err1.out 2> err1.err; echo "traced rc=$?"
grep lower_trace err1.err
diff <(grep -v lower_trace err1.err) err0.err > /dev/null && echo "traceback identical to the untraced run"
tail -2 err0.err
tar czf "$OUT/traces.tgz" -C "$OUT" trace/add_kernel/index.html model/*/index.html 2>/dev/null
rm -rf "$OUT/pysrc" "$OUT"/model/.triton_cache "$OUT"/trace "$OUT"/tune "$OUT"/model "$OUT"/err
