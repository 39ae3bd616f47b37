#!/usr/bin/env bash
# cache-same-results.sh OLD_NARWHAL [NEW_NARWHAL]: runs the same GPU-cache-heavy simulations
# with two builds and says whether every `--json` is identical (EXPERIMENTS.md section 44: a
# change to the cache's data structures must not move a byte or a simulated second). Every
# --gpu-cache policy, on --devices gpu and cpu+gpu, over small.xml budgets that force
# evictions and refused inserts, and the K20X's conv2d under three budgets and four policies.
# OLD_NARWHAL is typically a build of an earlier commit (git worktree add /tmp/old COMMIT).
set -u
cd "$(dirname "$0")/.." || exit 2
old=${1:?usage: cache-same-results.sh OLD_NARWHAL [NEW_NARWHAL]}
new=${2:-build/narwhal}
runs=0 differ=0
compare() {
  runs=$((runs + 1))
  if [ "$("$old" "$@" 2>&1)" != "$("$new" "$@" 2>&1)" ]; then
    differ=$((differ + 1))
    echo "differs: narwhal $*"
  fi
}
for policy in lru mru lfu mfu random none; do
  for cfg in "--app matmul --n 512 --block 64 --gpu-mem 600000" \
    "--app conv2d --n 512 --block 32 --gpu-mem 30000" \
    "--app lu --n 512 --block 32 --gpu-mem 100000" \
    "--app matmul --n 512 --block 32 --gpu-mem 300000 --gpu-streams 4" \
    "--app pagerank --n 4096 --block 256"; do
    for devices in gpu cpu+gpu; do
      # shellcheck disable=SC2086 # cfg is a list of options
      compare run --platform platforms/small.xml --devices $devices --gpu-cache $policy $cfg --json
    done
  done
done
for mem in 0 50000000 5000000; do
  for policy in lru mru lfu random; do
    compare run --platform platforms/k20x-node.xml --data phantom --devices gpu \
      --gpu-cache $policy --app conv2d --n 2048 --block 32 --gpu-mem $mem --json
  done
done
echo "cache-same-results: $runs runs, $differ differ"
[ "$differ" -eq 0 ]
