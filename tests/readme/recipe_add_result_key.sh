#!/usr/bin/env bash
# recipe_add_result_key.sh SOURCE_DIR CMAKE: follows docs/design/recipes/add-a-result-key.md
# on a scratch copy of the source tree. Takes the row the page shows (between its
# "recipe-line" markers), puts it into the copy's counter list where the list says, builds the
# copy's narwhal, and checks that one row was all it took: the key is in a simulated run's
# --json (0, since nothing counts it) and a sweep can tabulate it as a CSV column. A page whose
# row no longer builds, or a list that needs a second edit, fails here.
set -euo pipefail
src=$(cd "$1" && pwd) cmake=$2
page=$src/docs/design/recipes/add-a-result-key.md
list=core/node/stats_list.h
fail() { echo "FAIL: $*"; exit 1; }

# The row, exactly as the page shows it: the one line of the fenced block between the markers.
row=$(awk '/<!-- recipe-line: begin -->/ {on = 1; next} /<!-- recipe-line: end -->/ {on = 0}
           on && !/^```/' "$page")
[ -n "$row" ] && [ "$(printf '%s\n' "$row" | wc -l)" -eq 1 ] ||
  fail "$page: want one line between the recipe-line markers, got: '$row'"
key=$(sed -nE 's/^ *X\([^,]+, *[A-Za-z0-9_]+, *"([A-Za-z0-9_]+)".*/\1/p' <<<"$row")
[ -n "$key" ] || fail "the page's row names no key: $row"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tree as the working copy has it (tracked and new files, not what is ignored: no build).
mkdir "$tmp/src"
(cd "$src" && git ls-files -z --cached --others --exclude-standard) |
  while IFS= read -r -d '' f; do
    case $f in build/* | build-*/*) continue ;; esac
    if [ -e "$src/$f" ]; then printf '%s\0' "$f"; fi
  done | (cd "$src" && xargs -0 cp --parents -t "$tmp/src")
[ -f "$tmp/src/$list" ] || fail "the copy has no $list (is $src a git work tree?)"

awk -v row="$row" '/A new counter.s row goes above this line/ {print row; n++} {print}
                   END {exit n == 1 ? 0 : 1}' "$src/$list" >"$tmp/src/$list" ||
  fail "$list: no single line saying where a new row goes"

start=$(date +%s)
nice "$cmake" -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$tmp/configure.log" 2>&1 ||
  { tail -20 "$tmp/configure.log"; fail "the copy does not configure"; }
nice "$cmake" --build "$tmp/build" -j2 --target narwhal >"$tmp/build.log" 2>&1 ||
  { grep -m 20 -E 'error|Error' "$tmp/build.log"; fail "the copy with the page's row does not build"; }
echo "ok: built the copy's narwhal in $(($(date +%s) - start)) s"
narwhal=$tmp/build/narwhal

out=$("$narwhal" run --backend sim --platform "$tmp/src/platforms/small.xml" --app matmul \
  --n 256 --block 64 --json) || fail "the run exited $?"
[ "$(grep -cE "^[[:space:]]*\"$key\":" <<<"$out")" -eq 1 ] ||
  fail "--json has no key $key (or more than one); its first lines: $(head -c 300 <<<"$out")"
grep -qE "^[[:space:]]*\"$key\":[[:space:]]*0,?\$" <<<"$out" ||
  fail "--json's $key is not 0: $(grep "\"$key\"" <<<"$out")"
echo "ok: --json has \"$key\": 0"

cat >"$tmp/sweep.json" <<EOF
{"title": "the recipe's key as a column",
 "base": {"app": "matmul", "backend": "sim", "platform": "$tmp/src/platforms/small.xml",
          "n": 256, "block": 64},
 "vary": {"nodes": [1, 2]},
 "columns": ["$key"],
 "csv": "$tmp/sweep.csv"}
EOF
(cd "$tmp" && "$narwhal" sweep "$tmp/sweep.json" >"$tmp/sweep.out" 2>&1) ||
  { cat "$tmp/sweep.out"; fail "the sweep exited non-zero"; }
header=$(head -1 "$tmp/sweep.csv")
[[ $header == *",$key" ]] || fail "the sweep's CSV header does not end in $key: $header"
rows=$(tail -n +2 "$tmp/sweep.csv")
[ "$(wc -l <<<"$rows")" -eq 2 ] || fail "the sweep's CSV has not two rows: $rows"
while IFS= read -r line; do
  [ "${line##*,}" = 0 ] || fail "a sweep row's $key is not 0: $line"
done <<<"$rows"
echo "ok: the sweep's CSV has the column $key, 0 in both rows"
