#!/usr/bin/env bash
# taskbench.sh [BUILD_DIR]: Task Bench's METG(50%) and empty-task overhead (Slaughter et al.,
# SC'20) of Narwhal beside plain MPI and StarPU 1.3 on this machine, for the
# stencil_1d graph of apps/taskbench (the same graph and kernel in all of them).
#
# Systems (all use every core of the machine):
#   narwhal-1rank  mpirun -np 1 --bind-to none narwhal run --backend real (a CPU device per core)
#   narwhal-2rank  mpirun -np 2 ... --cpu-devices 1 (one rank per core, 2 cores here)
#   mpi            benchmarks/taskbench_mpi, one rank per core (mpirun's default binding: with
#                  --bind-to none two polling ranks can share a core on a loaded machine, and
#                  its empty steps then take milliseconds), boundary cells exchanged
#   starpu         benchmarks/taskbench_starpu, one process, a CPU worker per core
#   narwhal-sim    narwhal run --backend sim on platforms/small.xml, 2 nodes of one CPU device
#                  (phantom data; deterministic, so one run per point; its peak is the
#                  platform's 1 GFlop/s core)
# Definitions: width = cores x WIDTH_FACTOR points, STEPS timesteps; a run's task granularity is
# wall x cores / tasks, its efficiency the kernel's flops (2 x 16 lanes x iterations a task) per
# second over the peak: the kernel alone on every core at once (benchmarks/taskbench_peak), the
# best of REPS measurements per round, in this run. Empty-task overhead: the granularity at iterations = 0. METG:
# the granularity where efficiency crosses 50%, interpolated (log granularity, linear
# efficiency) between two consecutive powers of 2 of iterations, one below 50% and one at or
# above it.
# The sweep starts near the crossing instead of at Task Bench's largest size, so that runtimes
# with milliseconds of overhead per step are measured in minutes: efficiency is 50% where a
# task's compute time equals the empty-task overhead, so it starts at the power of 2 just below
# overhead / (time of one iteration at peak), then doubles (below 50%) or halves (at or above)
# until the crossing is bracketed, or until a run takes more than WALL_CAP seconds (default 60).
# Width factor 2 by default: two points per core, so that in the MPI version each rank has an
# interior edge and a boundary (as in any larger run) and Narwhal's scheduler has more than one
# subtask per device to place, while each step stays short enough for 1000 steps.
# Runs are interleaved (every system's point once, then again, REPS times; the best kept),
# because this machine is shared and noisy.
# Environment: REPS (default 3), STEPS (default 1000), WIDTH_FACTOR (default 2), PATTERN
# (default stencil_1d), WALL_CAP (default 60), SYSTEMS (default "narwhal-1rank narwhal-2rank mpi starpu narwhal-sim"),
# BASELINE (a build directory of another commit, configured as BUILD_DIR is (baseline_check.sh): its narwhal-1rank and narwhal-2rank are
# measured too, as base-1rank and base-2rank, interleaved with the rest: a before/after in one run).
# SCHED (a policy, default the runtime's default, unicorn): Narwhal's runs (and the baseline's)
# use --sched SCHED, so that a before/after can be measured per policy.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-3}
steps=${STEPS:-1000}
factor=${WIDTH_FACTOR:-2}
pattern=${PATTERN:-stencil_1d}
wall_cap=${WALL_CAP:-60}
systems=${SYSTEMS:-narwhal-1rank narwhal-2rank mpi starpu narwhal-sim}
baseline=${BASELINE:-}
sched=${SCHED:-}
if [ -n "$baseline" ]; then
  . benchmarks/baseline_check.sh
  check_baseline taskbench "$build" "$baseline"
  [[ " $systems " == *" narwhal-1rank "* ]] && systems="$systems base-1rank"
  [[ " $systems " == *" narwhal-2rank "* ]] && systems="$systems base-2rank"
fi
cores=$(nproc)
width=$((cores * factor))
tasks=$((width * steps))
nw=$build/narwhal
bench=$build/benchmarks
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
if [ ! -x "$bench/taskbench_starpu" ]; then
  echo "taskbench: no $bench/taskbench_starpu (StarPU not found at configure time); skipped"
  systems=${systems//starpu/}
fi

# json_field NAME: the number of "NAME" in the JSON object on stdin.
json_field() { sed -n "s/.*\"$1\":[[:space:]]*\\([0-9.eE+-]*\\).*/\\1/p" | head -n1; }
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }

# wall ITERATIONS SYSTEM: seconds of one run (the runtime's own measure of the graph).
wall() {
  local it=$1 sys=$2
  local tb=(--app taskbench --n "$steps" --block "$width"
    --app-param "pattern=$pattern" --app-param "iterations=$it" --no-verify --json)
  local bin=$nw
  [ -n "$sched" ] && tb+=(--sched "$sched")
  case $sys in base-*) bin=$baseline/narwhal ;; esac
  case $sys in
  narwhal-1rank | base-1rank) mpirun -np 1 --bind-to none "$bin" run --backend real "${tb[@]}" |
    json_field makespan_s ;;
  narwhal-2rank | base-2rank) mpirun -np 2 --oversubscribe --bind-to none "$bin" run --backend real \
    --cpu-devices 1 "${tb[@]}" | json_field makespan_s ;;
  narwhal-sim) "$nw" run --backend sim --platform platforms/small.xml --nodes 2 \
    --cpu-devices 1 --data phantom "${tb[@]}" | json_field makespan_s ;;
  mpi) mpirun -np "$cores" "$bench/taskbench_mpi" "$pattern" \
    "$width" "$steps" "$it" | sed -n 's/.*wall_s=\([0-9.eE+-]*\).*/\1/p' ;;
  starpu) "$bench/taskbench_starpu" "$pattern" "$width" "$steps" "$it" 2>/dev/null |
    sed -n 's/.*wall_s=\([0-9.eE+-]*\).*/\1/p' ;;
  esac
}

# The kernel's peak per core (flop/s): the best of every measurement so far. It is measured
# again in every round beside the systems' runs, because a load elsewhere on a shared machine
# that lowers one measurement of the peak would raise every efficiency computed from it.
peak=0
measure_peak() {
  local f
  f=$("$bench/taskbench_peak" "$cores" $((1 << 24)) | sed -n 's/flops_per_core=\([0-9.eE+-]*\).*/\1/p')
  peak=$(calc "($f > $peak) ? $f : $peak")
}
for _ in $(seq "$reps"); do measure_peak; done
# The simulated cluster's peak and cores: small.xml's 1 GFlop/s cores, 2 nodes of 1 device.
peak_of() { if [ "$1" = narwhal-sim ]; then echo 1e9; else echo "$peak"; fi; }
cores_of() { if [ "$1" = narwhal-sim ]; then echo 2; else echo "$cores"; fi; }
echo "taskbench: pattern $pattern, policy ${sched:-unicorn (default)}, width $width ($cores cores x $factor), $steps steps" \
  "($tasks tasks), best of $reps; kernel peak so far $(calc "$peak / 1e9") GFlop/s per core"

# measure ITERATIONS SYSTEMS...: every system's wall at its own iteration count (ITERATIONS is
# "sys=it sys=it ..."), interleaved, best of REPS; sets best[sys].
declare -A best iters lo_it hi_it lo_w hi_w overhead
measure() {
  local s w r n
  for s in "$@"; do best[$s]=; done
  for r in $(seq "$reps"); do
    measure_peak
    for s in "$@"; do
      n=$reps
      [ "$s" = narwhal-sim ] && n=1
      [ "$r" -le "$n" ] || continue
      w=$(wall "${iters[$s]}" "$s")
      [ -n "$w" ] || { echo "taskbench: $s at ${iters[$s]} iterations failed" >&2; exit 1; }
      if [ -z "${best[$s]}" ] || awk "BEGIN { exit !($w < ${best[$s]}) }"; then best[$s]=$w; fi
    done
  done
}
# gran WALL SYSTEM: seconds of core time per task; eff WALL ITERATIONS SYSTEM: of the peak.
gran() { calc "$1 * $(cores_of "$2") / $tasks"; }
eff() { calc "$tasks * 32 * $2 / ($1 * $(cores_of "$3") * $(peak_of "$3"))"; }

# Empty tasks: the overhead, and each sweep's start.
for s in $systems; do iters[$s]=0; done
measure $systems
for s in $systems; do
  overhead[$s]=$(gran "${best[$s]}" "$s")
  guess=$(calc "${overhead[$s]} * $(peak_of "$s") / 32")
  it=1
  while [ $((it * 2)) -le 1073741824 ] && awk "BEGIN { exit !($((it * 2)) <= $guess) }"; do
    it=$((it * 2))
  done
  iters[$s]=$it
  printf '  %-14s iterations 0: wall %ss, empty-task overhead %.3g us\n' "$s" "${best[$s]}" \
    "$(calc "${overhead[$s]} * 1e6")"
done

# The bracket search, every unfinished system one point per round. A higher peak found later
# lowers every efficiency: a point at or above 50% that falls below it becomes the low end and
# its system searches upward again, so each bracket holds under the final peak.
is_active() { [[ " $active " == *" $1 "* ]]; }
active=$systems
while :; do
  for s in $systems; do
    hi=${hi_it[$s]:-}
    if [ -n "$hi" ] && awk "BEGIN { exit !($(eff "${hi_w[$s]}" "$hi" "$s") < 0.5) }"; then
      lo_it[$s]=$hi lo_w[$s]=${hi_w[$s]}
      unset "hi_it[$s]"
      iters[$s]=$((hi * 2))
      is_active "$s" || active="$active $s"
    fi
  done
  [ -n "${active// /}" ] || break
  measure $active
  next=
  for s in $active; do
    it=${iters[$s]} g=$(gran "${best[$s]}" "$s") e=$(eff "${best[$s]}" "${iters[$s]}" "$s")
    printf '  %-14s iterations %d: wall %ss, granularity %.3g us, efficiency %.3f\n' "$s" "$it" \
      "${best[$s]}" "$(calc "$g * 1e6")" "$e"
    if awk "BEGIN { exit !($e >= 0.5) }"; then
      hi_it[$s]=$it hi_w[$s]=${best[$s]}
      if [ -n "${lo_it[$s]:-}" ] || [ "$it" -le 1 ]; then continue; fi
      iters[$s]=$((it / 2))
    else
      lo_it[$s]=$it lo_w[$s]=${best[$s]}
      if [ -n "${hi_it[$s]:-}" ] || [ "$it" -ge 1073741824 ] ||
        awk "BEGIN { exit !(${best[$s]} > $wall_cap) }"; then continue; fi
      iters[$s]=$((it * 2))
    fi
    next="$next $s"
  done
  active=$next
done

# The table, from the final peak (the best of all its measurements).
echo
echo "kernel peak $(calc "$peak / 1e9") GFlop/s per core (best of all rounds)"
printf '%-14s %18s %14s   %s\n' system empty_overhead_us METG50_us "bracket (iterations: efficiency)"
for s in $systems; do
  lo=${lo_it[$s]:-} hi=${hi_it[$s]:-}
  [ -z "$lo" ] || { lg=$(gran "${lo_w[$s]}" "$s") le=$(eff "${lo_w[$s]}" "$lo" "$s"); }
  [ -z "$hi" ] || { hg=$(gran "${hi_w[$s]}" "$s") he=$(eff "${hi_w[$s]}" "$hi" "$s"); }
  if [ -n "$lo" ] && [ -n "$hi" ]; then
    metg=$(calc "exp(log($lg) + (0.5 - $le) / ($he - $le) * (log($hg) - log($lg))) * 1e6")
    br="$lo: $le, $hi: $he"
  elif [ -n "$hi" ]; then
    metg="<=$(calc "$hg * 1e6")" br="$hi: $he (50% already at 1 iteration)"
  else
    metg=">$(calc "$lg * 1e6")" br="$lo: $le (below 50% at the largest run)"
  fi
  printf '%-14s %18.4g %14s   %s\n' "$s" "$(calc "${overhead[$s]} * 1e6")" "$metg" "$br"
done
