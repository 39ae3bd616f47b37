#!/usr/bin/env bash
# task-graph-scale.sh [BUILD_DIR]: the runtime's wall time per task as a task graph grows, in
# simulation: 1,000, 10,000 and 100,000 tiny tasks (apps/bag, one subtask of 1,000 flops each,
# each writing a space of its own), independent and as a chain (each reading the one before),
# on NODES (default "1 4") nodes of platforms/small.xml. Each size runs REPS times (default 3),
# the sizes interleaved, and the best is kept; the run of one task, measured the same way, is
# the start-up cost taken off: per task = (best(n) - best(1)) / (n - 1). Prints microseconds
# per task for each size and the largest over the smallest of the three per row (flat is 1).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
nw=$build/narwhal
reps=${REPS:-3}
read -r -a node_counts <<<"${NODES:-1 4}"
sizes=(1 1000 10000 100000)
[ -x "$nw" ] || { echo "task-graph-scale.sh: $nw is missing (build first: scripts/bootstrap.sh)" >&2; exit 1; }

seconds() { # seconds NODES CHAIN N: wall time of one run
  local t0 t1
  t0=$(date +%s.%N)
  "$nw" run --app bag --platform platforms/small.xml --nodes "$1" --n "$3" --block 1 \
    --app-param flops=1000 --app-param chain="$2" --no-verify --json >/dev/null
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}

echo "task graphs in simulation: wall time per task (us), best of $reps, start-up taken off"
printf '%-6s %-12s %10s %10s %10s %8s\n' nodes graph 1000 10000 100000 max/min
for nodes in "${node_counts[@]}"; do
  for chain in 0 1; do
    declare -A best=()
    for ((r = 0; r < reps; r++)); do
      for n in "${sizes[@]}"; do
        s=$(seconds "$nodes" "$chain" "$n")
        if [ -z "${best[$n]:-}" ] || awk -v a="$s" -v b="${best[$n]}" 'BEGIN { exit !(a < b) }'; then
          best[$n]=$s
        fi
      done
    done
    per=()
    for n in 1000 10000 100000; do
      per+=("$(awk -v t="${best[$n]}" -v z="${best[1]}" -v n="$n" 'BEGIN { printf "%.1f", (t - z) / (n - 1) * 1e6 }')")
    done
    ratio=$(printf '%s\n' "${per[@]}" | awk 'NR == 1 { lo = hi = $1 } { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 } END { printf "%.2f", hi / lo }')
    printf '%-6s %-12s %10s %10s %10s %8s\n' "$nodes" "$([ "$chain" = 1 ] && echo chain || echo independent)" \
      "${per[0]}" "${per[1]}" "${per[2]}" "$ratio"
    unset best
  done
done
