#!/bin/bash
# The edit-and-recompile workflow end to end, through `lowertrace demo` (PTX):
#   run 1 initialises the working copy; an edit makes run 2 compile the edit
#   (-o gets it, tagged PATCHED) and it stays patched on run 3; a foreign
#   working copy without baseline is backed up (INIT-BACKUP) and never lost;
#   reverting the edit makes runs silent again.
set -euo pipefail
: "${LT_BIN:?}"
LT="$LT_BIN/lowertrace"
if ! "$LT" demo --help > /dev/null 2>&1; then
  echo "SKIP: '$LT demo' not built (configure with LOWERTRACE_WITH_MLIR=ON)"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
W="$tmp/work/kernel.ptx"
demo() { "$LT" demo --mode terminal --dir "$tmp/trace" --codegen-output "$W" -o "$1" 2> "$1.err" > /dev/null \
  || fail "demo failed: $(tail -3 "$1.err")"; }

demo "$tmp/out1.ptx"
grep -q "codegen source initialized at: $W" "$tmp/out1.ptx.err" || fail "run 1 should initialise $W"
grep -q "^\.target" "$tmp/out1.ptx" || fail "run 1 output is not PTX"
cmp "$tmp/out1.ptx" "$W" || fail "run 1: working copy differs from the output"
cmp "$W" "$W.original" || fail "run 1: baseline differs from the working copy"
cmp "$W" "$W.latest" || fail "run 1: .latest differs from the codegen output"

# The user edits the working copy: a comment is valid PTX and easy to find.
sed -i '1i // hand-tuned by the user' "$W"
cp "$W" "$tmp/edited.ptx"
for run in 2 3; do
  demo "$tmp/out$run.ptx"
  grep -q "PATCHED (user edits)" "$tmp/out$run.ptx.err" || fail "run $run should be PATCHED"
  cmp "$tmp/out$run.ptx" "$tmp/edited.ptx" || fail "run $run: -o did not get the edited source"
  cmp "$W" "$tmp/edited.ptx" || fail "run $run: the edit was touched"
done
cmp "$W.original" "$tmp/out1.ptx" || fail "PATCHED must not move the baseline"

# A working copy that exists without a baseline (say, copied from elsewhere).
rm "$W.original"
demo "$tmp/out4.ptx"
grep -q "INIT-BACKUP" "$tmp/out4.ptx.err" || fail "run 4 should be INIT-BACKUP"
cmp "$W.bak.1" "$tmp/edited.ptx" || fail "run 4: the edit was not backed up to $W.bak.1"
cmp "$tmp/out4.ptx" "$tmp/out1.ptx" || fail "run 4 should compile the codegen output"

# Nothing edited: silent, and the codegen output is used.
demo "$tmp/out5.ptx"
if grep -E -q "INIT|REGENERATED|PATCHED|SYNCED|CONFLICT" "$tmp/out5.ptx.err"; then
  fail "run 5 should be silent: $(grep -E "INIT|REGENERATED|PATCHED|SYNCED|CONFLICT" "$tmp/out5.ptx.err")"
fi
cmp "$tmp/out5.ptx" "$tmp/out1.ptx" || fail "run 5 should compile the codegen output"
[ "$(ls "$tmp/work" | grep -c '\.bak\.')" = 1 ] || fail "exactly one backup expected: $(ls "$tmp/work")"
echo PASS
