#!/usr/bin/env bash
# recipes.sh SRC_DIR SCRATCH MPIEXEC [BUILD_TYPE]: the recipes of docs/design/recipes/ as
# written, all in one copy of the source tree, built once. Each page marks what it pastes
# between <!-- recipe:PATH begin --> and <!-- recipe:PATH end -->: a new file at PATH (the
# policy, the application), or lines that go into PATH where PATH says new lines go (the
# option's field and row, the counter's row, the policy's and the application's list lines).
# Nothing else is edited: a recipe that needs another edit fails to build or fails its check.
# Then, with the copy's narwhal (and narwhal-real):
#   add-an-option       --example-level in --help with its default, in --dry-run, from a run
#                       file, refused out of its bounds
#   add-a-result-key    "example_counter": 0 in --json, and a sweep's CSV column
#   add-a-policy        --sched help lists lifo; matmul verified under it, simulated and real
#   add-an-application  --app scale listed, verified simulated and real, bad sizes refused
# The copy lives in SCRATCH between runs, files copied again only where they changed, so a
# second run rebuilds little (the first builds both tools: 2-4 minutes on two cores).
set -u
src=$(cd "${1:?usage: recipes.sh SRC SCRATCH MPIEXEC [BUILD_TYPE]}" && pwd)
mkdir -p "${2:?usage}" && scratch=$(cd "$2" && pwd) || exit 1
mpiexec=${3:?usage} build_type=${4:-RelWithDebInfo}
pages=$src/docs/design/recipes
tree=$scratch/src
passed=0 failed=0
die() { echo "recipes: $*"; echo "recipes: $passed passed, $((failed + 1)) failed"; exit 1; }
bad() { echo "recipes: FAIL: $*"; failed=$((failed + 1)); }
ok() { echo "recipes: ok: $*"; passed=$((passed + 1)); }

# block PAGE PATH: the fenced code between PAGE's markers for PATH, fences left out.
block() {
  awk -v path="$2" '$0 == "<!-- recipe:" path " begin -->" { on = 1; next }
    $0 == "<!-- recipe:" path " end -->" { on = 0 }
    on && !/^```/ { print }' "$pages/$1"
}
# put FILE CONTENT_FILE: FILE in the copy gets the content, its time kept where it is the same
# (so that make rebuilds only what a recipe changed since the last run).
put() { cmp -s "$2" "$tree/$1" || { mkdir -p "$(dirname "$tree/$1")" && cp "$2" "$tree/$1"; }; }

# --- the copy: the tracked and new (not ignored) files as the work tree has them -------------
mkdir -p "$tree" || die "cannot make $tree"
(cd "$src" && git ls-files -z --cached --others --exclude-standard) >"$scratch/files" ||
  die "$src is not a git work tree"
new_files=(core/sched/lifo.c apps/scale/scale.c)
for f in "${new_files[@]}"; do
  [ ! -e "$src/$f" ] || die "$f exists in the source already: the recipe's file would not be new"
done
while IFS= read -r -d '' f; do
  [ -f "$src/$f" ] && put "$f" "$src/$f"
done <"$scratch/files"
# Files gone from the source (not the recipes' own) go from the copy too.
tr '\0' '\n' <"$scratch/files" | sort >"$scratch/list"
(cd "$tree" && find . -path ./build -prune -o -type f -print | sed 's|^\./||' | sort) |
  comm -23 - "$scratch/list" | grep -vxF -f <(printf '%s\n' "${new_files[@]}") |
  while IFS= read -r f; do rm -f "$tree/$f"; done

# --- the pastes ---------------------------------------------------------------------------------
# insert PATH MARKER_REGEX LINES_FILE: LINES_FILE goes just above the one line matching MARKER.
insert() {
  awk -v add="$3" -v m="$2" '$0 ~ m { while ((getline l < add) > 0) print l; n++ } { print }
    END { exit n == 1 ? 0 : 1 }' "$src/$1" >"$scratch/pasted" ||
    die "$1: not one line matching '$2' to put the recipe's lines above"
  put "$1" "$scratch/pasted"
}
# append PATH LINES_FILE: at the end.
append() { cat "$src/$1" "$2" >"$scratch/pasted" && put "$1" "$scratch/pasted"; }
grab() { # grab PAGE PATH: the block into $scratch/block, which must not be empty
  block "$1" "$2" >"$scratch/block"
  [ -s "$scratch/block" ] || die "$1: no code between the markers for $2"
}
grab add-an-option.md lib/options.h && insert lib/options.h '^} tool_options;' "$scratch/block"
grab add-an-option.md lib/options_table.c &&
  insert lib/options_table.c 'add-an-option: new rows go above this line' "$scratch/block"
grab add-a-result-key.md core/node/stats_list.h &&
  insert core/node/stats_list.h "A new counter.s row goes above this line" "$scratch/block"
grab add-a-policy.md core/sched/lifo.c && put core/sched/lifo.c "$scratch/block"
grab add-a-policy.md core/sched/policies.def && append core/sched/policies.def "$scratch/block"
grab add-an-application.md apps/scale/scale.c && put apps/scale/scale.c "$scratch/block"
grab add-an-application.md apps/apps.def && append apps/apps.def "$scratch/block"
for one_line in "add-a-result-key.md core/node/stats_list.h" "add-a-policy.md core/sched/policies.def" \
  "add-an-application.md apps/apps.def"; do
  # shellcheck disable=SC2086 # two words: the page and the path
  [ "$(block $one_line | grep -c .)" = 1 ] || die "$one_line: the registration is not one line"
done

# --- one build ----------------------------------------------------------------------------------
start=$SECONDS
cmake -S "$tree" -B "$tree/build" -DCMAKE_BUILD_TYPE="$build_type" >"$scratch/configure.log" 2>&1 ||
  { tail -n 20 "$scratch/configure.log"; die "the copy does not configure"; }
cmake --build "$tree/build" -j2 --target narwhal narwhal-real >"$scratch/build.log" 2>&1 ||
  { grep -m 20 -B2 -A6 -E 'error|Error' "$scratch/build.log"; die "the copy with every recipe does not build"; }
echo "recipes: built narwhal and narwhal-real with every recipe in $((SECONDS - start)) s"
nw=$tree/build/narwhal
small=$tree/platforms/small.xml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none # containers forbid cross-memory attach
real() { timeout 120 "$mpiexec" -np 1 --bind-to none "$nw" run --backend real "$@"; }
flat() { tr -d ' \t\n'; }
verified() { tr -d '\n' | grep -qE '"verified":[[:space:]]*true'; }

# --- add an option ------------------------------------------------------------------------------
check_option() {
  "$nw" run --help | grep -qF -- '--example-level N [default: 3]' ||
    { bad "option: --example-level with its default is not in --help"; return; }
  case $("$nw" run --dry-run | flat) in *'"example-level":3'*) ;; *)
    bad "option: --dry-run has no \"example-level\": 3"; return ;; esac
  case $("$nw" run --example-level 5 --dry-run | flat) in *'"example-level":5'*) ;; *)
    bad "option: --example-level 5 is not in --dry-run"; return ;; esac
  printf '{"example-level": 7}\n' >"$scratch/run.json"
  case $("$nw" run --config "$scratch/run.json" --dry-run | flat) in *'"example-level":7'*) ;; *)
    bad "option: the run file's 7 is not in --dry-run"; return ;; esac
  local err
  err=$("$nw" run --example-level 10 --dry-run 2>&1) && { bad "option: --example-level 10 was taken"; return; }
  case $err in *"--example-level: must be from 0 to 9"*) ;; *) bad "option: --example-level 10: $err"; return ;; esac
  ok "add-an-option: --example-level in --help, --dry-run and run files, bounded"
}

# --- add a result key ---------------------------------------------------------------------------
check_counter() {
  local key=example_counter out
  out=$("$nw" run --platform "$small" --app matmul --n 256 --block 64 --json) ||
    { bad "result key: the run exited $?"; return; }
  grep -qE "^[[:space:]]*\"$key\":[[:space:]]*0,?\$" <<<"$out" || { bad "result key: --json has no \"$key\": 0"; return; }
  cat >"$scratch/sweep.json" <<EOF
{"base": {"app": "matmul", "platform": "$small", "n": 256, "block": 64},
 "vary": {"nodes": [1, 2]}, "columns": ["$key"], "csv": "$scratch/sweep.csv"}
EOF
  (cd "$scratch" && "$nw" sweep sweep.json --plot off >"$scratch/sweep.out" 2>&1) ||
    { tail -n 3 "$scratch/sweep.out"; bad "result key: the sweep failed"; return; }
  [[ $(head -1 "$scratch/sweep.csv") == *",$key" ]] || { bad "result key: the CSV's header does not end in $key"; return; }
  [ "$(tail -n +2 "$scratch/sweep.csv" | awk -F, '$NF == 0' | wc -l)" = 2 ] ||
    { bad "result key: the CSV has not two rows with $key 0"; return; }
  ok "add-a-result-key: \"$key\": 0 in --json and a sweep's CSV column"
}

# --- add a policy -------------------------------------------------------------------------------
check_policy() {
  "$nw" run --sched help | grep -qE '^ +lifo +' || { bad "policy: --sched help does not list lifo"; return; }
  local args=(--app matmul --n 256 --block 64 --sched lifo --json) out
  out=$("$nw" run "${args[@]}" --platform "$small" 2>&1) && verified <<<"$out" &&
    grep -q '"sched":[[:space:]]*"lifo"' <<<"$out" || { bad "policy: not verified on the simulator"; return; }
  out=$(real "${args[@]}" 2>&1) && verified <<<"$out" || { bad "policy: not verified on the real backend: $(tail -n 3 <<<"$out")"; return; }
  ok "add-a-policy: lifo listed, verified simulated and real"
}

# --- add an application -------------------------------------------------------------------------
check_app() {
  "$nw" run --help | grep -A1 -- '--app ' | grep -qE '[(,] ?scale[,)]' || { bad "application: --help does not list scale"; return; }
  local out
  out=$("$nw" run --app scale --n 4096 --block 256 --platform "$small" --json 2>&1) && verified <<<"$out" ||
    { bad "application: not verified on the simulator: $(tail -n 3 <<<"$out")"; return; }
  out=$(real --app scale --n 4096 --block 256 --json 2>&1) && verified <<<"$out" ||
    { bad "application: not verified on the real backend: $(tail -n 3 <<<"$out")"; return; }
  out=$("$nw" run --app scale --n 100 --block 32 --platform "$small" 2>&1)
  [ $? = 2 ] && [ "$out" = "narwhal: scale: --block 32 does not divide --n 100" ] ||
    { bad "application: a bad size: '$out'"; return; }
  ok "add-an-application: scale listed, verified simulated and real, bad sizes refused"
}

check_option
check_counter
check_policy
check_app
echo "recipes: $passed passed, $failed failed"
[ "$failed" = 0 ]
