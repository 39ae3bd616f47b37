#!/usr/bin/env bash
# slow-factor.sh [BUILD_DIR] [ROUNDS]: what `--slow NODE:FACTOR` does to a run on this machine's
# real backend. Matmul 3072/768 on one rank and on two (both ranks slowed), at FACTOR 1 (no
# --slow), 2, 3 and 4, ROUNDS rounds (default 3) interleaved over every point; prints each
# point's best makespan and its ratio to the unslowed run of the same layout: FACTOR on one rank,
# less on two, whose messages do not slow (the simulator divides the node's speed by FACTOR and
# gives about as much less: docs/experiments/slowdown-cpu-hold.md).
set -eu
build=${1:-build}
rounds=${2:-3}
nw=$build/narwhal
[ -x "$nw" ] || { echo "slow-factor: $nw: not built" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
declare -A best
for ((round = 1; round <= rounds; round++)); do
  for np in 1 2; do
    for f in 1 2 3 4; do
      slow=none
      if [ "$f" != 1 ]; then
        slow=0:$f
        [ "$np" = 2 ] && slow=0:$f,1:$f
      fi
      t=$(mpiexec -np "$np" --bind-to none "$nw" run --backend real --app matmul --n 3072 \
        --block 768 --slow "$slow" --no-verify --json |
        grep -oE '"makespan_s":[[:space:]]*[0-9.eE+-]+' | grep -oE '[0-9.eE+-]+$')
      k=$np-$f
      if [ -z "${best[$k]:-}" ] || awk -v a="$t" -v b="${best[$k]}" 'BEGIN { exit !(a < b) }'; then
        best[$k]=$t
      fi
    done
  done
done
for np in 1 2; do
  for f in 1 2 3 4; do
    awk -v np="$np" -v f="$f" -v t="${best[$np-$f]}" -v b="${best[$np-1]}" \
      'BEGIN { printf "ranks %d, factor %d: best %.4f s, %.2fx the unslowed run\n", np, f, t, t / b }'
  done
done
