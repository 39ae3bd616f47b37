#!/usr/bin/env bash
# chain-latency.sh [BUILD_DIR]: a task graph's latency per task on this machine's hardware: a
# chain of N (default 5000) dependent one-subtask tasks with an empty kernel, each reading the
# previous one's result (`narwhal run --backend real --app taskbench --n N --block 1
# --app-param iterations=0`, one rank, a CPU device per core), beside StarPU 1.3 running the
# same chain (benchmarks/taskbench_starpu stencil_1d at width 1: one task per step, each
# depending on the one before, a CPU worker per core). Microseconds per task are the run's
# makespan (first submission to last completion, as each measures it) over N. Runs are
# interleaved (narwhal, starpu, baseline, narwhal, ...) REPS times (default 7), the best kept,
# because this machine is shared and noisy.
# Environment: N, REPS, SCHED (Narwhal's policy, default its default), BASELINE (a build
# directory of another commit, configured alike (baseline_check.sh): measured too, interleaved,
# as "base").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${N:-5000}
reps=${REPS:-7}
sched=${SCHED:-}
baseline=${BASELINE:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
[ -x "$build/narwhal" ] || { echo "chain-latency.sh: $build/narwhal is not built" >&2; exit 2; }
. benchmarks/baseline_check.sh
[ -z "$baseline" ] || check_baseline chain-latency.sh "$build" "$baseline"
systems="narwhal"
sp=$build/benchmarks/taskbench_starpu
if [ -x "$sp" ]; then systems="$systems starpu"; else echo "chain-latency.sh: no $sp (StarPU not found at configure time): StarPU skipped"; fi
[ -n "$baseline" ] && systems="$systems base"

# seconds SYSTEM: one run's makespan.
seconds() {
  local args=(run --backend real --app taskbench --n "$n" --block 1
    --app-param iterations=0 --no-verify --json)
  [ -n "$sched" ] && args+=(--sched "$sched")
  case $1 in
  narwhal) mpirun -np 1 --bind-to none "$build/narwhal" "${args[@]}" 2>/dev/null |
    sed -n 's/.*"makespan_s":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' | head -n1 ;;
  base) mpirun -np 1 --bind-to none "$baseline/narwhal" "${args[@]}" 2>/dev/null |
    sed -n 's/.*"makespan_s":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' | head -n1 ;;
  starpu) "$sp" stencil_1d 1 "$n" 0 2>/dev/null | sed -n 's/.*wall_s=\([0-9.eE+-]*\).*/\1/p' ;;
  esac
}

declare -A best
for _ in $(seq "$reps"); do
  for s in $systems; do
    w=$(seconds "$s")
    [ -n "$w" ] || { echo "chain-latency.sh: a $s run failed" >&2; exit 1; }
    if [ -z "${best[$s]:-}" ] || awk -v a="$w" -v b="${best[$s]}" 'BEGIN { exit !(a < b) }'; then
      best[$s]=$w
    fi
  done
done
us() { awk -v s="$1" -v n="$n" 'BEGIN { printf "%.2f", s / n * 1e6 }'; }
echo "chain of $n empty one-subtask tasks, best of $reps, policy ${sched:-default}; $(nproc) cores"
for s in $systems; do printf '%-8s %8s us per task\n' "$s" "$(us "${best[$s]}")"; done
[ -z "${best[starpu]:-}" ] ||
  echo "narwhal / starpu: $(awk -v a="${best[narwhal]}" -v b="${best[starpu]}" 'BEGIN { printf "%.2f", a / b }')"
[ -z "${best[base]:-}" ] ||
  echo "narwhal / base: $(awk -v a="${best[narwhal]}" -v b="${best[base]}" 'BEGIN { printf "%.2f", a / b }')"
echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1); $(date -u '+%Y-%m-%d %H:%M UTC')"
