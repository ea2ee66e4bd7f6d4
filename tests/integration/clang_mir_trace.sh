#!/bin/bash
# clang-22's back end in the plugin's trace (src/capture/llvm/shadow_codegen.*):
# once clang's optimiser is done, the plugin runs clang's own TargetMachine's
# codegen pipeline on a copy of the module in the machine-pass tracer.
#  - clang's output (-S and -c) and its stderr are byte-identical with the
#    plugin loaded (a back-end warning is printed once, by clang);
#  - the mir records are clang -mllvm -print-after-all's legacy-pass-manager
#    banners one to one (name, argument, IR or MIR, function, order), each
#    recorded after-text the text printed there (tests/integration/mir_banners.py);
#  - the codegen record holds the assembly clang -S writes, byte for byte;
#  - with -stats, -ftime-report, -ftime-trace, opt-bisect or -fstack-usage there
#    is no second back-end run and a skipped record says why;
#  - TL_LOWER_TRACE_MIR=0 turns the back end off.
set -euo pipefail
: "${LT_BIN:?}" "${LT_SRC:?}"
PLUGIN="${LT_LLVM_PLUGIN:-$LT_BIN/../lib/liblowertrace-llvm.so}"
if [ ! -f "$PLUGIN" ]; then
  echo "SKIP: $PLUGIN not built (configure with LOWERTRACE_WITH_MLIR=ON)"; exit 0
fi
CLANG=${CLANG:-clang-22}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
one_trace() {
  local n; n=$(find "$1" -name trace.json | wc -l)
  [ "$n" = 1 ] || fail "expected one trace.json under $1, found $n"
  find "$1" -name trace.json
}
# traced DIR ARGS...: clang with the plugin, our own lines kept out of its stderr.
traced() {
  local dir=$1; shift
  TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/$dir" TL_LOWER_TRACE_LOG="$tmp/$dir.log" \
    "$CLANG" -fpass-plugin="$PLUGIN" "$@"
}

cp "$LT_SRC"/tests/data/llvm/mir/*.c "$LT_SRC"/tests/data/llvm/plugin_cxx.cpp .
for src in loops.c structs.c switch_fp.c plugin_cxx.cpp; do
  name=${src%.*}
  for O in 0 2; do
    label="$src -O$O"
    "$CLANG" -O$O -S "$src" -o "$name$O.plain.s" 2> "$name$O.plain.err"
    traced "t_$name$O" -O$O -S "$src" -o "$name$O.traced.s" 2> "$name$O.traced.err" \
      || fail "$label: clang with the plugin failed: $(tail -3 "$name$O.traced.err")"
    cmp "$name$O.plain.s" "$name$O.traced.s" || fail "$label: assembly differs with the plugin"
    cmp "$name$O.plain.err" "$name$O.traced.err" || fail "$label: stderr differs with the plugin"
    "$CLANG" -O$O -S -mllvm -print-after-all "$src" -o /dev/null 2> "$name$O.pa.txt"
    trace=$(one_trace "t_$name$O")
    python3 "$LT_SRC/tests/integration/mir_banners.py" "$name$O.pa.txt" "$trace" "$label" \
      || fail "$label: mir records differ from clang -mllvm -print-after-all"
    python3 - "$trace" "$name$O.plain.s" <<'PY' || fail "$label: the codegen record is not clang's assembly"
import json, os, sys
d = json.load(open(sys.argv[1]))
cg = [r for r in d["records"] if r["status"] == "codegen"]
assert len(cg) == 1, len(cg)
text = open(os.path.join(os.path.dirname(sys.argv[1]), cg[0]["after_text"]["file"])).read()
assert text == open(sys.argv[2]).read()
# The back end's records follow the optimiser's.
phases = [r["phase"] for r in sorted(d["records"], key=lambda r: r["index"])]
assert phases == sorted(phases, key=["llvm", "mir", "codegen"].index), "phases out of order"
PY
  done
done

# Debug info in the machine passes. Machine functions are printed on one
# module numbering for as long as the IR stands (machine_tracer.cpp,
# print_machine_function), not on a fresh one per print as
# MachineFunction::print does; with -g that numbering holds every DILocation.
# The texts must still be -print-after-all's, and LT_CHECK_NUMBERING=1
# compares every machine-function print with MachineFunction::print's own.
cp "$LT_SRC/tests/data/llvm/plugin_cxx_debug.cpp" dbg.cpp
for O in 0 2; do
  label="dbg.cpp -O$O -g"
  traced "t_dbg$O" -O$O -g -S dbg.cpp -o "dbg$O.traced.s" 2> "dbg$O.err" \
    || fail "$label: clang with the plugin failed: $(tail -3 "dbg$O.err")"
  "$CLANG" -O$O -g -S -mllvm -print-after-all dbg.cpp -o /dev/null 2> "dbg$O.pa.txt"
  python3 "$LT_SRC/tests/integration/mir_banners.py" "dbg$O.pa.txt" "$(one_trace "t_dbg$O")" "$label" \
    || fail "$label: mir records differ from clang -mllvm -print-after-all"
  rm -f "dbg$O.pa.txt"
  # The report embeds the source lines the IR's !dbg locations name (the
  # plugin releases its texts, so they are scanned as they are delivered).
  python3 - "$(dirname "$(one_trace "t_dbg$O")")/report.html" <<'PY' || fail "$label: the report has no source lines of dbg.cpp"
import json, re, sys
html = open(sys.argv[1]).read()
meta = json.loads(re.search(r'<script type="application/json" id="lt-meta">(.*?)</script>', html, re.S).group(1))
lines = meta.get("src", {}).get("dbg.cpp", {})
src = open("dbg.cpp").read().split("\n")
assert lines, sorted(meta.get("src", {}))
assert all(src[int(n) - 1] == text for n, text in lines.items()), "lines differ from dbg.cpp"
PY
  LT_CHECK_NUMBERING=1 traced "t_dbgc$O" -O$O -g -S dbg.cpp -o /dev/null 2> "dbgc$O.err" \
    || fail "$label: clang with the plugin failed under LT_CHECK_NUMBERING"
  grep -q "numbering checked against MachineFunction::print on every print: 0 differed" "$tmp/t_dbgc$O.log" \
    || fail "$label: $(grep -o 'machine passes: numbering checked.*' "$tmp/t_dbgc$O.log" || echo 'no machine-pass numbering check line')"
done

# -c under other flags: the object file is unchanged, and the codegen record is
# still exactly clang -S's assembly (debug info, PIC, sections, a sanitizer's
# passes after the optimiser); -flto=thin writes bitcode, so no back end runs.
for flags in "-O0 -g" "-O2 -g -fPIC -ffunction-sections" "-O1 -fsanitize=address" "-Os -flto=thin"; do
  tag=$(echo "$flags" | tr -c 'a-zA-Z0-9\n' _)
  # shellcheck disable=SC2086
  "$CLANG" $flags -c plugin_cxx.cpp -o "$tag.plain.o"
  # shellcheck disable=SC2086
  "$CLANG" $flags -S plugin_cxx.cpp -o "$tag.plain.s"
  # shellcheck disable=SC2086
  traced "t_$tag" $flags -c plugin_cxx.cpp -o "$tag.traced.o" || fail "$flags -c: clang with the plugin failed"
  cmp "$tag.plain.o" "$tag.traced.o" || fail "$flags -c: object file differs with the plugin"
  python3 - "$(one_trace "t_$tag")" "$tag.plain.s" "$flags" <<'PY' || fail "$flags -c: wrong back-end records"
import json, os, sys
d = json.load(open(sys.argv[1]))
cg = [r for r in d["records"] if r["status"] == "codegen"]
mir = [r for r in d["records"] if r["phase"] == "mir"]
if "-flto" in sys.argv[3]:
    assert not cg and not mir, (len(cg), len(mir))
else:
    assert len(cg) == 1 and mir
    assert open(os.path.join(os.path.dirname(sys.argv[1]), cg[0]["after_text"]["file"])).read() == open(sys.argv[2]).read()
PY
done

# A back-end diagnostic (PrologEpilogInserter's stack frame warning) is printed
# once: the copy's diagnostics stay in the copy.
cat > frame.c <<'C'
int use(char *);
int big(void) { char buf[4096]; return use(buf); }
C
"$CLANG" -O2 -S -Wframe-larger-than=64 frame.c -o frame.plain.s 2> frame.plain.err
traced t_frame -O2 -S -Wframe-larger-than=64 frame.c -o frame.traced.s 2> frame.traced.err
grep -q "stack frame size" frame.plain.err || fail "expected clang's stack frame warning"
cmp frame.plain.err frame.traced.err || fail "the back-end warning differs with the plugin: $(cat frame.traced.err)"
cmp frame.plain.s frame.traced.s || fail "frame.c: assembly differs with the plugin"

# Global state a second back-end run would change for the user: counters,
# timers, time traces, opt-bisect's numbering, -fstack-usage's file. Then the
# back end is not run again, clang's output is unchanged, and one skipped
# record says why.
for case in "stats:-mllvm -stats:-stats" "time:-ftime-report:-ftime-report" "trace:-ftime-trace:-ftime-trace" \
            "bisect:-mllvm -opt-bisect-limit=100:opt-bisect" "su:-fstack-usage:-fstack-usage"; do
  IFS=: read -r tag flags why <<< "$case"
  # shellcheck disable=SC2086
  "$CLANG" -O2 -S $flags loops.c -o "$tag.plain.s" 2> "$tag.plain.err"
  # shellcheck disable=SC2086
  traced "t_$tag" -O2 -S $flags loops.c -o "$tag.traced.s" 2> "$tag.traced.err" || fail "$flags: clang with the plugin failed"
  cmp "$tag.plain.s" "$tag.traced.s" || fail "$flags: assembly differs with the plugin"
  case $tag in
    bisect) grep -q "BISECT: NOT running" bisect.plain.err || fail "opt-bisect limit 100 should stop passes"
            cmp bisect.plain.err bisect.traced.err || fail "opt-bisect: BISECT lines differ with the plugin" ;;
    su) cmp su.plain.su su.traced.su || fail "-fstack-usage: the .su file differs with the plugin" ;;
    stats) cmp stats.plain.err stats.traced.err || fail "-stats output differs with the plugin" ;;
  esac
  python3 - "$(one_trace "t_$tag")" "$why" <<'PY' || fail "$flags: expected one skipped 'machine passes' record saying why"
import json, sys
d = json.load(open(sys.argv[1]))
mir = [r for r in d["records"] if r["phase"] == "mir"]
assert len(mir) == 1 and mir[0]["status"] == "skipped" and mir[0]["name"] == "machine passes", mir
assert sys.argv[2] in mir[0]["detail"], mir[0]["detail"]
assert not [r for r in d["records"] if r["status"] == "codegen"]
PY
done

# TL_LOWER_TRACE_MIR=0: the optimiser only.
TL_LOWER_TRACE_MIR=0 traced t_off -O2 -S loops.c -o off.s
python3 - "$(one_trace t_off)" <<'PY' || fail "TL_LOWER_TRACE_MIR=0 still traced the back end"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["records"] and all(r["phase"] == "llvm" for r in d["records"])
PY
echo "clang mir trace: OK"
