#!/usr/bin/env bash
# platform_from_anywhere.sh NARWHAL SRC: `narwhal run` finds the bundled platforms from a
# directory outside the repository (lib/platform_path.h): by the path the docs use
# (platforms/small.xml), by the file's name alone, and for the default platform; a file of
# that path in the working directory comes first; a path found nowhere is still refused.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0
fail() { echo "platform_from_anywhere: $passed passed, 1 failed: $*"; exit 1; }
nodes() { sed -n 's/.*"nodes":[[:space:]]*\([0-9]*\).*/\1/p' | head -n1; }

for p in platforms/small.xml small.xml; do
  out=$("$nw" run --platform "$p" --n 64 --block 16 --json 2>&1) || fail "--platform $p: $out"
  [ "$(echo "$out" | nodes)" = 4 ] && echo "$out" | grep -q '"verified":[[:space:]]*true' ||
    fail "--platform $p: not small.xml's 4 nodes, verified"
  passed=$((passed + 1))
done
out=$("$nw" run --n 64 --block 16 --nodes 2 --data phantom --json 2>&1) || fail "the default platform: $out"
passed=$((passed + 1))

# A platforms/small.xml of the working directory's own (2 nodes) is the one used.
mkdir platforms
"$src/platforms/gen-platform.sh" --nodes 2 --cores 2 >platforms/small.xml
out=$("$nw" run --platform platforms/small.xml --n 64 --block 16 --json 2>&1) || fail "a local file: $out"
[ "$(echo "$out" | nodes)" = 2 ] || fail "the working directory's platforms/small.xml was not used"
passed=$((passed + 1))

"$nw" run --platform nowhere.xml --n 64 --block 16 >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 2 ] && grep -qF "platform nowhere.xml: No such file" "$tmp/err" ||
  fail "a missing platform: exit $code, said '$(cat "$tmp/err")'"
passed=$((passed + 1))
echo "platform_from_anywhere: $passed passed, 0 failed"
