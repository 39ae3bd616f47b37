#!/usr/bin/env bash
# add_option_recipe.sh SRC_DIR SCRATCH: docs/design/recipes/add-an-option.md works as written.
# The source tree is copied into SCRATCH (kept between runs: only changed files are copied
# again, so only they rebuild), the page's two code blocks are pasted where it says, the
# narwhal target is built there, and the new option must be in --help with its default, in
# --dry-run's JSON, taken from a JSON run file and refused out of its bounds.
set -u
src=$1 scratch=$2
recipe=$src/docs/design/recipes/add-an-option.md
tree=$scratch/src
mkdir -p "$tree"
fail() {
  echo "add_option_recipe: $*"
  exit 1
}
# The code block between <!-- recipe: NAME --> and <!-- /recipe -->, without its fences.
block() {
  awk -v name="$1" '$0 == "<!-- recipe: " name " -->" { on = 1; next }
    on && $0 == "<!-- /recipe -->" { exit }
    on && !/^```/ { print }' "$recipe"
}
block field >"$scratch/field.c"
block row >"$scratch/row.c"
[ -s "$scratch/field.c" ] && [ -s "$scratch/row.c" ] || fail "no field or row block in $recipe"

# The tracked files and the new ones not ignored, as the work tree holds them now.
git -C "$src" ls-files -z --cached --others --exclude-standard >"$scratch/files" ||
  fail "$src is not a git work tree"
while IFS= read -r -d '' f; do
  [ -f "$src/$f" ] || continue # deleted, not yet committed
  cmp -s "$src/$f" "$tree/$f" && continue
  mkdir -p "$tree/$(dirname "$f")"
  cp "$src/$f" "$tree/$f"
done <"$scratch/files"
# The paste, where the page says; each file starts from the source's copy.
cp "$src/lib/options.h" "$tree/lib/options.h"
cp "$src/lib/options_table.c" "$tree/lib/options_table.c"
marker='/* add-an-option: new rows go above this line */'
grep -qF "$marker" "$tree/lib/options_table.c" || fail "no '$marker' in lib/options_table.c"
grep -q '^} tool_options;' "$tree/lib/options.h" || fail "no '} tool_options;' in lib/options.h"
awk -v add="$scratch/row.c" -v m="$marker" 'index($0, m) { while ((getline l < add) > 0) print l }
  { print }' "$src/lib/options_table.c" >"$tree/lib/options_table.c"
awk -v add="$scratch/field.c" '/^} tool_options;/ { while ((getline l < add) > 0) print l }
  { print }' "$src/lib/options.h" >"$tree/lib/options.h"

start=$(date +%s)
nice cmake -S "$tree" -B "$tree/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$scratch/configure.log" 2>&1 ||
  { tail -20 "$scratch/configure.log"; fail "configure failed"; }
nice cmake --build "$tree/build" -j2 --target narwhal >"$scratch/build.log" 2>&1 ||
  { grep -m 20 -B2 -A8 'error' "$scratch/build.log"; fail "the build with the recipe's row failed"; }
echo "built in $(($(date +%s) - start)) s"
nw=$tree/build/narwhal

help=$("$nw" run --help) || fail "run --help: status $?"
printf '%s\n' "$help" | grep -qF -- '--example-level N [default: 3]' ||
  fail "--example-level with its default is not in --help"
flat() { tr -d ' \t\n'; }
out=$("$nw" run --dry-run | flat) || fail "run --dry-run: status $?"
case $out in *'"example-level":3'*) ;; *) fail "--dry-run has no \"example-level\": 3: $out" ;; esac
out=$("$nw" run --example-level 5 --dry-run | flat) || fail "--example-level 5 refused"
case $out in *'"example-level":5'*) ;; *) fail "--example-level 5 is not in --dry-run: $out" ;; esac
printf '{"example-level": 7}\n' >"$scratch/run.json"
out=$("$nw" run --config "$scratch/run.json" --dry-run | flat) || fail "the run file's key refused"
case $out in *'"example-level":7'*) ;; *) fail "the run file's 7 is not in --dry-run: $out" ;; esac
err=$("$nw" run --example-level 10 --dry-run 2>&1) && fail "--example-level 10 was taken"
case $err in *"--example-level: must be from 0 to 9"*) ;; *) fail "--example-level 10: $err" ;; esac
echo "add_option_recipe: the recipe's option is in --help, --dry-run and run files"
