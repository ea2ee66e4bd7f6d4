#!/usr/bin/env bash
# `lowertrace diff` on real IR: consecutive pass snapshots from the Triton 3.6
# dumps. For every pair, GNU patch must turn the "before" file into the
# "after" file using our unified diff (so hunk ranges, context and markers are
# right), the exit status must match GNU diff's, and --stat must count exactly
# the +/- lines the diff shows. Also: errors exit 2 with one stderr line.
set -u
LT=${LT_BIN:?}/lowertrace
FIX=${LT_FIXTURES:?}/triton-3.6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0; pairs=0; changed=0
bad() { echo "FAIL: $*"; fail=1; }

for dump in "$FIX"/mlir_dump_*.txt; do
  name=$(basename "$dump" .txt)
  mkdir -p "$work/$name"
  csplit -s -z -f "$work/$name/s" -n 3 "$dump" '/IR Dump /' '{*}'
  # Drop each section's banner line: what is left is one pass's input IR.
  for s in "$work/$name"/s*; do tail -n +2 "$s" > "$s.ir"; done
  prev=
  for cur in "$work/$name"/s*.ir; do
    if [[ -n $prev ]]; then
      pairs=$((pairs + 1))
      for ctx in 0 3; do
        "$LT" diff -U "$ctx" "$prev" "$cur" > "$work/out.diff"; rc=$?
        diff -q "$prev" "$cur" > /dev/null; want=$?
        [[ $rc == "$want" ]] || bad "$cur: exit $rc, GNU diff says $want"
        [[ $rc == 1 && $ctx == 3 ]] && changed=$((changed + 1))
        cp "$prev" "$work/patched"
        if [[ $rc == 1 ]] && ! patch -s -o "$work/patched.out" "$work/patched" < "$work/out.diff" > /dev/null 2>&1; then
          bad "$cur -U$ctx: patch rejected our diff"
        elif [[ $rc == 1 ]] && ! cmp -s "$work/patched.out" "$cur"; then
          bad "$cur -U$ctx: patched file differs from the after file"
        fi
      done
      plus=$(grep -c '^+' "$work/out.diff"); minus=$(grep -c '^-' "$work/out.diff")
      if [[ $rc == 1 ]]; then plus=$((plus - 1)); minus=$((minus - 1)); fi  # +++ / --- headers
      stat=$("$LT" diff --stat "$prev" "$cur")
      if [[ $rc == 1 ]]; then
        [[ $stat == "$plus insertion"*", $minus deletion"* ]] || bad "$cur: --stat '$stat' vs shown +$plus -$minus"
      else
        [[ -z $stat ]] || bad "$cur: --stat printed '$stat' for equal files"
      fi
    fi
    prev=$cur
  done
done
[[ $pairs -gt 100 && $changed -gt 20 ]] || bad "too few pairs compared ($pairs, $changed changed)"

# Trailing newline only: shown, counted, and patchable.
printf 'a\nb\n' > "$work/nl"; printf 'a\nb' > "$work/nonl"
out=$("$LT" diff "$work/nl" "$work/nonl"); rc=$?
[[ $rc == 1 ]] || bad "newline-only: exit $rc"
[[ $out == *$'-b\n+b\n\\ No newline at end of file' ]] || bad "newline-only output: $out"
[[ $("$LT" diff --stat "$work/nl" "$work/nonl") == "1 insertion(+), 1 deletion(-); only the final newline differs" ]] \
  || bad "newline-only --stat"

# Equal files: no output, exit 0.
out=$("$LT" diff "$work/nl" "$work/nl"); rc=$?
[[ $rc == 0 && -z $out ]] || bad "equal files: exit $rc, output '$out'"

# Errors: exit 2, exactly one line on stderr, nothing on stdout.
for args in "$work/missing $work/nl" "$work/nl" "-U x $work/nl $work/nl" "--bogus $work/nl $work/nl" "$work $work/nl"; do
  # shellcheck disable=SC2086
  "$LT" diff $args > "$work/o" 2> "$work/e"; rc=$?
  [[ $rc == 2 ]] || bad "'diff $args': exit $rc, want 2"
  [[ $(wc -l < "$work/e") == 1 && ! -s "$work/o" ]] || bad "'diff $args': stderr '$(cat "$work/e")'"
done

echo "compared $pairs snapshot pairs ($changed changed)"
exit $fail
