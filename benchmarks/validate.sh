#!/usr/bin/env bash
# validate.sh [BUILD_DIR] [OUT_DIR]: how far the simulator is from this machine.
#
# 1. Calibrates this machine twice with `narwhal calibrate` (README, "Calibration"): one rank
#    with every core (--bind-to none), and two ranks of one core each (Open MPI binds a rank
#    per core when it starts two). Each writes a platform and a performance model.
# 2. Runs each configuration of the validation set on the real backend, five rounds over the
#    whole set (A, B, C, ..., A, B, C, ...: the machine's noise spreads over every
#    configuration), keeping each one's best; and once in simulation (functional data, the
#    same options) on the platform and model of its layout. The validation runs use the
#    default seed; calibration ran other seeds: no validation run is a calibration run.
# 3. Prints config, real s (best), simulated s, relative error and the rounds' spread (this
#    machine's noise on that configuration), then the median and the largest absolute error
#    and the same of the spreads, and writes OUT_DIR/validation.csv and, with gnuplot,
#    validation.png.
#
# Where this machine has an NVIDIA GPU and the build has CUDA (`narwhal run --devices gpu`
# works), a third calibration (one rank, --devices cpu+gpu, kernels of the apps with CUDA
# kernels) and GPU configurations (GPUs alone and beside the CPUs) join the set.
#
# VALIDATE_ONLY=gpu keeps the GPU configurations alone (the CPU calibrations and configurations
# are skipped); VALIDATE_REUSE=1 keeps calibrations already in OUT_DIR instead of measuring again.
#
# Before each calibration run and each real run, memory is touched and freed (calibrate's
# --settle, each rank its share; benchmarks/settle.sh): on a VM that hands free memory back to
# its host, a page's first touch costs 1 to 8 us depending on what ran before, and conv2d 8192
# on two ranks first-touches about 2 GiB, so both sides are measured from the same state
# (docs/experiments/validation-feedback-loop.md).
#
# Takes about twelve minutes on 2 cores. Needs nothing else running: real times are wall times.
set -euo pipefail
build=${1:-build}
out=${2:-results}
nw=$build/narwhal
[ -x "$nw" ] || { echo "validate.sh: no $nw (build first)" >&2; exit 2; }
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi1=(mpirun -np 1 --bind-to none)
mpi2=(mpirun -np 2)
rounds=${VALIDATE_ROUNDS:-5}
. "$(dirname "$0")/settle.sh"
touch_mib=$(settle_mib 8192) # the set's largest matrices (conv2d 8192)

# The kernels the set runs (every subtask shape), calibrated in runs of their own.
workloads=(--workload matmul:4096:1024 --workload matmul:4096:512 --workload conv2d:8192:1024
  --workload conv2d:8192:2048)
only=${VALIDATE_ONLY:-all}
reuse() { [ "${VALIDATE_REUSE:-0}" = 1 ] && [ -s "$out/$1.xml" ] && [ -s "$out/$1.json" ]; }
if [ "$only" != gpu ]; then
  echo "== calibrating: 1 rank x all cores, then 2 ranks x 1 core"
  reuse calibrated-1rank || "${mpi1[@]}" "$nw" calibrate --platform-out "$out/calibrated-1rank.xml" \
    --perfmodel "$out/calibrated-1rank.json" "${workloads[@]}" --runs 5 --settle "$touch_mib" \
    >"$out/calibrate-1rank.log"
  reuse calibrated-2ranks || "${mpi2[@]}" "$nw" calibrate --platform-out "$out/calibrated-2ranks.xml" \
    --perfmodel "$out/calibrated-2ranks.json" "${workloads[@]}" --runs 5 \
    --settle $((touch_mib / 2)) >"$out/calibrate-2ranks.log"
fi

gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU' &&
  "${mpi1[@]}" "$nw" run --backend real --app matmul --n 512 --block 256 --devices gpu >/dev/null 2>&1; then
  gpu=1
  echo "== calibrating: 1 rank x all cores with its GPUs (--devices cpu+gpu)"
  reuse calibrated-gpu || "${mpi1[@]}" "$nw" calibrate --platform-out "$out/calibrated-gpu.xml" \
    --perfmodel "$out/calibrated-gpu.json" --devices cpu+gpu --workload matmul:8192:2048 \
    --workload matmul:8192:1024 --workload gemv:16384:1024 --workload cmeans:262144:8192 \
    --runs 5 --settle "$touch_mib" >"$out/calibrate-gpu.log"
fi

# name | layout (1: one rank, 2: two ranks, g: one rank with its GPUs) | run options
set_=(
  "matmul 4096/1024|1|--app matmul --n 4096 --block 1024"
  "matmul 4096/512|1|--app matmul --n 4096 --block 512"
  "conv2d 8192/1024|1|--app conv2d --n 8192 --block 1024"
  "conv2d 8192/2048|1|--app conv2d --n 8192 --block 2048"
  "matmul 4096/512 inputs on node 0|1|--app matmul --n 4096 --block 512 --placement node0"
  "matmul 4096/1024 multi-assign off|1|--app matmul --n 4096 --block 1024 --multi-assign off"
  "conv2d 8192/1024 pipeline off|1|--app conv2d --n 8192 --block 1024 --pipeline off"
  "matmul 4096/1024 np2|2|--app matmul --n 4096 --block 1024"
  "matmul 4096/512 np2|2|--app matmul --n 4096 --block 512"
  "conv2d 8192/1024 np2|2|--app conv2d --n 8192 --block 1024"
  "conv2d 8192/2048 np2|2|--app conv2d --n 8192 --block 2048"
  "matmul 4096/512 np2 rank 1 slowed 2x|2|--app matmul --n 4096 --block 512 --slow 1:2"
  "matmul 4096/512 np2 slowed, no multi-assign|2|--app matmul --n 4096 --block 512 --slow 1:2 --multi-assign off"
  "matmul 4096/1024 np2 inputs on node 0|2|--app matmul --n 4096 --block 1024 --placement node0"
  "conv2d 8192/1024 np2 pipeline off|2|--app conv2d --n 8192 --block 1024 --pipeline off"
)
[ "$only" = gpu ] && set_=()
if [ "$gpu" = 1 ]; then
  set_+=(
    "matmul 8192/2048 GPU|g|--app matmul --n 8192 --block 2048 --devices gpu"
    "matmul 8192/1024 GPU|g|--app matmul --n 8192 --block 1024 --devices gpu"
    "matmul 8192/2048 CPUs+GPU|g|--app matmul --n 8192 --block 2048 --devices cpu+gpu"
    "matmul 8192/1024 CPUs+GPU|g|--app matmul --n 8192 --block 1024 --devices cpu+gpu"
    "gemv 16384/1024 CPUs+GPU|g|--app gemv --n 16384 --block 1024 --devices cpu+gpu"
    "cmeans 262144/8192 GPU|g|--app cmeans --n 262144 --block 8192 --devices gpu"
    "cmeans 262144/8192 CPUs+GPU|g|--app cmeans --n 262144 --block 8192 --devices cpu+gpu"
  )
fi
makespan() { grep -oE '"makespan_s":[[:space:]]*[0-9.eE+-]+' | head -1 | grep -oE '[0-9.eE+-]+$'; }
declare -a times
for ((r = 1; r <= rounds; r++)); do
  echo "== real runs, round $r of $rounds"
  for i in "${!set_[@]}"; do
    IFS='|' read -r name layout opts <<<"${set_[$i]}"
    if [ "$layout" = 2 ]; then mpi=("${mpi2[@]}"); else mpi=("${mpi1[@]}"); fi
    settle "$build" "$touch_mib"
    # shellcheck disable=SC2086
    t=$("${mpi[@]}" "$nw" run --backend real $opts --json | makespan)
    times[i]="${times[i]:-} $t"
  done
done

# Per configuration: the best real time (what is compared), and the spread of the rounds,
# (slowest - fastest) / fastest: this machine's noise on that configuration, the floor
# below which an error says nothing.
csv=$out/validation.csv
echo "config,ranks,real_s,simulated_s,error,real_spread" >"$csv"
printf '%-44s %5s %10s %10s %8s %8s\n' config ranks "real s" "sim s" error spread
for i in "${!set_[@]}"; do
  IFS='|' read -r name layout opts <<<"${set_[$i]}"
  case $layout in 1) cal=$out/calibrated-1rank ;; 2) cal=$out/calibrated-2ranks ;; g) cal=$out/calibrated-gpu ;; esac
  # shellcheck disable=SC2086
  s=$("$nw" run --backend sim --platform "$cal.xml" --perfmodel "$cal.json" $opts --json | makespan)
  # shellcheck disable=SC2086 # the rounds times, one per word
  read -r best spread < <(printf '%s\n' ${times[i]} | sort -g |
    awk '{ v[NR] = $1 } END { printf "%s %.4f\n", v[1], (v[NR] - v[1]) / v[1] }')
  err=$(awk -v r="$best" -v s="$s" 'BEGIN { printf "%.4f", (s - r) / r }')
  # Percentages rounded once, by awk, as the summary rounds them.
  printf '%-44s %5s %10.4f %10.4f %7s%% %7s%%\n' "$name" "$layout" "$best" "$s" \
    "$(awk -v e="$err" 'BEGIN { printf "%.1f", 100 * e }')" \
    "$(awk -v e="$spread" 'BEGIN { printf "%.1f", 100 * e }')"
  echo "\"$name\",$layout,$best,$s,$err,$spread" >>"$csv"
done
summary() { # column of csv counted from the end (names may hold commas) -> "median, max" of |v|
  tail -n +2 "$csv" | awk -F, -v c="$1" '{ v = $(NF - c); e = v < 0 ? -v : v; print e }' | sort -g |
    awk '{ v[NR] = $1 } END {
      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "median %.1f%%, max %.1f%%", 100 * m, 100 * v[NR] }'
}
n=$(($(wc -l <"$csv") - 1))
echo "configurations: $n; |error| (simulated vs best real): $(summary 1)"
echo "noise (spread of the $rounds real rounds): $(summary 0)"
inside=$(tail -n +2 "$csv" | awk -F, '{ e = $(NF - 1); e = e < 0 ? -e : e; if (e < $NF) k++ } END { print k + 0 }')
echo "configurations whose |error| is below their own rounds' spread: $inside of $n"
echo "wrote $csv"
if command -v gnuplot >/dev/null; then
  gnuplot <<EOF
set terminal pngcairo size 900,600
set output "$out/validation.png"
set datafile separator ","
set title "Simulated vs real makespan on this machine (calibrated platform)"
set xlabel "real makespan (s, best of $rounds)"
set ylabel "simulated makespan (s)"
set key top left
f(x) = x
plot "$csv" using 3:4 skip 1 with points pt 7 ps 1.5 title "configurations", \
     f(x) with lines dt 2 title "exact", 1.05 * x with lines dt 3 title "+5%", 0.95 * x with lines dt 3 title "-5%"
EOF
  echo "wrote $out/validation.png"
fi
