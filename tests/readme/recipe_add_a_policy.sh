#!/usr/bin/env bash
# recipe_add_a_policy.sh SRC_DIR MPIEXEC [BUILD_TYPE]: docs/design/recipes/add-a-policy.md as
# written. Copies the source tree (git ls-files) into a scratch folder, writes the page's code
# block to core/sched/lifo.c and appends its one registration line to core/sched/policies.def,
# changes nothing else, builds narwhal and narwhal-real there, and runs the example policy on
# the simulator and on the real backend: both must verify. A policy that needed another edit
# (CMake, a header, a switch somewhere) fails here.
set -u
src=${1:?usage: recipe_add_a_policy.sh SRC_DIR MPIEXEC [BUILD_TYPE]}
mpiexec=${2:?usage: recipe_add_a_policy.sh SRC_DIR MPIEXEC [BUILD_TYPE]}
build_type=${3:-RelWithDebInfo}
page=docs/design/recipes/add-a-policy.md
fail() {
  echo "recipe_add_a_policy: $*"
  echo "recipe_add_a_policy: 0 passed, 1 failed"
  exit 1
}
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || fail "$src is not a git checkout"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/nw-recipe.XXXXXX") || fail "no scratch folder"
trap 'rm -rf "$scratch"' EXIT
tree=$scratch/src
mkdir -p "$tree"
# The tracked files as they stand in the working tree (uncommitted edits included; one deleted
# there is left out).
(cd "$src" && git ls-files -z) |
  while IFS= read -r -d '' f; do [ -e "$src/$f" ] && printf '%s\0' "$f"; done |
  (cd "$src" && xargs -0 cp -a --parents -t "$tree") || fail "copying the source tree failed"

# block FILE: the fenced code between the page's markers for FILE, fences left out.
block() {
  awk -v file="$1" '
    $0 == "<!-- recipe:" file " begin -->" { on = 1; next }
    $0 == "<!-- recipe:" file " end -->" { on = 0 }
    on && /^```/ { next }
    on { print }' "$tree/$page"
}
code=$(block core/sched/lifo.c)
line=$(block core/sched/policies.def)
[ -n "$code" ] || fail "$page: no code block between the core/sched/lifo.c markers"
[ "$(printf '%s\n' "$line" | grep -c .)" = 1 ] ||
  fail "$page: the registration is not one line: '$line'"
[ ! -e "$tree/core/sched/lifo.c" ] || fail "core/sched/lifo.c exists already: not a new file"
printf '%s\n' "$code" >"$tree/core/sched/lifo.c"
printf '%s\n' "$line" >>"$tree/core/sched/policies.def"

start=$SECONDS
cmake -S "$tree" -B "$scratch/build" -DCMAKE_BUILD_TYPE="$build_type" >"$scratch/configure.log" 2>&1 ||
  { tail -n 20 "$scratch/configure.log"; fail "configure failed"; }
nice cmake --build "$scratch/build" -j2 --target narwhal narwhal-real >"$scratch/build.log" 2>&1 ||
  { grep -E 'error|Error' "$scratch/build.log" | head -n 20; fail "build failed"; }
echo "built narwhal and narwhal-real in $((SECONDS - start)) s"

bin=$scratch/build/narwhal
cd "$tree" || fail "no $tree"
"$bin" run --sched help | grep -qE '^ +lifo +' || fail "--sched help does not list lifo"
run_verified() { # WHAT COMMAND...: the command's JSON says verified and sched lifo
  local what=$1 out
  shift
  out=$("$@" 2>&1) || { printf '%s\n' "$out" | tail -n 5; fail "$what: exit status $?"; }
  printf '%s\n' "$out" | tr -d '\n' | grep -qE '"verified":[[:space:]]*true' ||
    { printf '%s\n' "$out" | tail -n 5; fail "$what: not verified"; }
  printf '%s\n' "$out" | tr -d '\n' | grep -qE '"sched":[[:space:]]*"lifo"' ||
    fail "$what: the run's sched is not lifo"
  echo "ok: $what verified"
}
args=(--app matmul --n 256 --block 64 --sched lifo --json)
run_verified "simulator, platforms/small.xml" "$bin" run "${args[@]}" --platform platforms/small.xml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none # containers forbid cross-memory attach
run_verified "real backend, 1 rank" timeout 120 "$mpiexec" -np 1 --bind-to none "$bin" run \
  --backend real "${args[@]}"
echo "recipe_add_a_policy: 1 passed, 0 failed"
