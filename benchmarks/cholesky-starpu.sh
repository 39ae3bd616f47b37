#!/usr/bin/env bash
# cholesky-starpu.sh [BUILD_DIR]: a tiled Cholesky on this machine's CPUs, real StarPU 1.3
# (benchmarks/starpu_cholesky.c) against Narwhal's cholesky app on the real backend, both under
# their dmda scheduler, N x N floats in BLOCK x BLOCK tiles (env N, BLOCK; default 4096, 512),
# one process, the same number of CPU workers (Narwhal's: one per core). Run interleaved (A B
# A B ...) because this machine is noisy, each figure the best of REPS (default 3):
#   starpu-dmda   STARPU_SCHED=dmda, its history models calibrated first (STARPU_CALIBRATE=1
#                 on an untimed process in this run's temporary STARPU_HOME); the timed
#                 factorisation is the process's first, as a Narwhal run is one factorisation
#                 in a fresh process. The same after an untimed factorisation in the process
#                 (StarPU's steady state) is printed too, outside the ratio.
#   narwhal-dmda  mpirun -np 1 narwhal run --backend real --app cholesky --sched dmda, its
#                 model calibrated first by runs with --calibrate on, as many factorisations
#                 as StarPU's calibration (these also verify the result; the timed runs do
#                 not).
# Both figures are GFlop/s of N^3/3 flops (the driver's, and the `gflops` key of Narwhal's
# --json). Then the ratio narwhal-dmda / starpu-dmda, the machine and the date.
# ONLY=starpu or ONLY=narwhal runs one side alone. Until this build's narwhal has a cholesky
# app, the Narwhal side says so and the script exits 1 (ONLY=starpu still runs).
# Before each timed process, benchmarks/touch_pages touches and frees more memory than it will
# use, so that each first-touches recently freed pages (touch_pages.c says why).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-3}
n=${N:-4096}
block=${BLOCK:-512}
only=${ONLY:-}
nw=$build/narwhal
sp=$build/benchmarks/starpu_cholesky
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none

case "$only" in
'' | starpu | narwhal) ;;
*)
  echo "cholesky-starpu.sh: ONLY '$only': must be starpu, narwhal or unset (both)" >&2
  exit 2
  ;;
esac
run_starpu=1 run_narwhal=1
[ "$only" = narwhal ] && run_starpu=0
[ "$only" = starpu ] && run_narwhal=0

if [ "$run_starpu" = 1 ] && [ ! -x "$sp" ]; then
  echo "cholesky-starpu.sh: $sp is missing (no starpu-1.3 at configure time? apt-get install libstarpu-dev)" >&2
  exit 1
fi
if [ "$run_narwhal" = 1 ]; then
  if [ ! -x "$nw" ]; then
    echo "cholesky-starpu.sh: $nw is missing (build first: scripts/bootstrap.sh)" >&2
    exit 1
  fi
  # The apps are listed in `run --help` ("application to run (matmul, ...)"). The help is read
  # whole first: grep -q leaving early would fail the pipe under pipefail.
  help=$("$nw" run --help 2>&1 || true)
  apps=$(grep -E -- 'application to run \(' <<<"$help" || true)
  if ! grep -qw cholesky <<<"$apps"; then
    echo "cholesky-starpu.sh: $nw has no cholesky app yet: no Narwhal side" \
      "(ONLY=starpu: StarPU's alone)" >&2
    exit 1
  fi
fi

# StarPU writes its bus and codelet models under $STARPU_HOME/.starpu: a directory of this run,
# so nothing lands in ~/.starpu and no model of an earlier run (other sizes, other load) is used.
# Narwhal's model file goes there too.
STARPU_HOME=$(mktemp -d)
export STARPU_HOME
trap 'rm -rf "$STARPU_HOME"' EXIT
export STARPU_NOPENCL=0 STARPU_NCUDA=0

. benchmarks/settle.sh
touch_mib=$(settle_mib "$n")

# The largest of the lines read, to two decimals ("n/a ..." lines pass unchanged).
bestmax() { sort -g | tail -n1 | awk '/^[0-9]/ { printf "%.2f\n", $1; next } { print }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
# A figure with its unit, an "n/a ..." as it is.
gflops() { if [[ $1 == n/a* ]]; then echo "$1"; else echo "$1 GFlop/s"; fi; }

# Narwhal's real backend (core/node/run.c, nw_run_cpu_layout) runs a CPU device per core of the
# rank when it drives no GPU, each device's BLAS on one thread; StarPU gets as many CPU workers,
# and starpu_cholesky pins OpenBLAS to one thread too.
cores=$(nproc)

# The runtimes' own words for a kernel without enough history when their dmda predicts it:
# StarPU's forces its calibration, Narwhal's says it calibrates. StarPU also flushes a model
# whose new samples stray more than 50% from it (STARPU_HISTORY_MAX_ERROR; load from elsewhere
# on this VM does that), after which its next predictions say so. A timed run that says so is
# counted (and printed at the end): its scheduler decided some tasks without the model.
starpu_uncalibrated='not calibrated enough'
narwhal_uncalibrated='has no performance model'
log=$STARPU_HOME/stderr

# One StarPU run: prints its GFlop/s; fails the script on a wrong result (the driver checks
# every factorisation). Its residual goes to a file: the caller runs it in a subshell.
# WARM 0: the timed factorisation is the process's first; 1: after an untimed one.
starpu_once() { # WARM
  local out rc=0
  out=$(STARPU_SCHED=dmda STARPU_NCPU=$cores "$sp" "$n" "$block" 1 "$1" 2>"$log") || rc=$?
  cat "$log" >&2
  if [ "$rc" -ne 0 ]; then
    echo "cholesky-starpu.sh: starpu_cholesky failed (exit $rc)" >&2
    exit 1
  fi
  ! grep -qE "$starpu_uncalibrated" "$log" || echo "starpu-$1" >>"$STARPU_HOME/uncalibrated"
  local workers=${out#*cpu_workers=}
  workers=${workers%% *}
  # Debian's StarPU caps its CPU workers (STARPU_MAXCPUS): say so if it ran fewer.
  [ "$workers" = "$cores" ] ||
    echo "cholesky-starpu.sh: StarPU ran $workers CPU workers, not $cores" >&2
  echo "$out" | sed -n 's/^gflops=\([0-9.eE+-]*\).*/\1/p'
  echo "$out" | sed -n 's/.*residual=\([0-9.eE+-]*\).*/\1/p' >>"$STARPU_HOME/residuals"
}

# One Narwhal run (one MPI rank with every core: --bind-to none, or Open MPI pins it to one
# core): prints its GFlop/s. Narwhal's dmda predicts from the model calibrated first.
narwhal_model=$STARPU_HOME/narwhal-model.json
narwhal_once() { # [EXTRA OPTIONS]
  mpirun -np 1 --bind-to none "$nw" run --backend real --app cholesky --n "$n" --block "$block" \
    --devices cpu --sched dmda --perfmodel "$narwhal_model" "$@" --json 2>"$log" |
    sed -n 's/.*"gflops":[[:space:]]*\([0-9.eE+-]*\).*/\1/p'
  cat "$log" >&2
}

echo "== cholesky n=$n block=$block, StarPU $(pkg-config --modversion starpu-1.3 2>/dev/null ||
  echo 1.3) dmda vs Narwhal dmda (1 rank), $cores CPU workers, best of $reps"

# dmda needs every kernel's history before its decisions mean anything: both StarPU and
# Narwhal (NW_PERFMODEL_MIN_SAMPLES) want 10 samples per model, and one factorisation has only
# N/BLOCK POTRFs, the fewest of the four kernels: below 10 tiles per side one calibrating
# factorisation is not enough. Each side calibrates in passes until one finds every model
# calibrated from its start (no message above), at most 5: StarPU's a process of calib_runs
# factorisations (the untimed one and REPS), the first with STARPU_CALIBRATE=1 (which records
# every task, and silences the message), the next without (StarPU then records only what is
# still uncalibrated, and says so); Narwhal's one run with --calibrate on, its model file
# accumulating. A side still uncalibrated after that says so, and its timed runs are counted.
tiles=$((n / block))
calib_runs=$(((10 + tiles - 1) / tiles + 1))
starpu_passes=n/a narwhal_passes=n/a
if [ "$run_starpu" = 1 ]; then
  calibrated=0
  for pass in 1 2 3 4 5; do
    rc=0
    STARPU_CALIBRATE=$((pass == 1)) STARPU_SCHED=dmda STARPU_NCPU=$cores \
      "$sp" "$n" "$block" $((calib_runs - 1)) 1 >/dev/null 2>"$log" || rc=$?
    if [ "$rc" -ne 0 ]; then
      cat "$log" >&2
      echo "cholesky-starpu.sh: StarPU's calibration run failed (exit $rc)" >&2
      exit 1
    fi
    starpu_passes=$pass
    if [ "$pass" -gt 1 ] && ! grep -qE "$starpu_uncalibrated" "$log"; then
      calibrated=1
      break
    fi
  done
  [ "$calibrated" = 1 ] ||
    echo "cholesky-starpu.sh: StarPU's models still uncalibrated after 5 passes" >&2
fi
if [ "$run_narwhal" = 1 ]; then
  rm -f "$narwhal_model"
  calibrated=0
  for pass in $(seq $((calib_runs + 3))); do
    narwhal_passes=$pass
    rc=0
    mpirun -np 1 --bind-to none "$nw" run --backend real --app cholesky --n "$n" \
      --block "$block" --devices cpu --sched dmda --perfmodel "$narwhal_model" --calibrate on \
      --json >/dev/null 2>"$log" || rc=$?
    if [ "$rc" -ne 0 ]; then
      cat "$log" >&2
      echo "cholesky-starpu.sh: Narwhal's calibration run failed (exit $rc)" >&2
      exit 1
    fi
    if ! grep -q "$narwhal_uncalibrated" "$log"; then
      calibrated=1
      break
    fi
  done
  [ "$calibrated" = 1 ] ||
    echo "cholesky-starpu.sh: Narwhal's model still uncalibrated after $((calib_runs + 3)) runs" >&2
fi

sd=() sw=() nd=()
for _ in $(seq "$reps"); do
  if [ "$run_starpu" = 1 ]; then
    settle "$build" "$touch_mib"
    v=$(starpu_once 0)
    sd+=("$v")
    settle "$build" "$touch_mib"
    v=$(starpu_once 1)
    sw+=("$v")
  fi
  if [ "$run_narwhal" = 1 ]; then
    settle "$build" "$touch_mib"
    v=$(narwhal_once --no-verify)
    if [ -z "$v" ]; then
      echo "cholesky-starpu.sh: narwhal printed no gflops" >&2
      exit 1
    fi
    ! grep -q "$narwhal_uncalibrated" "$log" || echo narwhal >>"$STARPU_HOME/uncalibrated"
    nd+=("$v")
  fi
done
[ "${#sd[@]}" -gt 0 ] || sd=("n/a (ONLY=$only)") sw=("n/a (ONLY=$only)")
[ "${#nd[@]}" -gt 0 ] || nd=("n/a (ONLY=$only)")
d=$(printf '%s\n' "${sd[@]}" | bestmax)
w=$(printf '%s\n' "${sw[@]}" | bestmax)
m=$(printf '%s\n' "${nd[@]}" | bestmax)
res="n/a"
[ ! -s "$STARPU_HOME/residuals" ] || res=$(sort -g "$STARPU_HOME/residuals" | tail -n1)
printf 'starpu-dmda:  %s (largest residual ||A - LL^T||_F/||A||_F: %s)\n' "$(gflops "$d")" "$res"
printf 'narwhal-dmda: %s\n' "$(gflops "$m")"
printf 'starpu-dmda after an untimed factorisation (steady state, not in the ratio): %s\n' \
  "$(gflops "$w")"
v="n/a"
[[ $m == n/a* || $d == n/a* ]] || v=$(ratio "$m" "$d")
echo "narwhal-dmda/starpu-dmda: $v"
count() { if [ -f "$STARPU_HOME/uncalibrated" ]; then grep -cx "$1" "$_" || true; else echo 0; fi; }
printf 'timed runs whose scheduler lacked a model (of %s each): starpu-dmda %s, steady state %s, ' \
  "$reps" "$(count starpu-0)" "$(count starpu-1)"
printf 'narwhal-dmda %s; calibration passes: starpu %s (%s factorisations each), narwhal %s\n' \
  "$(count narwhal)" "$starpu_passes" "$calib_runs" "$narwhal_passes"
model=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n1)
echo "machine: ${model:-unknown CPU}, $cores cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
