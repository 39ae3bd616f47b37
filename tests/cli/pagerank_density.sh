#!/usr/bin/env bash
# pagerank_density.sh NARWHAL PAGERANK_DENSITY: benchmarks/pagerank_density builds a PageRank
# subtask's result as the app does, so its encodings, summed over an iteration's subtasks, are
# byte for byte what a GPU-only simulated run ships to its host (bytes_gpu_reduction_sent),
# for two seeds; Fig. 18's ratio notes rest on that. Its bad arguments: one line, exit 2.
set -u
nw=$1 density=$2
fail() { echo "pagerank_density: 0 passed, 1 failed: $*"; exit 1; }
n=20000 block=2000
for seed in 1 7; do
  tool=0
  for s in $(seq 0 $((n / block - 1))); do
    b=$("$density" $n $block "$s" "$seed" | awk '$1 == "bytes_narwhal" { print $2 }')
    [ -n "$b" ] || fail "no bytes_narwhal for subtask $s"
    tool=$((tool + b))
  done
  sim=$("$nw" run --app pagerank --backend sim --nodes 1 --n $n --block $block --devices gpu \
    --app-param iterations=1 --compression gpu --seed "$seed" --json |
    grep -oE '"bytes_gpu_reduction_sent":[[:space:]]*[0-9]+' | grep -oE '[0-9]+$')
  [ "$tool" = "$sim" ] || fail "seed $seed: the subtasks' encodings add up to $tool bytes, the run sent $sim"
done
for args in "" "20000" "20000 0" "20000 30000" "x 2000" "20000 2000 10" "20000 2000 0 -1"; do
  # shellcheck disable=SC2086 # the arguments, split
  err=$("$density" $args 2>&1 >/dev/null)
  rc=$?
  [ $rc = 2 ] || fail "'$args' exited $rc, not 2"
  if [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || [[ $err != pagerank_density:* ]]; then
    fail "'$args' said: $err"
  fi
done
echo "pagerank_density: 1 passed, 0 failed"
