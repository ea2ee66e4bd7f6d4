#!/usr/bin/env bash
# `lowertrace run -- python3 ...` without a GPU: a stand-in script that acts as
# Triton 3.6 does under the dump switches (tests/data/dumps/fake_triton.py,
# fed the real shared MLIR_ENABLE_DUMP fixture). Checks the switches, that
# stdout/exit status/non-dump stderr are the script's own, one run per kernel
# from ttir to PTX, and that an edited PTX working copy is what runs next time.
# This is the path without the Python package (--as triton-dumps forces it;
# it.python_triton covers the package's in-process hooks).
set -u
LT=${LT_BIN:?}/lowertrace
FAKE=${LT_SRC:?}/tests/data/dumps/fake_triton.py
FIX=${LT_FIXTURES:?}/triton-3.6/mlir_dump_add.txt
[ -f "$FIX" ] || { echo "FAIL: missing fixture $FIX"; exit 1; }
SUM="python3 $LT_SRC/tests/data/dumps/trace_summary.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cd "$work"
"$LT" run --as triton-dumps --dir "$work/trace" -- python3 "$FAKE" "$FIX" > out1 2> err1
rc=$?
[ $rc = 3 ] || bad "exit status $rc, want the script's 3"
grep -q '^user stdout line$' out1 || bad "script stdout lost"
grep -q 'user stderr line before compiling' err1 || bad "script stderr lost"
grep -q 'user stderr line after compiling' err1 || bad "script stderr after the dumps lost"
grep -q 'IR Dump' err1 && bad "dump text leaked to stderr"
grep -q 'Running pass:' err1 && bad "pass-manager chatter leaked to stderr"
grep -qP '^[0-9]+B\t' err1 && bad "MIR slot-index lines leaked to stderr"
grep -q 'WARNING' err1 && bad "warnings on a well-formed capture: $(grep WARNING err1 | head -2)"
grep -q 'TRITON_ALWAYS_COMPILE=1' err1 || bad "no word about the cache bypass"
$SUM "$work/trace" > sum1
banners=$(grep -c -E '^// -----// (IR Dump Before|SoftwarePipeliner)' "$FIX")
[ "$(grep -c $'\t\\(ttir\\|ttgir\\|llir\\)\t' sum1)" = "$banners" ] || bad "MLIR records != $banners banners"
grep -q $'\tllvm\tInstCombinePass\t' sum1 || bad "LLVM pass from stderr missing"
grep -q $'\tmir\tnvptx-isel\t' sum1 || bad "MIR pass missing"
grep -q $'\tcodegen\tcodegen\tcodegen\t' sum1 || bad "no PTX codegen record"
[ "$(cut -f1 sum1 | sort -u | wc -l)" = 1 ] || bad "one kernel should give one run"
wc=$work/trace/add_kernel/codegen.add_kernel.ptx
[ -f "$wc" ] || bad "no PTX working copy at $wc"

# Edit the working copy: the next run injects it and the script runs it.
sed -i 's/^\.version 8\.7$/.version 8.6/' "$wc"
"$LT" run --as triton-dumps --dir "$work/trace" -- python3 "$FAKE" "$FIX" > out2 2> err2
grep -q 'injecting your edited PTX' err2 || bad "edit not injected: $(grep lower_trace err2 | head -3)"
grep -q '^ran ptx: .version 8.6$' out2 || bad "the edited PTX did not run: $(cat out2)"
grep -q 'PATCHED' err2 || bad "codegen workflow did not say PATCHED: $(grep codegen err2)"

# A third run keeps using the edit; reverting the edit stops the injection.
"$LT" run --as triton-dumps --dir "$work/trace" -- python3 "$FAKE" "$FIX" > out3 2> err3
grep -q '^ran ptx: .version 8.6$' out3 || bad "edit not kept on the third run"
cp "$wc.original" "$wc"
"$LT" run --as triton-dumps --dir "$work/trace" -- python3 "$FAKE" "$FIX" > out4 2> err4
grep -q 'injecting' err4 && bad "reverted working copy still injected"
grep -q '^ran ptx: .version 8.7$' out4 || bad "original PTX not back"

[ $fail = 0 ] && echo "PASS run_triton"
exit $fail
