#!/usr/bin/env bash
# app-scaling.sh [BUILD_DIR]: the Unicorn paper's Fig. 4 in simulation (Beri et al., TPDS,
# section 5.2; docs/experiments/strong-scaling.md): strong scaling of conv2d, matmul, LU and 2D
# FFT at the paper's sizes (conv2d: its 31x31 filter on 3 channels) on 1, 2, 4, 8 and 14 nodes
# of platforms/paper-cluster.xml, as the main job runs (CPU work-groups and two GPUs per node,
# phantom data): simulated seconds, speed-up over one node, data moved. The paper, on 14 nodes:
# conv2d 11.83x, matmul 7.34x, FFT 5.36x, LU 4.8x. About 10 seconds. With PAPER_ROWS /
# PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) it also writes the table as CSV and the
# 14-node speed-ups beside the paper's (experiments/paper/rows.sh); the printed table is the
# same either way.
set -eu
build=${1:-build}
nw=$build/narwhal
src=$(cd "$(dirname "$0")/.." && pwd)
field() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
. "$src/experiments/paper/rows.sh"
table_csv app-scaling app nodes makespan_s speedup bytes_network
declare -A sp14=()
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
    sp=$(awk -v m="$m" -v o="$one" 'BEGIN { printf "%.4f", o / m }')
    table_row app-scaling "$name" "$nodes" "$m" "$sp" "$bytes"
    [ "$nodes" != 14 ] || sp14[$name]=$sp
  done
done

# The paper's 14-node speed-ups (section 5.2 gives all four), and their order.
paper_row Unicorn "Fig. 4" "conv2d speed-up on 14 nodes (65536^2, 31x31 filter, 3 channels)" \
  "section 5.2" 11.83 11.83 "" "${sp14[conv2d]}" "4-byte floats per channel where the paper has bytes"
paper_row Unicorn "Fig. 4" "matmul speed-up on 14 nodes (65536, 2048 blocks)" "section 5.2" \
  7.34 7.34 "" "${sp14[matmul]}"
paper_row Unicorn "Fig. 4" "2D FFT speed-up on 14 nodes (61440, 512-row stripes)" "section 5.2" \
  5.36 5.36 "" "${sp14[fft2d]}"
paper_row Unicorn "Fig. 4" "LU speed-up on 14 nodes (65536, 2048 blocks)" "section 5.2" \
  4.8 4.8 "" "${sp14[lu]}"
order=$(for a in "${!sp14[@]}"; do echo "${sp14[$a]} $a"; done | sort -gr | awk '{ printf "%s%s", (NR > 1 ? " > " : ""), $2 }')
paper_row Unicorn "Fig. 4" "order of the 14-node speed-ups" "section 5.2" "" "" \
  "conv2d > matmul > fft2d > lu" "$order" \
  "$([ "$order" = "conv2d > matmul > fft2d > lu" ] && echo agrees || echo differs)"
