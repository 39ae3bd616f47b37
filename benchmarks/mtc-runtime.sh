#!/usr/bin/env bash
# mtc-runtime.sh [BUILD_DIR]: tiny tasks per second through the runtime on this machine's GPU
# (one MPI rank, --devices gpu): the adder's subtasks in many-task mode with bundles of B
# (GeMTC's Fig. 9, through Narwhal rather than the bare engine of bench_mtc), beside one
# launch per subtask on 32 lanes, measured in the same run, interleaved, best of REPS
# (default 3). tasks/s = subtasks / makespan. SUBTASKS (default 20000) adder subtasks of
# BLOCK (default 32) elements: a warp's work each. Needs a CUDA build and a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-3}
subtasks=${SUBTASKS:-20000}
block=${BLOCK:-32}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
configs=("--gpu-streams 32" "--gpu-mode many-task --gpu-streams 256 --mtc-bundle 1"
  "--gpu-mode many-task --gpu-streams 256 --mtc-bundle 10"
  "--gpu-mode many-task --gpu-streams 256 --mtc-bundle 100")
declare -A best
for _ in $(seq "$reps"); do
  for c in "${configs[@]}"; do
    # shellcheck disable=SC2086 # the configuration's options are words
    rate=$(mpirun -np 1 --bind-to none "$build/narwhal-real" run --app adder --backend real \
      --devices gpu --n $((subtasks * block)) --block "$block" --no-verify $c --json |
      awk -v n="$subtasks" '/"makespan_s"/ { gsub(/[^0-9.eE+-]/, "", $2); print n / $2 }')
    if [ -z "${best[$c]:-}" ] || awk -v a="$rate" -v b="${best[$c]}" 'BEGIN{exit !(a > b)}'; then
      best[$c]=$rate
    fi
  done
done
base=${best[${configs[0]}]}
for c in "${configs[@]}"; do
  printf '%-58s tasks_per_s=%.0f ratio_vs_launch=%.2f\n' "$c" "${best[$c]}" \
    "$(awk -v a="${best[$c]}" -v b="$base" 'BEGIN{print a/b}')"
done
