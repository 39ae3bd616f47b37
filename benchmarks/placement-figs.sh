#!/usr/bin/env bash
# placement-figs.sh [BUILD_DIR]: the Unicorn paper's Figs. 13 and 21 in simulation (Beri et
# al., TPDS, sections 5.5.3 and 5.7.3; EXPERIMENTS.md sections 16 and 17), on
# platforms/paper-cluster.xml as the main job runs (CPU work-groups and two GPUs per node,
# phantom data), conv2d (65536^2, 2048^2 tiles, 31x31 filter on 3 channels) and matmul (65536,
# 2048 blocks).
#
# Fig. 13: simulated seconds per initial placement (node0 = the paper's centralized, rows,
# columns, blocks; matmul also rows-columns) on 2, 4, 8 and 14 nodes, the mean over SEEDS
# (default "1 2 3") and the spread (max - min) / mean over them, and the GB the busiest
# sender sent in answer to fetches (mean over seeds); the paper's text says only that
# centralized behaves poorly.
#
# Fig. 21: per node, the space bytes sent in answer to fetches (unique: bytes it had not sent
# before; total) and the transfer frequency (total / unique per node, averaged), with the
# bytes received beside (unique and total), on 2, 4, 8, 10, 12 and 14 nodes, seed 1, blocks
# placement, beside the paper's table; conv2d's bytes also divided by 4 (its image has a byte
# per channel where this one has a float). About 20 seconds.
set -eu
build=${1:-build}
nw=$build/narwhal
src=$(cd "$(dirname "$0")/.." && pwd)
seeds=${SEEDS:-1 2 3}
field() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
# The largest per_node bytes_served: every "bytes_served" after the first (the total).
busiest() { printf '%s' "$1" | grep -oE '"bytes_served":[[:space:]]*[0-9.eE+-]+' | tail -n +2 |
  grep -oE '[0-9.eE+-]+$' | sort -g | tail -1; }
run() { # APP NODES PLACEMENT SEED
  local params=()
  [ "$1" = conv2d ] && params=(--app-param radius=15 --app-param channels=3)
  "$nw" run --app "$1" --backend sim --platform "$src/platforms/paper-cluster.xml" --nodes "$2" \
    --n 65536 --block 2048 --data phantom --devices cpu+gpu --work-groups on --placement "$3" \
    --seed "$4" "${params[@]}" --json
}

echo "Fig. 13: makespan_s by initial placement (mean over seeds $seeds; spread = (max - min) / mean)"
printf '%-7s %5s  %-13s %10s %8s %12s\n' app nodes placement makespan_s spread busiest_GB
for app in conv2d matmul; do
  schemes="node0 rows columns blocks"
  [ "$app" = matmul ] && schemes="$schemes rows-columns"
  for nodes in 2 4 8 14; do
    for p in $schemes; do
      rows=()
      for s in $seeds; do
        o=$(run "$app" "$nodes" "$p" "$s")
        rows+=("$(field "$o" makespan_s) $(busiest "$o")")
      done
      printf '%s\n' "${rows[@]}" | awk -v a="$app" -v k="$nodes" -v p="$p" '
        { sum += $1; b += $2; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1 }
        END { m = sum / NR; printf "%-7s %5s  %-13s %10.3f %7.1f%% %12.2f\n", a, k, p, m,
          100 * (hi - lo) / m, b / NR / 1e9 }'
    done
  done
done

echo
echo "Fig. 21: per node, GB (1e9 bytes) of space data sent and received in answer to fetches"
echo "(blocks placement, seed 1); freq = total / unique sent per node, averaged (the paper's)"
printf '%-7s %5s %11s %10s %6s %13s %12s %8s   %s\n' app nodes sent_unique sent_total freq \
  recv_unique recv_total recv_freq "paper: unique total freq; conv2d sent / 4"
paper() { # APP NODES: the paper's Fig. 21 row (its text gives the table)
  case "$1:$2" in
  conv2d:2) echo "3.05 3.05 1.00" ;; conv2d:4) echo "2.26 2.27 1.00" ;;
  conv2d:8) echo "1.31 1.32 1.01" ;; conv2d:10) echo "1.07 1.07 1.01" ;;
  conv2d:12) echo "0.91 0.92 1.01" ;; conv2d:14) echo "0.87 0.88 1.01" ;;
  matmul:2) echo "8.50 8.50 1.00" ;; matmul:4) echo "7.38 15.88 2.15" ;;
  matmul:8) echo "5.63 18.19 3.23" ;; matmul:10) echo "4.50 18.20 4.04" ;;
  matmul:12) echo "4.00 18.83 4.71" ;; matmul:14) echo "3.18 18.36 5.78" ;;
  esac
}
for app in conv2d matmul; do
  for nodes in 2 4 8 10 12 14; do
    o=$(run "$app" "$nodes" blocks 1)
    awk -v a="$app" -v k="$nodes" -v su="$(field "$o" bytes_served_unique)" \
      -v st="$(field "$o" bytes_served)" -v f="$(field "$o" transfer_frequency)" \
      -v ru="$(field "$o" bytes_received_unique)" -v rt="$(field "$o" bytes_received)" \
      -v rf="$(field "$o" transfer_frequency_received)" -v p="$(paper "$app" "$nodes")" 'BEGIN {
      printf "%-7s %5s %11.2f %10.2f %6.2f %13.2f %12.2f %8.2f   %s", a, k, su / k / 1e9,
        st / k / 1e9, f, ru / k / 1e9, rt / k / 1e9, rf, p
      if (a == "conv2d") printf "; %.2f %.2f", su / k / 4e9, st / k / 4e9
      printf "\n" }'
  done
done
