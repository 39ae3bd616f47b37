#!/usr/bin/env bash
# same-results.sh SET OLD_NARWHAL [NEW_NARWHAL]: runs one set of simulations with two builds and
# says whether every `--json` is identical. A change to a data structure that must not move a
# byte or a simulated second (docs/experiments/sim-scale-gpu-cache.md and
# sim-scale-data-sets.md) is checked against the build before it. OLD_NARWHAL is typically a
# build of an earlier commit (git worktree add /tmp/old COMMIT). Sets:
#   cache: every --gpu-cache policy, on --devices gpu and cpu+gpu, over small.xml budgets that
#          force evictions and refused inserts, and the K20X's conv2d under three budgets and
#          four policies (72 runs);
#   data:  the data layer's sets (ownership, resident and in-flight bytes, transfer counts):
#          every application, functional on small.xml under six policies and three placements
#          (verified bit for bit), and conv2d and matmul at 2048/32 on four paper-cluster
#          nodes under scattered policies, three placements and --locality (124 runs).
set -u
cd "$(dirname "$0")/.." || exit 2
set_=${1:?usage: same-results.sh cache|data OLD_NARWHAL [NEW_NARWHAL]}
old=${2:?usage: same-results.sh cache|data OLD_NARWHAL [NEW_NARWHAL]}
new=${3:-build/narwhal}
runs=0 differ=0 failed=0
compare() {
  runs=$((runs + 1))
  local mine
  # a run both builds refuse alike compares nothing: it is counted and shown as failed
  if ! mine=$("$new" "$@" 2>&1); then
    failed=$((failed + 1))
    echo "fails: narwhal $*"
  fi
  if [ "$("$old" "$@" 2>&1)" != "$mine" ]; then
    differ=$((differ + 1))
    echo "differs: narwhal $*"
  fi
}
cache_set() {
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
}
data_set() {
  for app in "matmul --n 256 --block 32" "conv2d --n 256 --block 32" "lu --n 256 --block 32" \
    "pagerank --n 2048 --block 128" "fft2d --n 64 --block 8" "gemv --n 512 --block 32" \
    "cmeans --n 2048 --block 128" "molecular2d --n 1024 --block 64" "randprog --n 4096" "randprog --n 8192"; do
    for sched in unicorn dmda random ws eager; do
      # shellcheck disable=SC2086 # app is a list of options
      compare run --platform platforms/small.xml --devices cpu+gpu --sched $sched --app $app --json
    done
    for placement in node0 blocks; do
      # shellcheck disable=SC2086
      compare run --platform platforms/small.xml --devices cpu+gpu --placement $placement \
        --locality on --app $app --json
    done
  done
  for app in conv2d matmul; do
    for sched in unicorn dmda dmdar random ws lws eager dm; do
      for locality in off on; do
        [ "$sched" != unicorn ] && [ $locality = on ] && continue
        for placement in spread blocks rows; do
          compare run --platform platforms/paper-cluster.xml --nodes 4 --data phantom \
            --devices cpu+gpu --sched $sched --locality $locality --placement $placement \
            --app $app --n 2048 --block 32 --json
        done
      done
    done
  done
}
case $set_ in
cache) cache_set ;;
data) data_set ;;
*)
  echo "same-results.sh: unknown set '$set_' (cache or data)"
  exit 2
  ;;
esac
echo "same-results ($set_): $runs runs, $differ differ, $failed failed"
[ "$differ" -eq 0 ] && [ "$failed" -eq 0 ]
