#!/usr/bin/env bash
# options_reference.sh NARWHAL SRC_DIR: docs/reference/options.md and the manual page
# docs/reference/narwhal.1 are what the option table writes today (`narwhal options --markdown`,
# `--man`), and `narwhal run --help` names the same options
# with the same defaults, so neither can drift from lib/options_table.c.
set -u
nw=$1 src=$2
page=$src/docs/reference/options.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$nw" options --markdown >"$tmp/options.md" || { echo "narwhal options --markdown: status $?"; exit 1; }
if ! diff -u "$page" "$tmp/options.md"; then
  echo "docs/reference/options.md is stale: build/narwhal options --markdown > docs/reference/options.md"
  fail=1
fi
"$nw" options --man >"$tmp/narwhal.1" || { echo "narwhal options --man: status $?"; exit 1; }
if ! diff -u "$src/docs/reference/narwhal.1" "$tmp/narwhal.1"; then
  echo "docs/reference/narwhal.1 is stale: build/narwhal options --man > docs/reference/narwhal.1"
  fail=1
fi
# "  --[no-]NAME ARG [default: X]" -> "NAME<TAB>X"
"$nw" run --help | sed -n 's/^  --\(\[no-\]\)\{0,1\}\([^ ]*\).* \[default: \(.*\)\]$/\2\t\3/p' |
  sort >"$tmp/help"
# "| `--NAME` | values | X | description |" -> "NAME<TAB>X" (a '|' in a cell is written \|)
sed -n 's/^| `--\([^`]*\)` | .* | \(.*\) | .* |$/\1\t\2/p' "$tmp/options.md" |
  sed 's/\\|/|/g' | sort >"$tmp/markdown"
rows=$(grep -c '^| `--' "$tmp/options.md")
if [ "$(wc -l <"$tmp/help")" -lt 30 ] || [ "$(wc -l <"$tmp/markdown")" -ne "$rows" ]; then
  echo "cannot read the options: $(wc -l <"$tmp/help") in --help, $(wc -l <"$tmp/markdown") of $rows rows in the Markdown"
  fail=1
elif ! diff -u "$tmp/help" "$tmp/markdown"; then
  echo "--help and the Markdown table differ in their options or defaults (- --help, + Markdown)"
  fail=1
fi
[ $fail -eq 0 ] && echo "options_reference: $rows options, page and --help agree"
exit $fail
