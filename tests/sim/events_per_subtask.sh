#!/usr/bin/env bash
# events_per_subtask.sh NARWHAL SOURCE_DIR [BOUND]: the simulator's work per simulated subtask
# does not grow with the cluster (issue 16, item 5). Runs conv2d (phantom, tiles spread, the
# default unicorn scheduler) with the same 9 subtasks per node on 16 and on 128 small nodes
# (platforms generated with gen-platform.sh --backbone none) and passes when the events the
# nodes handled per subtask (the run's "events_handled" / "subtasks") at 128 nodes is at most
# BOUND (default 1.5) times that at 16 nodes. conv2d's subtasks read a fixed amount of data
# whatever the image size (matmul's panels grow with n), so a growing ratio means per-subtask
# work that scales with the node count: broadcasts, or stealing rounds that visit every node.
# Counts, not times: the machine's load does not move the result.
set -u
nw=$1 src=$2 bound=${3:-1.5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
val() { printf '%s' "$1" | tr -d '\n' | grep -oE "\"$2\":[[:space:]]*[^,}]*" | head -n1 | sed -E "s/\"$2\":[[:space:]]*//"; }
per_subtask() { # NODES SIDE_TILES: events_handled / subtasks
  "$src/platforms/gen-platform.sh" --backbone none --nodes "$1" --cores 2 --core-speed 1Gf \
    >"$tmp/p$1.xml" || return 1
  local out
  out=$("$nw" run --backend sim --platform "$tmp/p$1.xml" --app conv2d --n $(($2 * 64)) \
    --block 64 --data phantom --json) || return 1
  awk -v e="$(val "$out" events_handled)" -v s="$(val "$out" subtasks)" \
    'BEGIN { if (e == "" || s + 0 <= 0) exit 1; printf "%.3f", e / s }'
}
small=$(per_subtask 16 12) || { echo "the 16-node run failed"; exit 1; }   # 144 subtasks
large=$(per_subtask 128 34) || { echo "the 128-node run failed"; exit 1; } # 1156 subtasks
echo "events per subtask: $small on 16 nodes, $large on 128 nodes (bound: ${bound}x)"
awk -v a="$small" -v b="$large" -v f="$bound" 'BEGIN { ok = b <= a * f;
  print ok ? "events_per_subtask: 1 passed, 0 failed" : "events_per_subtask: 0 passed, 1 failed"
  exit !ok }'
