#!/usr/bin/env bash
# app-scaling.sh [BUILD_DIR]: the Unicorn paper's Fig. 4 in simulation (Beri et al., TPDS,
# section 5.2; EXPERIMENTS.md section 15): strong scaling of conv2d, matmul, LU and 2D FFT at
# the paper's sizes (conv2d: its 31x31 filter on 3 channels) on 1, 2, 4, 8 and 14 nodes of platforms/paper-cluster.xml, as the main job
# runs (CPU work-groups and two GPUs per node, phantom data): simulated seconds, speed-up over
# one node, data moved. The paper, on 14 nodes: conv2d 11.83x, matmul 7.34x, FFT 5.36x, LU
# 4.8x. About 10 seconds.
set -eu
build=${1:-build}
nw=$build/narwhal
src=$(cd "$(dirname "$0")/.." && pwd)
field() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
printf '%-7s %5s %12s %9s %10s\n' app nodes makespan_s speedup network_GB
for app in "conv2d 65536 2048 radius=15 channels=3" "matmul 65536 2048" "lu 65536 2048" \
  "fft2d 61440 512"; do
  read -r name n block p1 p2 <<<"$app"
  params=()
  for p in ${p1:+"$p1"} ${p2:+"$p2"}; do params+=(--app-param "$p"); done
  one=
  for nodes in 1 2 4 8 14; do
    o=$("$nw" run --app "$name" --backend sim --platform "$src/platforms/paper-cluster.xml" \
      --nodes "$nodes" --n "$n" --block "$block" --data phantom --devices cpu+gpu \
      --work-groups on ${params[@]+"${params[@]}"} --json)
    m=$(field "$o" makespan_s) bytes=$(field "$o" bytes_network)
    one=${one:-$m}
    awk -v a="$name" -v k="$nodes" -v m="$m" -v o="$one" -v b="$bytes" 'BEGIN {
      printf "%-7s %5s %12.3f %9.2f %10.1f\n", a, k, m, o / m, b / 1e9 }'
  done
done
