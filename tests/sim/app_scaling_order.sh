#!/usr/bin/env bash
# app_scaling_order.sh NARWHAL SRC_DIR: the claim of docs/experiments/strong-scaling.md about
# the paper's Fig. 4, at half the paper's sizes: on 8 paper-cluster nodes (CPU work-groups and
# GPUs, phantom data) matmul speeds up more over one node than LU and than 2D FFT, as in the
# paper (LU's sequential diagonal tasks and many small transfers, FFT's data volume).
set -u
nw=$1 src=$2
fail() { echo "app_scaling_order: 0 passed, 1 failed: $*"; exit 1; }
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
speedup() { # APP N BLOCK
  local o1 o8
  o1=$("$nw" run --app "$1" --backend sim --platform "$src/platforms/paper-cluster.xml" --nodes 1 \
    --n "$2" --block "$3" --data phantom --devices cpu+gpu --work-groups on --json) || fail "$1 on 1 node"
  o8=$("$nw" run --app "$1" --backend sim --platform "$src/platforms/paper-cluster.xml" --nodes 8 \
    --n "$2" --block "$3" --data phantom --devices cpu+gpu --work-groups on --json) || fail "$1 on 8 nodes"
  awk -v a="$(field "$o1" makespan_s)" -v b="$(field "$o8" makespan_s)" 'BEGIN { printf "%.3f", a / b }'
}
mm=$(speedup matmul 32768 2048) lu=$(speedup lu 32768 2048) fft=$(speedup fft2d 30720 512)
echo "speed-up on 8 nodes: matmul $mm, lu $lu, fft2d $fft"
awk -v m="$mm" -v l="$lu" -v f="$fft" 'BEGIN { exit !(m > l && m > f) }' ||
  fail "wanted matmul's speed-up above LU's and FFT's"
echo "app_scaling_order: 1 passed, 0 failed"
