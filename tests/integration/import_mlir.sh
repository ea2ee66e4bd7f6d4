#!/usr/bin/env bash
# `lowertrace import` on dumps that Debian's mlir-opt-22 prints here and now:
# every banner form it has (local/module scope, threaded, before-only,
# after-only, failures, tree-dir) and a round trip against lowertrace-opt.
set -u
LT=${LT_BIN:?}/lowertrace
OPT=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
SUM="python3 ${LT_SRC:?}/tests/data/dumps/trace_summary.py"
LTOPT=${LT_OPT:-$LT_BIN/lowertrace-opt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cat > "$work/in.mlir" <<'MLIR'
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %x : i32
  %z = arith.muli %x, %x : i32
  %r = arith.addi %y, %z : i32
  return %r : i32
}
func.func private @dead() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}
func.func @g(%a: f32) -> f32 {
  return %a : f32
}
MLIR
PIPE='builtin.module(func.func(canonicalize,cse),symbol-dce)'

imp() {  # imp <name> <dump file> [import args...]: imports into $work/<name>, prints the summary
  local name=$1 dump=$2; shift 2
  "$LT" import "$dump" --dir "$work/$name" --mode html "$@" 2> "$work/$name.err" > "$work/$name.out" ||
    bad "$name: import exited $?"
  [ -s "$work/$name.out" ] && bad "$name: import wrote to stdout"
  $SUM "$work/$name" > "$work/$name.sum"
}
count() { grep -c -- "$1" "$2"; }

# 1. before+after, no threading: one record per pass run, pairs by unit.
"$OPT" "$work/in.mlir" --pass-pipeline="$PIPE" --mlir-print-ir-before-all --mlir-print-ir-after-all \
  --mlir-disable-threading -o /dev/null 2> "$work/paired.txt"
imp paired "$work/paired.txt"
want=$(count '^// -----// IR Dump Before' "$work/paired.txt")
got=$(wc -l < "$work/paired.sum")
[ "$got" = "$want" ] || bad "paired: $got records for $want Before banners"
names=$(cut -f4 "$work/paired.sum" | tr '\n' ' ')
want_names=$(sed -n 's|^// -----// IR Dump Before .* (\(.*\)) //----- //$|\1|p' "$work/paired.txt" | tr '\n' ' ')
[ "$names" = "$want_names" ] || bad "paired: names '$names' != banners '$want_names'"
grep -q $'canonicalize\tcompleted\t0\tfunc.func @f' "$work/paired.sum" || bad "paired: no canonicalize on @f"
grep -q "WARNING" "$work/paired.err" && bad "paired: warnings: $(cat "$work/paired.err")"

# 2. the default threaded run interleaves functions; the same records come out.
"$OPT" "$work/in.mlir" --pass-pipeline="$PIPE" --mlir-print-ir-before-all --mlir-print-ir-after-all \
  -o /dev/null 2> "$work/threaded.txt"
imp threaded "$work/threaded.txt"
diff <(cut -f4- "$work/paired.sum" | sort) <(cut -f4- "$work/threaded.sum" | sort) > /dev/null ||
  bad "threaded: records differ from the unthreaded run"

# 3. module scope: ('func.func' operation: @f) suffix, whole module bodies.
"$OPT" "$work/in.mlir" --pass-pipeline="$PIPE" --mlir-print-ir-before-all --mlir-print-ir-after-all \
  --mlir-print-ir-module-scope --mlir-disable-threading -o /dev/null 2> "$work/scope.txt"
grep -q "('func.func' operation: @f)" "$work/scope.txt" || bad "scope: mlir-opt did not print the module-scope form"
imp scope "$work/scope.txt"
[ "$(wc -l < "$work/scope.sum")" = "$want" ] || bad "scope: $(wc -l < "$work/scope.sum") records, want $want"
grep -q $'cse\tcompleted\t0\tfunc.func @g' "$work/scope.sum" || bad "scope: anchor from the banner missing"

# 4. after-only: befores come from the previous dump of the same function.
"$OPT" "$work/in.mlir" --pass-pipeline="$PIPE" --mlir-print-ir-after-all --mlir-disable-threading \
  -o /dev/null 2> "$work/after.txt"
imp after "$work/after.txt"
[ "$(wc -l < "$work/after.sum")" = "$want" ] || bad "after-only: wrong record count"
# cse on @f starts from canonicalize's result, exactly as in the paired run.
p=$(grep -P '\tcse\t.*func.func @f\t' "$work/paired.sum" | cut -f8-9)
a=$(grep -P '\tcse\t.*func.func @f\t' "$work/after.sum" | cut -f8-9)
[ -n "$p" ] && [ "$p" = "$a" ] || bad "after-only: cse@f texts '$a' != paired '$p'"

# 4b. the first after-only dump of each unit has no before-text: unknown, not changed.
python3 - "$work/after" <<'PY' || bad "after-only: first dumps of a unit must have before_known false and not count as changed"
import json, os, sys
tj = [os.path.join(d, "trace.json") for d, _, f in os.walk(sys.argv[1]) if "trace.json" in f][0]
r = json.load(open(tj))["records"]
first = {}
for x in r:
    first.setdefault(x["anchor"], x)
ok = all((x is first[x["anchor"]]) == (not x["before_known"]) for x in r)
ok = ok and all(not x["changed"] and x["before_text"] is None for x in r if not x["before_known"])
sys.exit(0 if ok and len(first) == 4 else 1)
PY
grep -q "without a before-text" "$work/after.err" || bad "after-only: the summary line does not count records without a before-text"

# 5. before-only (what Triton prints): after of pass k = before of pass k+1.
"$OPT" "$work/in.mlir" --pass-pipeline="$PIPE" --mlir-print-ir-before-all --mlir-disable-threading \
  -o /dev/null 2> "$work/before.txt"
imp before "$work/before.txt"
[ "$(wc -l < "$work/before.sum")" = "$want" ] || bad "before-only: wrong record count (last pass dropped?)"
b=$(grep -P '\tcanonicalize\t.*func.func @f\t' "$work/before.sum" | cut -f8-9)
p=$(grep -P '\tcanonicalize\t.*func.func @f\t' "$work/paired.sum" | cut -f8-9)
[ "$b" = "$p" ] || bad "before-only: canonicalize@f '$b' != paired '$p'"
tail -1 "$work/before.sum" | grep -q $'symbol-dce\tcompleted' || bad "before-only: last pass missing"

# 6. failures: After ... Failed -> failed, with the diagnostic.
"$OPT" "$work/in.mlir" --pass-pipeline='builtin.module(func.func(canonicalize,test-pass-failure,cse))' \
  --mlir-print-ir-before-all --mlir-print-ir-after-all --mlir-disable-threading -o /dev/null 2> "$work/fail.txt"
grep -q "Failed (test-pass-failure)" "$work/fail.txt" || bad "fail: no Failed banner from mlir-opt"
imp fail "$work/fail.txt"
grep -q $'test-pass-failure\tfailed' "$work/fail.sum" || bad "fail: no failed record: $(cat "$work/fail.sum")"
# 6b. a real diagnostic (with source line and caret) printed between the Before
#     dump and the After ... Failed dump: it is the error, not IR; the IR after
#     the failure is kept.
"$OPT" "${LT_SRC}/tests/data/dumps/mlir/fail-upstream.mlir" --allow-unregistered-dialect \
  --pass-pipeline='builtin.module(canonicalize,one-shot-bufferize{bufferize-function-boundaries})' \
  --mlir-print-ir-before-all --mlir-print-ir-after-failure -o /dev/null 2> "$work/fail2.txt"
grep -q "error: op was not bufferized" "$work/fail2.txt" || bad "fail2: mlir-opt printed no diagnostic"
imp fail2 "$work/fail2.txt"
python3 - "$work/fail2" <<'PY' || bad "fail2: diagnostic leaked into the IR or the IR after the failure was dropped"
import json, os, sys
d = [d for d, _, f in os.walk(sys.argv[1]) if "trace.json" in f][0]
r = json.load(open(os.path.join(d, "trace.json")))["records"]
f = [x for x in r if x["status"] == "failed"]
assert len(r) == 2 and len(f) == 1 and f[0]["name"] == "one-shot-bufferize", r
assert "op was not bufferized" in f[0]["error_msg"] and "^" in f[0]["error_msg"], f[0]["error_msg"]
before = open(os.path.join(d, f[0]["before_text"]["file"])).read()
assert "^" not in before and "%t" not in before, before
assert f[0]["after_text"] is not None
after = open(os.path.join(d, f[0]["after_text"]["file"])).read()
assert "bufferization.to_tensor" in after, after
PY
grep -q WARNING "$work/fail2.err" && bad "fail2: warnings: $(head -3 "$work/fail2.err")"

# 7. --mlir-print-ir-tree-dir: a folder of one-dump files gives the same records.
"$OPT" "$work/in.mlir" --pass-pipeline="$PIPE" --mlir-print-ir-before-all --mlir-print-ir-after-all \
  --mlir-disable-threading --mlir-print-ir-tree-dir="$work/tree" -o /dev/null 2> /dev/null
imp tree "$work/tree"
diff <(cut -f4,5,8,9 "$work/paired.sum" | sort) <(cut -f4,5,8,9 "$work/tree.sum" | sort) ||
  bad "tree-dir: records differ from the stderr dump"
# ... in pipeline order: each function's nested passes first, symbol-dce last
# (files "0_<k>_<arg>" run under top-level pass 0; "1_symbol-dce", "2_symbol-dce" after).
[ "$(tail -1 "$work/tree.sum" | cut -f4)" = symbol-dce ] || bad "tree-dir: symbol-dce is not the last record: $(cut -f4 "$work/tree.sum" | tr '\n' ' ')"
for fn in f dead g; do
  diff <(grep -P "\tfunc.func @$fn\t" "$work/paired.sum" | cut -f4,8,9) <(grep -P "\tfunc.func @$fn\t" "$work/tree.sum" | cut -f4,8,9) > /dev/null ||
    bad "tree-dir: passes on @$fn out of order"
done

# 8. bad input: garbage and a cut-off dump are warnings with byte offsets, not failures.
{ echo "some tool chatter"; head -c 700 "$work/paired.txt"; } > "$work/broken.txt"
imp broken "$work/broken.txt"
grep -q "at byte 0" "$work/broken.err" || bad "broken: no offset for leading garbage"
grep -q "WARNING" "$work/broken.err" || bad "broken: no warning"
[ -s "$work/broken.sum" ] || bad "broken: parsable part dropped"

# 9. round trip: live capture (lowertrace-opt) and the imported dump agree on a
#    module-level pipeline (names, order, statuses, texts up to trailing blank lines).
if [ -x "$LTOPT" ]; then
  RT='builtin.module(canonicalize,cse,symbol-dce)'
  (cd "$work" && TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$work/live" "$LTOPT" in.mlir --pass-pipeline="$RT" -o /dev/null 2> /dev/null)
  "$OPT" "$work/in.mlir" --pass-pipeline="$RT" --mlir-print-ir-before-all --mlir-print-ir-after-all -o /dev/null 2> "$work/rt.txt"
  "$LT" import "$work/rt.txt" --dir "$work/rtimp" 2> /dev/null
  mkdir -p "$work/tl" "$work/ti"
  $SUM --texts "$work/tl" "$work/live" | cut -f4,5 > "$work/live.names"
  $SUM --texts "$work/ti" "$work/rtimp" | cut -f4,5 > "$work/imp.names"
  diff "$work/live.names" "$work/imp.names" || bad "round trip: names/statuses differ"
  for f in "$work"/tl/*.txt; do
    g="$work/ti/$(basename "$f")"
    diff <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$f") <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$g") > /dev/null ||
      bad "round trip: $(basename "$f") differs"
  done
  [ -s "$work/live.names" ] || bad "round trip: lowertrace-opt recorded nothing"
else
  echo "SKIP round trip: no $LTOPT (build with LOWERTRACE_WITH_MLIR=ON)"
fi

[ $fail = 0 ] && echo "PASS import_mlir"
exit $fail
