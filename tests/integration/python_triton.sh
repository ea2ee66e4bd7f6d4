#!/usr/bin/env bash
# The Python package (python/) with a stand-in Triton (tests/data/python/
# fake_triton, the Triton 3.6 hooks it uses, replaying real H200 dumps):
# installed with pip into a user site, `TL_LOWER_TRACE=1 python3 script.py`
# traces with no wrapper; one run and one working copy per compiled variant
# (2 dtypes x 2 constexprs, autotune), an edit reaches that variant only and
# survives reruns; compile threads and forked/started worker processes never
# mix two compiles in one run; a front-end error is one line and leaves the
# exit status and traceback alone; the Python API reads runs back.
set -u
LT=${LT_BIN:?}/lowertrace
LIB=$LT_BIN/../lib/liblowertrace_c.so
D=$LT_SRC/tests/data/python
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ -f "$LIB" ] || { echo "FAIL: $LIB not built"; exit 1; }

# Install like a user: pip install ./python (into a private user site).
export PYTHONUSERBASE=$work/ub
site=$(python3 -m site --user-site)
cp -r "$LT_SRC/python" "$work/src"
if python3 -m pip --version > /dev/null 2>&1 && python3 -c "import setuptools, wheel" 2> /dev/null; then
  LOWERTRACE_LIB=$LIB python3 -m pip install -q --user --no-deps --no-build-isolation --no-index \
    --break-system-packages "$work/src" > "$work/pip.log" 2>&1 || { cat "$work/pip.log"; bad "pip install failed"; }
else
  # No wheel module (pip cannot build): setup.py itself puts the same files in place.
  echo "note: no pip/wheel here; installing with setup.py build_py"
  (cd "$work/src" && LOWERTRACE_LIB=$LIB python3 setup.py -q build_py -d "$site") > "$work/pip.log" 2>&1 \
    || { cat "$work/pip.log"; bad "setup.py build_py failed"; }
fi
[ -f "$site/lowertrace.pth" ] || bad "lowertrace.pth not in the user site $site"
[ -f "$site/lowertrace/lib/liblowertrace_c.so" ] || bad "the library was not installed with the package"
export PYTHONPATH=$D/fake_triton
unset TL_LOWER_TRACE LOWER_TRACE TL_LOWER_TRACE_DIR LOWER_TRACE_DIR LOWERTRACE_LIB
cd "$work"
SUM() { python3 "$D/check_trace.py" "$1"; }

# Off: nothing loaded, nothing written; on without triton: start-up unharmed.
[ "$(python3 -c 'import sys; print("_lowertrace_boot" in sys.modules)')" = False ] || bad "boot module loaded while unset"
[ "$(TL_LOWER_TRACE=0 python3 -c 'import sys; print("lowertrace" in sys.modules)')" = False ] || bad "package loaded with TL_LOWER_TRACE=0"
TL_LOWER_TRACE=0 TL_LOWER_TRACE_DIR=$work/off python3 "$D/fake_kernels.py" variants > off.out 2> off.err
[ -e "$work/off" ] && bad "TL_LOWER_TRACE=0 wrote a trace"
[ -s off.err ] && bad "TL_LOWER_TRACE=0 printed: $(head -2 off.err)"
out=$(TL_LOWER_TRACE=1 PYTHONPATH= python3 -c 'print("hello")' 2>&1)
[ "$out" = hello ] || bad "python start-up without triton: $out"

# 2 dtypes x 2 constexprs: 4 variants, 4 runs, 4 working copies, one index.
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/t python3 "$D/fake_kernels.py" variants > v1.out 2> v1.err || bad "variants exited $?"
grep -q WARNING v1.err && bad "warnings: $(grep WARNING v1.err | head -2)"
SUM "$work/t" > v1.sum
[ "$(grep -c '^variant add_kernel ' v1.sum)" = 4 ] || bad "want 4 variants: $(grep ^variant v1.sum)"
[ "$(ls "$work"/t/add_kernel/codegen.add_kernel.*.ptx | wc -l)" = 4 ] || bad "want 4 working copies"
[ "$(ls -d "$work"/t/add_kernel/.run_records/run_* | wc -l)" = 4 ] || bad "want 4 runs"
[ "$(grep '^seq' v1.sum | cut -d' ' -f4 | sort -u | wc -l)" = 1 ] || bad "variants have different pass sequences"
grep '^seq' v1.sum | head -1 | grep -q 'ttir/inline,.*ttgir/.*llir/.*llvm/InstCombinePass.*mir/nvptx-isel.*codegen/codegen$' \
  || bad "pass sequence not ttir..codegen: $(grep '^seq' v1.sum | head -1 | cut -c1-200)"
for want in '"BLOCK": 64' '"BLOCK": 128' '"x_ptr": "fp16"' '"x_ptr": "fp32"'; do
  [ "$(grep '^variant' v1.sum | grep -c "$want")" = 2 ] || bad "variants do not show $want twice"
done
idx=$work/t/add_kernel/index.html
[ "$(grep -o '<tr data-variant' "$idx" | wc -l)" = 4 ] || bad "index does not list 4 variants"
grep -q 'constexprs.BLOCK' "$idx" || bad "index does not show the distinguishing constexpr"
for r in $(grep -o 'href="[^"]*report.html"' "$idx" | sed 's/href="//; s/"$//'); do
  [ -f "$work/t/add_kernel/$r" ] || bad "index links a missing report $r"
done
grep -q 'all variants: .*add_kernel/index.html' v1.err || bad "no pointer to the variant index on stderr"

# Modes that print diffs while the compile owns fd 2: they reach the terminal,
# none of it is read back as dump text.
FAKE_TRITON_PTX_SECONDS=1 TL_LOWER_TRACE=both TL_LOWER_TRACE_DIR=$work/b python3 "$D/fake_kernels.py" variants > b.out 2> b.err || bad "both exited $?"
grep -q WARNING b.err && bad "mode both: warnings: $(grep WARNING b.err | head -2)"
[ "$(grep -c '^  \[lower_trace\] codegen/[0-9]*_codegen: CODEGEN ' b.err)" = 4 ] || bad "mode both: codegen lines missing on stderr"
grep -q '^+++ .*codegen (ptx after)' b.err || bad "mode both: no diffs on stderr"
SUM "$work/b" > b.sum
diff <(grep '^seq' b.sum | cut -d' ' -f4 | sort -u) <(grep '^seq' v1.sum | cut -d' ' -f4 | sort -u) > /dev/null \
  || bad "mode both traced other passes than html"

# Edit one variant's PTX: only that variant runs it, on every rerun.
wc=$(grep -l 'BLOCK.=128,constexpr,fp16' "$work"/t/add_kernel/codegen.add_kernel.*.ptx 2>/dev/null | head -1)
[ -z "$wc" ] && wc=$(grep -l 'variant (4,)=128,constexpr,fp16' "$work"/t/add_kernel/codegen.add_kernel.*.ptx | head -1)
[ -n "$wc" ] || bad "no working copy for the fp16 BLOCK=128 variant"
sed -i 's|^// variant .*|// variant EDITED|' "$wc"
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/t python3 "$D/fake_kernels.py" variants > v2.out 2> v2.err
[ "$(grep -c 'EDITED' v2.out)" = 1 ] || bad "the edit did not run for exactly one variant: $(cat v2.out)"
grep -q "compiling your edited PTX .*$(basename "$wc")" v2.err || bad "no word that the edit was used"
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/t python3 "$D/fake_kernels.py" variants > v3.out 2> v3.err
[ "$(grep -c 'EDITED' v3.out)" = 1 ] || bad "the edit did not survive a rerun"
[ "$(diff v1.out v3.out | grep -c '^>')" = 1 ] || bad "other variants changed with the edit: $(diff v1.out v3.out)"
TRITON_CACHE_DIR=$work/usercache python3 "$D/fake_kernels.py" variants > plain.out 2>&1
diff v1.out plain.out > /dev/null || bad "an untraced run saw the edit (or differs): $(cat plain.out)"
[ "$(ls -d "$work"/t/add_kernel/.run_records/run_* | wc -l)" = 12 ] || bad "reruns should add runs (12 after 3)"
[ "$(grep -o '<tr data-variant' "$idx" | wc -l)" = 4 ] || bad "index should still list 4 variants after reruns"
cp "$wc.original" "$wc"
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/t python3 "$D/fake_kernels.py" variants > v4.out 2> v4.err
grep -q EDITED v4.out && bad "reverted edit still ran"
diff v1.out v4.out > /dev/null || bad "after the revert the kernels differ from the first run"

# Autotune with 2 configs: 2 variants (BLOCK and num_warps tell them apart).
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/a python3 "$D/fake_kernels.py" autotune > a.out 2> a.err
SUM "$work/a" > a.sum
[ "$(grep -c '^variant mul_kernel ' a.sum)" = 2 ] || bad "autotune: want 2 variants"
grep '^variant' a.sum | grep -q '"BLOCK": 64.*"num_warps": 4' || bad "autotune config 1 not described"
grep '^variant' a.sum | grep -q '"BLOCK": 128.*"num_warps": 8' || bad "autotune config 2 not described"

# A thread pool: compiles are serialised while traced (said once), each run whole.
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/th python3 "$D/fake_kernels.py" threads > th.out 2> th.err || bad "threads exited $?"
SUM "$work/th" > th.sum
[ "$(grep -c '^variant' th.sum)" = 4 ] || bad "threads: want 4 runs, got $(grep -c '^variant' th.sum)"
grep -q WARNING th.err && bad "threads: warnings: $(grep WARNING th.err | head -2)"
[ "$(grep '^seq' th.sum | cut -d' ' -f4 | sed 's/[a-z_]*_kernel/K/g' | sort -u | wc -l)" = 1 ] || bad "threads: a run differs from a serial compile"
grep -q 'user stderr before the pool' th.err && grep -q 'user stderr after the pool' th.err || bad "threads: user stderr lost"
[ "$(grep -c 'one at a time' th.err)" = 1 ] || bad "want one notice that traced compiles are serialised: $(grep -c 'one at a time' th.err)"
[ "$(grep -c '^ran' th.out)" = 4 ] || bad "threads: stdout lost"

# Processes: a started worker forking 3 workers, and the parent, all at once.
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/p python3 "$D/fake_kernels.py" procs > p.out 2> p.err || bad "procs exited $?"
SUM "$work/p" > p.sum
[ "$(grep -c '^variant' p.sum)" = 4 ] || bad "procs: want 4 runs, got $(grep -c '^variant' p.sum)"
grep -q WARNING p.err && bad "procs: warnings: $(grep WARNING p.err | head -2)"
[ "$(grep '^seq' p.sum | cut -d' ' -f4 | sed 's/[a-z_]*_kernel/K/g' | sort -u | wc -l)" = 1 ] || bad "procs: a run differs from a serial compile"
[ "$(grep -c '^seq' th.sum)" = 4 ] && [ "$(grep '^seq' th.sum | head -1 | cut -d' ' -f4 | sed 's/[a-z_]*_kernel/K/g')" = "$(grep '^seq' p.sum | head -1 | cut -d' ' -f4 | sed 's/[a-z_]*_kernel/K/g')" ] \
  || bad "procs and threads runs differ"
[ "$(grep -c '^ran' p.out)" = 4 ] || bad "procs: stdout lost"
ls "$work"/p/.triton_cache/ 2> /dev/null | grep -q . && bad "private Triton cache left behind"

# A front-end error: one line naming the kernel; status and traceback unchanged.
python3 "$D/fake_kernels.py" error > e0.out 2> e0.err; rc0=$?
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/e python3 "$D/fake_kernels.py" error > e1.out 2> e1.err; rc1=$?
[ $rc0 = $rc1 ] && [ $rc1 != 0 ] || bad "exit status $rc1, untraced $rc0"
[ "$(grep -c 'lower_trace' e1.err)" = 1 ] || bad "want one lower_trace line: $(grep lower_trace e1.err)"
grep -q 'kernel bad_kernel: front-end error at 2:8 .*AttributeError' e1.err || bad "front-end error line: $(grep lower_trace e1.err)"
diff <(grep -v lower_trace e1.err) e0.err > /dev/null || bad "traceback changed"

# A pass failure: a failed run, the diagnostic still shown, status unchanged.
TL_LOWER_TRACE=1 TL_LOWER_TRACE_DIR=$work/f python3 "$D/fake_kernels.py" passfail > f.out 2> f.err; rc=$?
[ $rc = 1 ] || bad "passfail exit status $rc"
grep -q 'kernels.py:5:8: error: fake pass failure' f.err || bad "diagnostic not shown"
grep -q 'RuntimeError: PassManager::run failed' f.err || bad "traceback lost"
SUM "$work/f" > f.sum
grep '^variant' f.sum | grep -q 'ttir stage failed' || bad "failed compile's run does not say so: $(grep ^variant f.sum)"

# `lowertrace run -- python3 ...`: the same mechanism (no stderr splitting).
"$LT" run --dir "$work/r" -- python3 "$D/fake_kernels.py" variants > r.out 2> r.err || bad "lowertrace run exited $?"
SUM "$work/r" > r.sum
[ "$(grep -c '^variant add_kernel ' r.sum)" = 4 ] || bad "lowertrace run: want 4 variants"
diff r.out v1.out > /dev/null || bad "lowertrace run changed stdout"

# The Python API: seed semantics, records read back.
TL_LOWER_TRACE_DIR=$work/api python3 - "$work/t/add_kernel" <<'PY' > api.out 2> api.err || bad "API: $(tail -3 api.err)"
import sys, lowertrace as lt
assert lt.config()["mode"] == "off"
lt.enable(mode=None); assert lt.config()["mode"] == "off", lt.config()
lt.disable(); lt.enable(); assert lt.config()["mode"] == "off"       # unset: the environment (unset = off)
lt.enable(mode="both", trace_dir=None, codegen_output=None)
c = lt.config(); assert c["mode"] == "both" and c["codegen_output"] is None, c
lt.enable(mode="terminal", trace_dir="/x/y"); assert lt.config()["trace_dir"] == "/x/y"
lt.disable(); assert lt.config()["mode"] == "off"
lt.reset()
assert (lt.STATUS_COMPLETED, lt.STATUS_FAILED, lt.STATUS_SKIPPED, lt.STATUS_CODEGEN) == ("completed", "failed", "skipped", "codegen")
run = lt.read_run(sys.argv[1])
r = run.records[1]
for f in ("phase", "name", "index", "before", "after", "changed", "add_lines", "del_lines", "status", "error_msg"):
    getattr(r, f)
assert r.index == 1 and r.before and r.after and r.phase == "ttir"
assert run.records[-1].status == lt.STATUS_CODEGEN
try:
    lt.read_run("/nonexistent"); raise SystemExit("no error for a missing run")
except FileNotFoundError:
    pass
print("api ok")
PY
grep -q 'api ok' api.out || bad "API checks did not finish"

[ $fail = 0 ] && echo "PASS python_triton"
exit $fail
