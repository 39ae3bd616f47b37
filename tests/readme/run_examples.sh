#!/usr/bin/env bash
# run_examples.sh [--cuda] [--long] BUILD_DIR MARKDOWN...: runs every command block the Markdown files
# mark as an example (README.md, "Tests": the marker convention), so that the README's commands
# keep working as written. Each block runs on its own, under bash -e with a time limit
# (README_EXAMPLE_TIMEOUT seconds, default 120), in a fresh folder that holds a link to every
# top-level entry of the repository and `build` -> BUILD_DIR: what a block writes (results/,
# trace.json, ...) lands there, never in the source tree. A block fails the test, named by its
# file, line and first line, if it exits non-zero, runs out of time, or misses one of its
# `<!-- expect ... -->` checks; so does a command block with no marker. Blocks marked gpu run
# only with --cuda (a CUDA build) where nvidia-smi lists a GPU; slurm blocks only where `sinfo`
# reaches a Slurm (scripts/local-slurm.sh starts one); python blocks only where BUILD_DIR has the
# package's venv and no sanitizer (an interpreter built without AddressSanitizer cannot load the
# instrumented library); bootstrap blocks never run; long blocks
# run only with --long, which runs them alone (default time limit then 1800 s: the test
# readme.examples_long, label long). Skipped blocks are listed with the reason.
set -euo pipefail

cuda=0 long=0
while [ "${1:-}" = --cuda ] || [ "${1:-}" = --long ]; do
  [ "$1" = --cuda ] && cuda=1 || long=1
  shift
done
[ $# -ge 2 ] || { echo "usage: run_examples.sh [--cuda] [--long] BUILD_DIR MARKDOWN..." >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
limit=${README_EXAMPLE_TIMEOUT:-$([ $long = 1 ] && echo 1800 || echo 120)}

work=$(mktemp -d "${TMPDIR:-/tmp}/readme-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/blocks"
: >"$work/blocks/manifest"
# Paths relative to the repository, as the README names them.
files=()
for f in "$@"; do files+=("$(realpath --relative-to="$src" "$f")"); done
(cd "$src" && awk -v out="$work/blocks" -f "$here/extract_examples.awk" "${files[@]}")
if [ -s "$work/blocks/problems" ]; then
  echo "FAIL: the example markup is wrong:"
  sed 's/^/  /' "$work/blocks/problems"
  exit 1
fi

# A GPU block runs only where this build drives CUDA and a GPU is there to drive.
gpu_why=""
if [ $cuda -eq 0 ]; then
  gpu_why="this build has no CUDA"
elif ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  gpu_why="no NVIDIA GPU on this machine"
fi

# A slurm block runs only where a Slurm answers (SLURM_CONF may name a local one).
slurm_why=""
command -v sinfo >/dev/null && timeout 10 sinfo -h >/dev/null 2>&1 || slurm_why="no Slurm answers here"

# A python block runs the narwhal package (docs/guide/python.md) from the build's venv.
python_why=""
if [ ! -x "$build/venv/bin/python" ]; then
  python_why="no venv in this build (python/install-venv.sh makes it)"
elif grep -q '^NW_SANITIZE:[A-Z]*=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  python_why="a sanitizer build, which Python's interpreter cannot load"
fi

ran=0 failed=0 skipped=()
start=$SECONDS
while IFS=$'\t' read -r id file line kind reason; do
  # Named by its first command (not the export lines before it) and that line's place.
  skip=$(awk '!/^export /{print NR - 1; exit}' "$work/blocks/$id.sh")
  first=$(sed -n "$((${skip:-0} + 1))p" "$work/blocks/$id.sh")
  where="$file:$((line + ${skip:-0})): $first"
  if [ $long = 1 ] && [ "$kind" != long ]; then
    continue # the default test runs it
  fi
  case $kind in
    gpu) [ -z "$gpu_why" ] || { skipped+=("gpu ($gpu_why): $where"); continue; } ;;
    slurm) [ -z "$slurm_why" ] || { skipped+=("slurm ($slurm_why): $where"); continue; } ;;
    python) [ -z "$python_why" ] || { skipped+=("python ($python_why): $where"); continue; } ;;
    long) [ $long = 1 ] || { skipped+=("long (${reason:-too long for a test}; readme.examples_long runs it): $where"); continue; } ;;
    bootstrap) skipped+=("bootstrap (installs packages and builds; .ci/run runs it): $where"); continue ;;
  esac
  # A fresh folder per block: the repository's entries by link, the build under test as build.
  dir="$work/run-$id"
  mkdir "$dir"
  for e in "$src"/*; do
    case ${e##*/} in build* | results) ;; *) ln -s "$e" "$dir/${e##*/}" ;; esac
  done
  ln -s "$build" "$dir/build"
  # The block as a reader would paste it, with no Open MPI settings inherited from this
  # environment (the block must set what it needs) except those RUN_EXAMPLES_KEEP_OMPI names
  # (a machine's own, such as a GPU machine's launcher settings, which a reader there has
  # too), stopping at the first failing command.
  {
    echo "keep=' ${RUN_EXAMPLES_KEEP_OMPI:-} '"
    cat <<'EOF'
for v in ${!OMPI_@}; do [[ $keep == *" $v "* ]] || unset "$v"; done
set -eo pipefail
trap 'echo "run_examples: failed: $BASH_COMMAND" >&2' ERR
EOF
    cat "$work/blocks/$id.sh"
  } >"$work/$id.bash"
  ran=$((ran + 1))
  t0=$SECONDS
  status=0
  (cd "$dir" && timeout -k 10 "$limit" bash "$work/$id.bash") </dev/null >"$work/$id.log" 2>&1 ||
    status=$?
  why=""
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    why="ran past ${limit} s"
  elif [ $status -ne 0 ]; then
    why="exit status $status"
  else
    while IFS= read -r check; do
      case $check in
        "output: "*)
          grep -Eq -- "${check#output: }" "$work/$id.log" || why="output lacks /${check#output: }/" ;;
        "file: "*)
          [ -s "$dir/${check#file: }" ] || why="wrote no ${check#file: }" ;;
      esac
      [ -z "$why" ] || break
    done <"$work/blocks/$id.expect"
  fi
  if [ -z "$why" ]; then
    echo "ok   $where ($((SECONDS - t0)) s)"
  else
    failed=$((failed + 1))
    echo "FAIL $where: $why; its output ends:"
    tail -n 20 "$work/$id.log" | sed 's/^/       /'
  fi
done <"$work/blocks/manifest"

echo "readme examples: ran $ran, $failed failed, skipped ${#skipped[@]}, in $((SECONDS - start)) s"
for s in ${skipped[@]+"${skipped[@]}"}; do echo "  skipped: $s"; done
[ $ran -gt 0 ] || { echo "FAIL: no example block found"; exit 1; }
[ $failed -eq 0 ]
