#!/usr/bin/env bash
# Property: for generated pairs (a, b) -- repetitive IR-like lines, edits,
# moved blocks, SSA renumbering, missing final newlines, empty files --
# `lowertrace diff -U N a b` applied to a with GNU patch gives b exactly, and
# the exit status is 0 for equal files and 1 otherwise. (fuzz/diff_fuzzer
# checks the same in process with a strict applier, on any bytes.)
set -u
LT=${LT_BIN:?}/lowertrace
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0; n=0
python3 - "$work" <<'PY'
import random, sys, os
out = sys.argv[1]
rng = random.Random(12)  # fixed seed: the same cases every run
ops = ["%{0} = arith.addi %{1}, %{2} : i32", "%{0} = arith.muli %{1}, %{1} : i32",
       "  return %{0} : i32", "}}", "func.func @f{0}(%arg0: i32) -> i32 {{", "", "  ^bb{0}:"]
def line():
    return rng.choice(ops).format(rng.randrange(6), rng.randrange(6), rng.randrange(6))
for case in range(150):
    a = [line() for _ in range(rng.randrange(0, 40))]
    b = list(a)
    for _ in range(rng.randrange(0, 6)):
        kind = rng.randrange(4)
        if kind == 0 and b: del b[rng.randrange(len(b))]
        elif kind == 1: b.insert(rng.randrange(len(b) + 1), line())
        elif kind == 2 and b: b[rng.randrange(len(b))] = line()
        elif kind == 3 and len(b) > 4:
            i = rng.randrange(len(b) - 3); blk = b[i:i + 3]; del b[i:i + 3]
            j = rng.randrange(len(b) + 1); b[j:j] = blk
    def text(ls):
        t = "\n".join(ls)
        return t + ("\n" if ls and rng.random() < 0.8 else "")
    for name, ls in (("a", a), ("b", b)):
        with open(os.path.join(out, f"{case:03d}.{name}"), "w") as f:
            f.write(text(ls))
PY
[ $? = 0 ] || { echo "FAIL: case generator"; exit 1; }
for a in "$work"/*.a; do
  b=${a%.a}.b
  ctx=$(( n % 4 ))
  n=$((n + 1))
  "$LT" diff -U "$ctx" "$a" "$b" >"$work/d" 2>"$work/e"
  rc=$?
  if cmp -s "$a" "$b"; then
    [ $rc = 0 ] && [ ! -s "$work/d" ] || { echo "FAIL: $a: equal files, rc=$rc"; fail=1; }
    continue
  fi
  [ $rc = 1 ] || { echo "FAIL: $a: rc=$rc for different files: $(cat "$work/e")"; fail=1; continue; }
  if ! patch -s -o "$work/p" "$a" <"$work/d" >/dev/null 2>&1 || ! cmp -s "$work/p" "$b"; then
    echo "FAIL: $a -U$ctx: GNU patch does not turn a into b"; fail=1
    cp "$a" "$b" "$work/d" /tmp/ 2>/dev/null
  fi
done
[ $n -ge 100 ] || { echo "FAIL: only $n cases"; fail=1; }
[ $fail = 0 ] && echo "diff/patch property: $n cases OK"
exit $fail
