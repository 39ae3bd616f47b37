#!/usr/bin/env bash
# help_everywhere.sh NARWHAL SRC: every subcommand the tool dispatches (tools/narwhal/main.c)
# is listed by `narwhal --help` and answers --help with its usage on stdout, nothing on stderr,
# exit 0 (`options`, the reference page's generator, is left out of the listing on purpose).
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
commands=$(grep -oE 'strcmp\(argv\[1\], "[a-z-]+"\)' "$src/tools/narwhal/main.c" | sed 's/.*"\([a-z-]*\)".*/\1/' |
  grep -vE '^(--version|--help|-h)$' | sort -u)
[ "$(echo "$commands" | wc -w)" -ge 7 ] || { echo "help_everywhere: found only: $commands"; exit 1; }
"$nw" --help >"$tmp/usage"
for c in $commands; do
  if [ "$c" != options ] && ! grep -qE "^ *(usage: )?(mpirun -np R )?narwhal $c( |$)" "$tmp/usage"; then
    failed=$((failed + 1))
    echo "narwhal --help does not list '$c'"
  fi
  "$nw" "$c" --help >"$tmp/out" 2>"$tmp/err"
  code=$?
  if [ "$code" = 0 ] && [ ! -s "$tmp/err" ] && grep -q "narwhal $c" "$tmp/out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "narwhal $c --help: exit $code, stdout '$(head -c 200 "$tmp/out")', stderr '$(head -c 200 "$tmp/err")'"
  fi
done
echo "help_everywhere: $passed passed, $failed failed"
[ "$failed" = 0 ]
