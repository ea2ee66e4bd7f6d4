#!/bin/bash
# The machine-pass tracer (src/capture/llvm/machine_tracer.*) in lt-llc, an llc
# whose codegen pipeline runs in a TracingPassManager:
#  - its records of phase mir are llc-22 -print-after-all's "IR Dump After"
#    banners one to one: pass name, pass argument, MIR or IR, function, order;
#  - each recorded after-text is the text -print-after-all printed there (so a
#    machine function left unprinted because its fingerprint did not move
#    really was unchanged);
#  - the assembly is llc-22's, traced or not, and is the codegen record;
#  - opt-bisect: llc-22's BISECT lines on stderr are unchanged, and passes told
#    not to run that left their function unchanged are skipped records.
set -euo pipefail
: "${LT_BIN:?}" "${LT_SRC:?}"
LLC_T="$LT_BIN/lt-llc"
if [ ! -x "$LLC_T" ]; then
  echo "SKIP: $LLC_T not built (configure with LOWERTRACE_WITH_MLIR=ON)"; exit 0
fi
LLC=${LLC:-llc-22}
CLANG=${CLANG:-clang-22}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

# The mir records against the dump's legacy banners (tests/integration/mir_banners.py).
check() {  # dump, trace.json, label
  python3 "$LT_SRC/tests/integration/mir_banners.py" "$1" "$2" "$3" || fail "$3: records differ from llc-22 -print-after-all"
}

for src in "$LT_SRC"/tests/data/llvm/mir/*.c; do
  name=$(basename "$src" .c)
  for O in 0 2; do
    "$CLANG" -O$O -Xclang -disable-O0-optnone -S -emit-llvm "$src" -o "$name.ll"
    "$LLC" -O$O "$name.ll" -o "$name.llc.s"
    "$LLC" -O$O -print-after-all "$name.ll" -o /dev/null 2> "$name.pa.txt"
    "$LLC_T" -O$O "$name.ll" -o "$name.plain.s"
    cmp "$name.llc.s" "$name.plain.s" || fail "$name -O$O: lt-llc untraced differs from llc-22"
    rm -rf "t_$name$O"
    TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/t_$name$O" \
      "$LLC_T" -O$O "$name.ll" -o "$name.traced.s" 2> "$name.err" || fail "$name -O$O: lt-llc traced failed: $(tail -3 "$name.err")"
    cmp "$name.llc.s" "$name.traced.s" || fail "$name -O$O: traced assembly differs from llc-22"
    trace=$(find "t_$name$O" -name trace.json)
    [ "$(echo "$trace" | wc -l)" = 1 ] || fail "$name: expected one trace.json"
    check "$name.pa.txt" "$trace" "$name -O$O"
    # The codegen record holds the assembly.
    python3 - "$trace" "$name.llc.s" <<'PY' || fail "$name -O$O: codegen record is not the assembly"
import json, os, sys
d = json.load(open(sys.argv[1]))
cg = [r for r in d["records"] if r["status"] == "codegen"][0]
text = open(os.path.join(os.path.dirname(sys.argv[1]), cg["after_text"]["file"])).read()
assert text == open(sys.argv[2]).read()
PY
  done
done

# opt-bisect: the limit cuts passes in both tools alike (same BISECT lines),
# and passes told not to run show up as skipped records.
"$CLANG" -O2 -S -emit-llvm "$LT_SRC/tests/data/llvm/mir/loops.c" -o b.ll
"$LLC" -O2 -opt-bisect-limit=40 b.ll -o b.llc.s 2> b.llc.err
"$LLC" -O2 -opt-bisect-limit=40 -print-after-all b.ll -o /dev/null 2> b.pa.txt
TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$tmp/t_bisect" "$LLC_T" -O2 -opt-bisect-limit=40 b.ll -o b.lt.s 2> b.lt.err
cmp b.llc.s b.lt.s || fail "opt-bisect: assembly differs"
diff <(grep BISECT b.llc.err) <(grep BISECT b.lt.err) > /dev/null || fail "opt-bisect: BISECT lines differ"
grep -q "NOT running" b.llc.err || fail "opt-bisect limit 40 should stop some passes"
trace=$(find t_bisect -name trace.json)
check b.pa.txt "$trace" "opt-bisect"
python3 - "$trace" b.llc.err <<'PY' || fail "opt-bisect: skipped records do not match BISECT's NOT running lines"
import json, re, sys
d = json.load(open(sys.argv[1]))
recs = [r for r in sorted(d["records"], key=lambda r: r["index"]) if r["phase"] == "mir"]
# BISECT names a legacy pass by its name or (machine passes) its argument.
keys = lambda r: [(r["name"], r["anchor"]), (r["detail"].split(";")[0], r["anchor"])]
skipped = [r for r in recs if r["status"] == "skipped"]
told = []
for l in open(sys.argv[2]):
    m = re.match(r"BISECT: NOT running pass \(\d+\) (.*) on (?:function \((.*)\)|(.*))$", l.rstrip("\n"))
    if m: told.append((m.group(1), m.group(2) or m.group(3)))
assert skipped, "no skipped records"
# Every skipped record was told not to run; what was told and is not skipped ran in its O0 form.
rest = list(told)
for r in skipped:
    k = [k for k in keys(r) if k in rest]
    assert k, (keys(r), rest[:3])
    rest.remove(k[0])
# Told and not skipped: they changed their function, running in their O0 form.
o0 = [r for r in recs if "O0 form" in r["detail"]]
assert o0, "instruction selection should run in its O0 form"
for r in o0:
    k = [k for k in keys(r) if k in rest]
    assert k, (keys(r), rest[:3])
    rest.remove(k[0])
# What is left was never recorded: passes -print-after-all does not print either.
recorded = {k for r in recs for k in keys(r)}
assert not [t for t in rest if t in recorded], rest
print(f"opt-bisect: {len(skipped)} skipped records, {len(o0)} ran in their O0 form")
PY
echo "mir trace: OK"
