#!/bin/bash
# The LLVM pass plugin (liblowertrace-llvm.so) in opt-22 and clang-22:
#  - trace.json is written, with one record per pass that ran (and skipped ones);
#  - the recorded passes are exactly those -print-after-all prints, in the same
#    order and on the same IR units; skipped ones match -debug-pass-manager;
#  - the compiler's output and exit status do not change with the plugin loaded.
set -euo pipefail
: "${LT_BIN:?}"
PLUGIN="${LT_LLVM_PLUGIN:-$LT_BIN/../lib/liblowertrace-llvm.so}"
if [ ! -f "$PLUGIN" ]; then
  echo "SKIP: $PLUGIN not built (configure with LOWERTRACE_WITH_MLIR=ON)"; exit 0
fi
OPT=${OPT:-opt-22}
CLANG=${CLANG:-clang-22}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Inlining (an SCC), a loop that gets deleted (an invalidated unit), an optnone
# function (skipped passes) and plain function passes.
cat > kern.c <<'C'
static int cube(int v) { return v * v * v; }
int total(const int *xs, int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) acc += cube(xs[i]);
  return acc;
}
__attribute__((optnone, noinline)) int slow(int v) { return v * 5 - 2; }
void idle(int n) { for (int i = 0; i < n; ++i) { } }
C
"$CLANG" -O0 -Xclang -disable-O0-optnone -S -emit-llvm kern.c -o kern.ll

# "<pass> on <unit>" from the new-PM banners: "; *** IR Dump After X on Y [(invalidated)] ***".
banners() { sed -n -E 's/^; \*\*\* IR Dump After (.*) \*\*\*$/\1/p' "$1" | sed -E 's/ \(invalidated\)$//'; }
# The same from trace.json, in index order; $2 selects ran (completed/failed) or skipped records.
records() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rs = sorted(d["records"], key=lambda r: r["index"])
idx = [r["index"] for r in rs]
assert len(set(idx)) == len(idx), "duplicate indices"
for r in rs:
    if r["phase"] in ("mir", "codegen"):
        continue  # clang's back end: tests/integration/clang_mir_trace.sh
    assert r["phase"] == "llvm", r["phase"]
    assert r["ir_lang"] == "llvm", r["ir_lang"]
    skipped = r["status"] == "skipped"
    if (sys.argv[2] == "skipped") == skipped:
        print(r["name"] + " on " + r["anchor"])
PY
}
one_trace() {
  local n; n=$(find "$1" -name trace.json | wc -l)
  [ "$n" = 1 ] || fail "expected one trace.json under $1, found $n"
  find "$1" -name trace.json
}

check_texts() {  # trace.json, -print-before-all output, -print-after-all output, label
  python3 - "$1" "$2" before "$3" after "$4" <<'PY' || fail "$4: recorded IR differs from -print-before-all/-print-after-all"
import json, os, re, sys
def blocks(path, when):
    out, cur = [], None
    for line in open(path):
        m = re.match(r"^; \*\*\* IR Dump " + when + r" (.*) \*\*\*$", line.rstrip("\n"))
        if m:
            cur = [m.group(1), []]
            out.append(cur)
        elif cur is not None:
            cur[1].append(line)
    return out
d = json.load(open(sys.argv[1]))
run = os.path.dirname(sys.argv[1])
recs = sorted((r for r in d["records"] if r["status"] != "skipped" and r["phase"] == "llvm"), key=lambda r: r["index"])
norm = lambda t: [l.rstrip() for l in t.splitlines() if l.strip()]
# LLVM numbers a loop dump's metadata per function, so compare those without the numbers.
md = lambda ls: {re.sub(r"!\d+", "!N", l) for l in ls}
for path, side in ((sys.argv[2], sys.argv[3]), (sys.argv[4], sys.argv[5])):
    bs = blocks(path, side.capitalize())
    assert len(recs) == len(bs), (side, len(recs), len(bs))
    checked = loops = 0
    for r, (banner, lines) in zip(recs, bs):
        if banner.endswith("(invalidated)"):
            continue
        ours = norm(open(os.path.join(run, r[side + "_text"]["file"])).read())
        theirs = norm("".join(lines))
        if r["anchor"].startswith("loop %"):
            missing = [l for l in md(theirs) - md(ours) if not l.startswith(";")]
            assert not missing, (side, r["index"], banner, missing[:3])
            loops += 1
        else:
            assert ours == theirs, (side, r["index"], banner)
            checked += 1
    print(f"{sys.argv[6]}: {checked} {side}-texts equal to the dumps, {loops} loop dumps contained")
PY
}

# ---------------------------------------------------------------- opt-22
"$OPT" -passes='default<O2>' kern.ll -S -o opt_plain.ll
"$OPT" -passes='default<O2>' -print-after-all kern.ll -S -o /dev/null 2> opt_pa.txt
"$OPT" -passes='default<O2>' -debug-pass-manager kern.ll -S -o /dev/null 2> opt_dpm.txt
TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$tmp/t_opt" \
  "$OPT" -load-pass-plugin="$PLUGIN" -passes='default<O2>' kern.ll -S -o opt_traced.ll 2> opt_err.txt \
  || fail "opt with the plugin failed: $(tail -3 opt_err.txt)"
cmp opt_plain.ll opt_traced.ll || fail "opt output differs with the plugin"
trace=$(one_trace "$tmp/t_opt")
[[ "$trace" == "$tmp/t_opt/kern/"* ]] || fail "script folder should be the source stem 'kern': $trace"
banners opt_pa.txt > want.txt
records "$trace" ran > got.txt
[ -s want.txt ] || fail "no -print-after-all banners"
diff want.txt got.txt > /dev/null || { diff want.txt got.txt | head; fail "opt: recorded passes differ from -print-after-all"; }
sed -n -E 's/^Skipping pass: (.*)$/\1/p' opt_dpm.txt > want_skip.txt
records "$trace" skipped > got_skip.txt
[ -s want_skip.txt ] || fail "the optnone function should make opt skip passes"
diff want_skip.txt got_skip.txt > /dev/null || { diff want_skip.txt got_skip.txt | head; fail "opt: skipped passes differ from -debug-pass-manager"; }
grep -q '"invalidated"' "$trace" || fail "the deleted loop should give an invalidated record"
# The recorded texts are the IR -print-before-all / -print-after-all print. Loop passes are
# the one designed difference (we keep the whole function, LLVM prints the
# loop's blocks): there every line LLVM printed must be in our function text.
# This also pins down how units are printed (metadata numbering, SCC contents).
"$OPT" -passes='default<O2>' -print-before-all kern.ll -S -o /dev/null 2> opt_pb.txt
check_texts "$trace" opt_pb.txt opt_pa.txt opt
grep -q "lower_trace\] llvm/" opt_err.txt || fail "terminal mode printed no pass lines"
echo "opt: $(wc -l < got.txt) passes and $(wc -l < got_skip.txt) skipped match"

# ---------------------------------------------------------------- clang-22
for kind in ll s; do
  flags=(-O2 -S); [ $kind = ll ] && flags+=(-emit-llvm)
  "$CLANG" "${flags[@]}" kern.c -o clang_plain.$kind
  TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$tmp/t_clang_$kind" \
    "$CLANG" "${flags[@]}" -fpass-plugin="$PLUGIN" kern.c -o clang_traced.$kind 2> clang_err.txt \
    || fail "clang with the plugin failed: $(tail -3 clang_err.txt)"
  cmp clang_plain.$kind clang_traced.$kind || fail "clang -S ($kind) output differs with the plugin"
  # With -emit-llvm no back end runs, so there are no machine passes to trace.
  python3 - "$(one_trace "$tmp/t_clang_$kind")" $kind <<'PY' || fail "clang -S ($kind): machine passes recorded or missing"
import json, sys
d = json.load(open(sys.argv[1]))
mir = [r for r in d["records"] if r["phase"] == "mir"]
assert bool(mir) == (sys.argv[2] == "s"), len(mir)
PY
done
"$CLANG" -O2 -S -emit-llvm -mllvm -print-after-all kern.c -o /dev/null 2> clang_pa.txt
"$CLANG" -O2 -S -emit-llvm -mllvm -print-before-all kern.c -o /dev/null 2> clang_pb.txt
banners clang_pa.txt > want.txt
records "$(one_trace "$tmp/t_clang_ll")" ran > got.txt
check_texts "$(one_trace "$tmp/t_clang_ll")" clang_pb.txt clang_pa.txt clang
diff want.txt got.txt > /dev/null || { diff want.txt got.txt | head; fail "clang: recorded passes differ from -print-after-all"; }
echo "clang: $(wc -l < got.txt) passes match"

# ---------------------------------------------------------------- clang-22, C++
# Templates, virtual calls, exceptions, lambdas and TBAA: the plugin prints a
# unit only when its fingerprint moved and reuses one metadata numbering per
# epoch, and every recorded text must still equal the dumps. IPSCCP adds
# range() attributes here while reporting that it preserved everything.
cp "$LT_SRC/tests/data/llvm/plugin_cxx.cpp" cxx.cpp
"$CLANG" -O2 -c cxx.cpp -o cxx_plain.o
TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$tmp/t_cxx" \
  "$CLANG" -O2 -c -fpass-plugin="$PLUGIN" cxx.cpp -o cxx_traced.o 2> cxx_err.txt \
  || fail "clang++ with the plugin failed: $(tail -3 cxx_err.txt)"
cmp cxx_plain.o cxx_traced.o || fail "clang++ output differs with the plugin"
# -S -emit-llvm: the same IR pipeline, without the codegen passes' dumps.
"$CLANG" -O2 -S -emit-llvm cxx.cpp -o /dev/null -mllvm -print-after-all 2> cxx_pa.txt
"$CLANG" -O2 -S -emit-llvm cxx.cpp -o /dev/null -mllvm -print-before-all 2> cxx_pb.txt
cxx_trace=$(one_trace "$tmp/t_cxx")
banners cxx_pa.txt > want.txt
records "$cxx_trace" ran > got.txt
diff want.txt got.txt > /dev/null || { diff want.txt got.txt | head; fail "clang++: recorded passes differ from -print-after-all"; }
check_texts "$cxx_trace" cxx_pb.txt cxx_pa.txt c++
python3 - "$cxx_trace" <<'PY' || fail "clang++: IPSCCP's change was not recorded"
import json, sys
d = json.load(open(sys.argv[1]))
assert any(r["name"] == "IPSCCPPass" and r["changed"] for r in d["records"])
PY
echo "clang++: $(wc -l < got.txt) passes match"

# ---------------------------------------------------------------- clang-22, C++ with -g
# Debug info: every function print numbers the whole module's metadata, which
# passes on other units change (the inliner empties a dead callee's body while
# it runs on the caller's SCC; full unrolling drops !DIAssignID stores). The
# plugin keeps one numbering per epoch, built from per-function lists: the
# texts must equal the dumps, and LT_CHECK_NUMBERING=1 compares every function
# print with LLVM's own numbering (loop dumps above are compared without it).
cp "$LT_SRC/tests/data/llvm/plugin_cxx_debug.cpp" dbg.cpp
"$CLANG" -O2 -g -c dbg.cpp -o dbg_plain.o
TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$tmp/t_dbg" \
  "$CLANG" -O2 -g -c -fpass-plugin="$PLUGIN" dbg.cpp -o dbg_traced.o 2> dbg_err.txt \
  || fail "clang++ -g with the plugin failed: $(tail -3 dbg_err.txt)"
cmp dbg_plain.o dbg_traced.o || fail "clang++ -g output differs with the plugin"
"$CLANG" -O2 -g -S -emit-llvm dbg.cpp -o /dev/null -mllvm -print-after-all 2> dbg_pa.txt
"$CLANG" -O2 -g -S -emit-llvm dbg.cpp -o /dev/null -mllvm -print-before-all 2> dbg_pb.txt
dbg_trace=$(one_trace "$tmp/t_dbg")
banners dbg_pa.txt > want.txt
records "$dbg_trace" ran > got.txt
diff want.txt got.txt > /dev/null || { diff want.txt got.txt | head; fail "clang++ -g: recorded passes differ from -print-after-all"; }
check_texts "$dbg_trace" dbg_pb.txt dbg_pa.txt "c++ -g"
rm -f dbg_pa.txt dbg_pb.txt
LT_CHECK_NUMBERING=1 TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$tmp/t_dbg_check" \
  "$CLANG" -O2 -g -c -fpass-plugin="$PLUGIN" dbg.cpp -o /dev/null 2> dbg_check.txt
grep -q "numbering checked against LLVM's own on every function print: 0 differed" dbg_check.txt \
  || fail "clang++ -g: $(grep -o 'numbering checked.*' dbg_check.txt || echo 'no numbering check line')"
echo "clang++ -g: $(wc -l < got.txt) passes match, numbering equal to LLVM's on every function print"

# ---------------------------------------------------------------- exit status and off mode
printf 'define i32 @f( {\n' > broken.ll
set +e
"$OPT" -passes='default<O2>' broken.ll -S -o /dev/null 2>/dev/null; rc_plain=$?
TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$tmp/t_broken" \
  "$OPT" -load-pass-plugin="$PLUGIN" -passes='default<O2>' broken.ll -S -o /dev/null 2>/dev/null; rc_traced=$?
set -e
[ "$rc_plain" != 0 ] && [ "$rc_plain" = "$rc_traced" ] || fail "exit status $rc_plain without, $rc_traced with the plugin"

env -u TL_LOWER_TRACE -u LOWER_TRACE TL_LOWER_TRACE_DIR="$tmp/t_off" \
  "$OPT" -load-pass-plugin="$PLUGIN" -passes='default<O2>' kern.ll -S -o opt_off.ll 2> off_err.txt
cmp opt_plain.ll opt_off.ll || fail "output differs with tracing off"
[ ! -e "$tmp/t_off" ] || fail "tracing off must write nothing"
[ ! -s off_err.txt ] || fail "tracing off must print nothing: $(head -2 off_err.txt)"
echo PASS
