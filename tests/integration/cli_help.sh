#!/usr/bin/env bash
# Man-style help and --version on every tool: `lowertrace --help`, each
# command's page (`lowertrace <cmd> --help` = `lowertrace help <cmd>`) with
# NAME/SYNOPSIS/DESCRIPTION/OPTIONS/EXIT STATUS, every option of the SYNOPSIS
# and of the command's short usage described under OPTIONS; lowertrace-opt's
# --help describes each --lower-trace* option; --version gives the project's.
set -u
LT=${LT_BIN:?}/lowertrace
OPT=${LT_BIN:?}/lowertrace-opt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
version=$(sed -n 's/^project(lowertrace VERSION \([0-9.]*\).*/\1/p' "${LT_SRC:?}/CMakeLists.txt")
[ -n "$version" ] || bad "no project VERSION in CMakeLists.txt"

[ "$("$LT" --version)" = "lowertrace $version" ] || bad "lowertrace --version: $("$LT" --version)"
"$OPT" --version | grep -qx "lowertrace-opt (lowertrace $version)" || bad "lowertrace-opt --version"

"$LT" --help >"$work/main" || bad "lowertrace --help exit status"
cmp -s "$work/main" <("$LT" help) || bad "lowertrace help differs from --help"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS ENVIRONMENT 'EXIT STATUS'; do
  grep -qx "$s" "$work/main" || bad "lowertrace --help: no $s section"
done
# The commands, from the manual's COMMANDS section (built from the registry).
cmds=$(sed -n '/^COMMANDS$/,/^$/p' "$work/main" | awk 'NR>1 && NF {print $1}')
[ "$(echo "$cmds" | wc -w)" -ge 5 ] || bad "COMMANDS lists too few: $cmds"
"$LT" >/dev/null 2>&1; [ $? = 2 ] || bad "lowertrace without a command must exit 2"

for c in $cmds; do
  page=$work/$c
  "$LT" "$c" --help >"$page" 2>"$page.err" || { bad "$c --help exit status"; continue; }
  cmp -s "$page" <("$LT" help "$c") || bad "$c: 'lowertrace help $c' differs from '$c --help'"
  cmp -s "$page" <("$LT" "$c" -h) || bad "$c: -h differs from --help"
  for s in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS'; do
    grep -qx "$s" "$page" || bad "$c --help: no $s section"
  done
  grep -q "^    lowertrace $c - " "$page" || bad "$c --help: NAME is not 'lowertrace $c - ...'"
  sed -n '/^OPTIONS$/,/^[A-Z]/p' "$page" >"$page.opts"
  # Every option named in the SYNOPSIS, and in the short usage the command
  # prints on a usage error, has its entry under OPTIONS.
  "$LT" "$c" --no-such-option-xyz >/dev/null 2>"$page.usage"
  for o in $( { sed -n '/^SYNOPSIS$/,/^$/p' "$page"; grep -i 'usage' -A4 "$page.usage"; } |
              grep -o -- '--[a-z][a-z-]*' | grep -v -- '--no-such-option-xyz' | sort -u); do
    grep -q -- "^ *\(-[a-zA-Z], \)\?$o\b" "$page.opts" || grep -q -- "^ *-[a-zA-Z] [A-Z]*, $o" "$page.opts" ||
      bad "$c --help: $o has no entry under OPTIONS"
  done
done

"$OPT" --help >"$work/opt" 2>&1 || bad "lowertrace-opt --help exit status"
grep -qx 'LOWERTRACE OPTIONS' "$work/opt" || bad "lowertrace-opt --help: no LOWERTRACE OPTIONS"
sed -n '/^LOWERTRACE OPTIONS$/,/^[A-Z]/p' "$work/opt" >"$work/opt.sec"
# Each --lower-trace* option LLVM's option table has, described in the section.
for o in $(grep -o -- '--lower-trace[a-z-]*' "$work/opt" | sort -u); do
  grep -q -- "^  $o=" "$work/opt.sec" || bad "lowertrace-opt --help: $o not in LOWERTRACE OPTIONS"
done
[ $fail = 0 ] && echo "help and version: OK"
exit $fail
