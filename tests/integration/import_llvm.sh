#!/usr/bin/env bash
# `lowertrace import` on dumps opt-22 and clang-22 print here and now:
# new-PM before/after (units module, function, SCC, loop, invalidated),
# -print-changed (plain and =diff), and clang's three banner families.
set -u
LT=${LT_BIN:?}/lowertrace
OPT=$(command -v opt-22 || echo /usr/lib/llvm-22/bin/opt)
CLANG=$(command -v clang-22 || echo /usr/lib/llvm-22/bin/clang)
SUM="python3 ${LT_SRC:?}/tests/data/dumps/trace_summary.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
imp() {
  local name=$1 dump=$2; shift 2
  "$LT" import "$dump" --dir "$work/$name" --mode html "$@" 2> "$work/$name.err" > /dev/null || bad "$name: import exited $?"
  $SUM "$work/$name" > "$work/$name.sum"
}

cat > "$work/small.c" <<'C'
static int sq(int x) { return x * x; }
int sum_sq(int *a, int n) { int s = 0; for (int i = 0; i < n; ++i) s += sq(a[i]); return s; }
int pick(int c, int a, int b) { return c ? a + 1 : b + 1; }
void spin(int n) { for (int i = 0; i < n; ++i) { } }
C
"$CLANG" -O2 -Xclang -disable-llvm-passes -fno-discard-value-names -emit-llvm -S "$work/small.c" -o "$work/small.ll"

# 1. -print-after-all alone vs with -print-before-all: same passes, same afters;
#    chained befores match the printed ones for most passes (metadata numbering
#    and loop-only bodies are what after-only dumps cannot give back).
"$OPT" -passes='default<O2>' -print-after-all "$work/small.ll" -o /dev/null 2> "$work/after.txt"
"$OPT" -passes='default<O2>' -print-before-all -print-after-all "$work/small.ll" -o /dev/null 2> "$work/paired.txt"
imp after "$work/after.txt"
imp paired "$work/paired.txt"
want=$(grep -c '^; \*\*\* IR Dump After' "$work/after.txt")
[ "$(wc -l < "$work/after.sum")" = "$want" ] || bad "after-all: $(wc -l < "$work/after.sum") records for $want banners"
diff <(cut -f4,9 "$work/after.sum") <(cut -f4,9 "$work/paired.sum") > /dev/null || bad "after texts differ between after-only and paired"
for a in '[module]' 'function pick' 'scc (' 'loop %'; do
  grep -qF "$a" "$work/paired.sum" || bad "paired: no record on a $a unit"
done
grep -q $'LoopDeletionPass\tcompleted.*\tda39a3ee5e6b$' "$work/paired.sum" || bad "invalidated loop deletion should have an empty after-text"
same=$(paste <(cut -f8 "$work/after.sum") <(cut -f8 "$work/paired.sum") | awk -F'\t' '$1==$2' | wc -l)
[ $((same * 100)) -ge $((want * 90)) ] || bad "after-only befores match the printed ones for only $same of $want passes"
grep -q WARNING "$work/paired.err" && bad "paired: warnings: $(head -3 "$work/paired.err")"

# 1b. -ir-dump-directory: one file per dump, ordered by the pass number in its name.
"$OPT" -passes='default<O2>' -print-after-all -ir-dump-directory="$work/irdump" "$work/small.ll" -o /dev/null 2> /dev/null
imp irdd "$work/irdump"
[ "$(wc -l < "$work/irdd.sum")" = "$(ls "$work/irdump" | wc -l)" ] || bad "ir-dump-directory: records != files"
diff <(cut -f4,9 "$work/irdd.sum" | head -200) <(cut -f4,9 "$work/after.sum" | head -200) > /dev/null ||
  bad "ir-dump-directory: order or texts differ from the stderr dump"

# 1c. -ir-dump-directory with before and after: pass N writes N-...-before.ll and
#     N-...-after.ll; both files of each pass make one record, in pass order.
"$OPT" -passes='default<O2>' -print-before-all -print-after-all -ir-dump-directory="$work/irdump2" "$work/small.ll" -o /dev/null 2> /dev/null
imp irdd2 "$work/irdump2"
[ "$(($(wc -l < "$work/irdd2.sum") * 2))" = "$(ls "$work/irdump2" | wc -l)" ] ||
  bad "ir-dump-directory before+after: $(wc -l < "$work/irdd2.sum") records for $(ls "$work/irdump2" | wc -l) files"
diff <(cut -f4,5,9 "$work/irdd2.sum") <(cut -f4,5,9 "$work/paired.sum") > /dev/null ||
  bad "ir-dump-directory before+after: records differ from the stderr dump"
grep -q $'\tfailed\t' "$work/irdd2.sum" && bad "ir-dump-directory before+after: failed records"

# 1d. -print-module-scope: every dump is the module, so is every chained
#     before-text: it matches the printed one (paired dump) for nearly every pass.
"$OPT" -passes='default<O2>' -print-after-all -print-module-scope "$work/small.ll" -o /dev/null 2> "$work/ms.txt"
"$OPT" -passes='default<O2>' -print-before-all -print-after-all -print-module-scope "$work/small.ll" -o /dev/null 2> "$work/msp.txt"
imp ms "$work/ms.txt"
imp msp "$work/msp.txt"
n=$(wc -l < "$work/ms.sum")
same=$(paste <(cut -f8 "$work/ms.sum") <(cut -f8 "$work/msp.sum") | awk -F'\t' '$1==$2' | wc -l)
[ $((same * 100)) -ge $((n * 95)) ] || bad "module scope: chained befores match the printed ones for only $same of $n passes"
# The first pass has no before-text in an after-only dump: unknown, not changed.
python3 - "$work/ms" <<'PY' || bad "module scope: first record should have before_known false and changed false"
import json, os, sys
tj = [os.path.join(d, "trace.json") for d, _, f in os.walk(sys.argv[1]) if "trace.json" in f][0]
r = json.load(open(tj))["records"]
sys.exit(0 if r[0]["before_known"] is False and r[0]["changed"] is False and all(x["before_known"] for x in r[1:]) else 1)
PY

# 2. -print-changed: no-ops from 'omitted', full module at start, and the same
#    passes as -print-after-all: pass managers and adaptors ("ignored", and their
#    "invalidated") are no records.
"$OPT" -passes='default<O2>' -print-changed "$work/small.ll" -o /dev/null 2> "$work/changed.txt"
imp changed "$work/changed.txt"
omitted=$(grep -c 'omitted because no change' "$work/changed.txt")
grep -q ' ignored \*\*\*$' "$work/changed.txt" || bad "print-changed: opt printed no 'ignored' banner to test with"
diff <(cut -f4 "$work/after.sum") <(cut -f4 "$work/changed.sum") > "$work/changed.diff" ||
  bad "print-changed: passes differ from -print-after-all's: $(head -5 "$work/changed.diff")"
grep -q $'\tskipped\t' "$work/changed.sum" && bad "print-changed: skipped records for pass managers"
noop=$(awk -F'\t' '$5=="completed" && $8==$9' "$work/changed.sum" | wc -l)
[ "$noop" -ge "$omitted" ] || bad "print-changed: $noop no-op records for $omitted omitted banners"
# InstCombine on pick after SROA starts from SROA's result, not from the module at start.
"$OPT" -passes='default<O2>' -print-changed=diff "$work/small.ll" -o /dev/null 2> "$work/cdiff.txt"
imp cdiff "$work/cdiff.txt"
# Module passes head each function's diff "*** IR for function F ***": not banners.
diff <(cut -f4 "$work/after.sum") <(cut -f4 "$work/cdiff.sum") > /dev/null ||
  bad "print-changed=diff: passes differ from -print-after-all's"

# 3. clang: new PM, legacy-PM IR passes and MIR in one stream; MIR starts from LLVM IR.
"$CLANG" -O2 -c "$work/small.c" -o "$work/small.o" -mllvm -print-after-all 2> "$work/clang.txt"
imp clang "$work/clang.txt"
total=$(grep -c -E '^(; )?\*\*\* IR Dump|^# \*\*\* IR Dump' "$work/clang.txt")
[ "$(wc -l < "$work/clang.sum")" = "$total" ] || bad "clang: $(wc -l < "$work/clang.sum") records for $total banners"
grep -q $'\tmir\t' "$work/clang.sum" || bad "clang: no mir phase"
grep -q $'\tllvm\tpre-isel-intrinsic-lowering\t' "$work/clang.sum" || bad "clang: legacy PM pass missing"
grep -q $'machine function sum_sq' "$work/clang.sum" || bad "clang: machine function anchor missing"
first_mir=$(grep -P '\tmir\t' "$work/clang.sum" | grep 'machine function pick' | head -1 | cut -f8)
[ "$first_mir" != "da39a3ee5e6b" ] || bad "clang: first machine pass on pick has no before-text (should be its LLVM IR)"

[ $fail = 0 ] && echo "PASS import_llvm"
exit $fail
