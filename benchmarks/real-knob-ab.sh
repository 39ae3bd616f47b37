#!/usr/bin/env bash
# real-knob-ab.sh [BUILD_DIR] VAR A B: one of the real backend's environment knobs
# (NARWHAL_SPIN_US, NARWHAL_LOOP_SPIN_US, NARWHAL_SPIN_POLLS, NARWHAL_COMPUTE_NICE; README,
# "Real backend: no network thread, and spin before sleep") set to A against B, on ten
# workloads of this 2-core machine:
# Task Bench stencils of two one-device ranks (empty, 4096 and 65536 iterations a subtask),
# matmul and conv2d on two ranks (inputs on node 0; spread; a rank slowed 2x), C-means on two
# one-device ranks with eager and a rank slowed 2x, and one rank
# (Task Bench empty and 4096 iterations, matmul at n = 2048). Interleaved (A, B, A, B, ...;
# ROUNDS rounds, default 5) since this machine is noisy; prints each workload's median and best
# makespan under A and B and median(A) / median(B): above 1, B is faster.
# VAR=BUILD compares two builds instead: A and B are build directories (or copies of one:
# narwhal and lib/), each run with its own libraries and backends.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 4 ]; then
  build=$1
  shift
else
  build=build
fi
[ $# -eq 3 ] || {
  echo "usage: benchmarks/real-knob-ab.sh [BUILD_DIR] VAR A B" >&2
  exit 2
}
var=$1 a=$2 b=$3 rounds=${ROUNDS:-5}
case $var in
NARWHAL_SPIN_US | NARWHAL_LOOP_SPIN_US | NARWHAL_SPIN_POLLS | NARWHAL_COMPUTE_NICE) ;;
BUILD)
  for d in "$a" "$b"; do
    if [ ! -x "$d/narwhal" ] || [ ! -d "$d/lib/narwhal" ]; then
      echo "real-knob-ab: BUILD '$d': want a build directory with narwhal and lib/narwhal" >&2
      exit 2
    fi
  done
  ;;
*)
  echo "real-knob-ab: VAR '$var': want NARWHAL_SPIN_US, NARWHAL_LOOP_SPIN_US, NARWHAL_SPIN_POLLS, NARWHAL_COMPUTE_NICE or BUILD" >&2
  exit 2
  ;;
esac
[[ $rounds =~ ^[1-9][0-9]*$ ]] || {
  echo "real-knob-ab: ROUNDS '$rounds': want a whole number >= 1" >&2
  exit 2
}
nw=$build/narwhal
[ "$var" = BUILD ] || [ -x "$nw" ] || {
  echo "real-knob-ab: $nw: not built" >&2
  exit 2
}
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
tb="--app taskbench --block 4 --app-param"
workloads=(
  "2|--cpu-devices 1 $tb iterations=0 --n 2000"
  "2|--cpu-devices 1 $tb iterations=4096 --n 1000"
  "2|--cpu-devices 1 $tb iterations=65536 --n 500"
  "2|--app matmul --n 2048 --block 512 --placement node0"
  "2|--app conv2d --n 4096 --block 512"
  "2|--app matmul --n 2048 --block 256 --slow 1:2"
  "2|--cpu-devices 1 --app cmeans --n 131072 --block 8192 --slow 1:2 --sched eager"
  "1|$tb iterations=0 --n 5000"
  "1|$tb iterations=4096 --n 2000"
  "1|--app matmul --n 2048 --block 1024"
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 1; r <= rounds; r++)); do
  for i in "${!workloads[@]}"; do
    np=${workloads[$i]%%|*} args=${workloads[$i]#*|}
    over=()
    [ "$np" -gt 1 ] && over=(--oversubscribe)
    for side in a b; do
      value=$a
      [ $side = b ] && value=$b
      run=(env "$var=$value" mpirun -x "$var" -np "$np" "${over[@]}" --bind-to none "$nw")
      [ "$var" = BUILD ] && run=(env LD_LIBRARY_PATH="$value/lib" NARWHAL_PLUGIN_DIR="$value/lib/narwhal"
        mpirun -x LD_LIBRARY_PATH -x NARWHAL_PLUGIN_DIR -np "$np" "${over[@]}" --bind-to none
        "$value/narwhal")
      # shellcheck disable=SC2086
      "${run[@]}" run --backend real $args --no-verify --json >"$tmp/run.json"
      grep -o '"makespan_s":[^,}]*' "$tmp/run.json" | sed 's/.*://' >>"$tmp/$i.$side"
    done
  done
  echo "round $r of $rounds done" >&2
done
printf '%-80s %22s %22s %8s\n' "workload (ranks|options)" "$var=$a median/best" \
  "$var=$b median/best" "A/B"
for i in "${!workloads[@]}"; do
  ma=$(sort -g "$tmp/$i.a" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)], v[1]}')
  mb=$(sort -g "$tmp/$i.b" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)], v[1]}')
  read -r amed abest <<<"$ma"
  read -r bmed bbest <<<"$mb"
  printf '%-80s %11.4f/%-10.4f %11.4f/%-10.4f %8.3f\n' "${workloads[$i]}" "$amed" "$abest" \
    "$bmed" "$bbest" "$(awk -v x="$amed" -v y="$bmed" 'BEGIN { print x / y }')"
done
