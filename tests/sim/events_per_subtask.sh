#!/usr/bin/env bash
# events_per_subtask.sh NARWHAL SOURCE_DIR [BOUND]: the simulator's work per simulated subtask
# does not grow with the cluster. Two workloads, each with the same subtasks
# per node on 16 and on 128 small nodes (platforms generated with gen-platform.sh --backbone
# none); each passes when the events the nodes handled per subtask (the run's
# "events_handled" / "subtasks") at 128 nodes is at most BOUND (default 1.5) times that at 16:
#  - conv2d on CPUs, tiles spread at random: its subtasks read a fixed amount of data whatever
#    the image size (matmul's panels grow with n), so growth means per-subtask work that scales
#    with the node count, such as broadcasts;
#  - matmul on a CPU and a GPU per node, its inputs on node 0: the GPUs run dry first and steal,
#    so growth means stealing rounds that visit every node (the original Unicorn's rule,
#    --steal-probes 0, gives 5.8x here);
#  - weak-scaled matmul with A by block rows and B by block columns (--placement rows-columns):
#    its panels grow with n, but each comes from one owner, so its fetches per subtask do not
#    (with --placement spread, EPS_MATMUL_PLACEMENT=spread, they come from about as many owners
#    as blocks: 2.5x here, 37.4 against 91.7).
# Counts, not times: the machine's load does not move the result.
set -u
nw=$1 src=$2 bound=${3:-1.5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
val() { printf '%s' "$1" | tr -d '\n' | grep -oE "\"$2\":[[:space:]]*[^,}]*" | head -n1 | sed -E "s/\"$2\":[[:space:]]*//"; }
per_subtask() { # NODES SIDE_TILES NODE_OPTIONS RUN_OPTIONS: events_handled / subtasks
  # shellcheck disable=SC2086 # option lists
  "$src/platforms/gen-platform.sh" --backbone none --nodes "$1" $3 >"$tmp/p$1.xml" || return 1
  local out
  # shellcheck disable=SC2086
  out=$("$nw" run --backend sim --platform "$tmp/p$1.xml" --n $(($2 * 64)) --block 64 \
    --data phantom --json $4) || return 1
  awk -v e="$(val "$out" events_handled)" -v s="$(val "$out" subtasks)" \
    'BEGIN { if (e == "" || s + 0 <= 0) exit 1; printf "%.3f", e / s }'
}
pass=0 fail=0
check() { # NAME NODE_OPTIONS RUN_OPTIONS
  local small large
  small=$(per_subtask 16 12 "$2" "$3") || { echo "$1: the 16-node run failed"; fail=$((fail + 1)); return; }   # 144 subtasks
  large=$(per_subtask 128 34 "$2" "$3") || { echo "$1: the 128-node run failed"; fail=$((fail + 1)); return; } # 1156 subtasks
  echo "$1: events per subtask: $small on 16 nodes, $large on 128 nodes (bound: ${bound}x)"
  if awk -v a="$small" -v b="$large" -v f="$bound" 'BEGIN { exit !(b <= a * f) }'; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
  fi
}
check conv2d "--cores 2 --core-speed 1Gf" "--app conv2d"
check matmul-stealing "--cores 2 --core-speed 1Gf --gpus 1 --gpu-speed 20Gf --gpu-mem 1000000000" \
  "--app matmul --devices cpu+gpu --placement node0"
check matmul-rows-columns "--cores 2 --core-speed 1Gf" \
  "--app matmul --cpu-devices 1 --placement ${EPS_MATMUL_PLACEMENT:-rows-columns}"
echo "events_per_subtask: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
