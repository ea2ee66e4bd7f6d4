#!/usr/bin/env bash
# `lowertrace compare` on two real LLVM traces that differ in one pass:
# opt-22 -passes=sroa,gvn,simplifycfg against sroa,simplifycfg on the
# three-function fixture, both imported. GVN must be the only one-sided pass
# (once per function), and the first difference must be the first
# SimplifyCFGPass, whose outputs differ by the duplicate `mul` GVN removed.
set -u
LT=${LT_BIN:?}/lowertrace
OPT=$(command -v opt-22 || echo /usr/lib/llvm-22/bin/opt)
LL=${LT_SRC:?}/tests/data/features/three_funcs.ll
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ -f "$LL" ] || { echo "FAIL: missing fixture $LL"; exit 1; }
"$OPT" -passes='sroa,gvn,simplifycfg' -print-after-all "$LL" -o /dev/null 2> "$work/a.txt" || bad "opt-22 (A) failed"
"$OPT" -passes='sroa,simplifycfg' -print-after-all "$LL" -o /dev/null 2> "$work/b.txt" || bad "opt-22 (B) failed"
"$LT" import "$work/a.txt" --dir "$work/ta" --script a > /dev/null 2>&1 || bad "import A failed"
"$LT" import "$work/b.txt" --dir "$work/tb" --script b > /dev/null 2>&1 || bad "import B failed"
"$LT" compare "$work/ta/a" "$work/tb/b" -o "$work/cmp.html" 2> "$work/err" || bad "compare exited $?"
cat "$work/err"
funcs=$(grep -c '^define' "$LL")
grep -q "$funcs only in A, 0 only in B; first difference at #[0-9]* SimplifyCFGPass" "$work/err" || bad "summary: $(head -1 "$work/err")"
[ -s "$work/cmp.html" ] || bad "no report written"
# The report's records: the one-sided ones are exactly the GVN passes.
python3 - "$work/cmp.html" "$funcs" <<'PY' || fail=1
import json, re, sys
html = open(sys.argv[1], encoding='utf-8').read()
meta = json.loads(re.search(r'<script type="application/json" id="lt-meta">(.*?)</script>', html, re.S).group(1))
recs = meta['recs']
only = [r for r in recs if r['s'] == 'skipped']
ok = len(only) == int(sys.argv[2]) and all(r['n'] == 'GVNPass' and 'only in run A' in r.get('e', '') for r in only)
first = next(r for r in recs if r['s'] == 'completed' and r['c'])
ok = ok and meta.get('open') == first['i'] and first['n'] == 'SimplifyCFGPass'
ok = ok and all(r['n'] != 'GVNPass' for r in recs if r['s'] != 'skipped')
print('one-sided:', [(r['n'], r['an']) for r in only], 'opens on', first['i'], first['n'], first['an'])
if not ok: print('FAIL: alignment of the two runs'); sys.exit(1)
PY
# A bad argument: one line, exit 1, nothing written.
"$LT" compare "$work/ta/a" "$work/nothing" -o "$work/bad.html" 2> "$work/bad.err"; rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$work/bad.err")" = 1 ] && [ ! -e "$work/bad.html" ] || bad "bad run: rc=$rc, $(cat "$work/bad.err")"
[ $fail = 0 ] && echo "compare_llvm: ok"
exit $fail
