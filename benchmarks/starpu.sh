#!/usr/bin/env bash
# starpu.sh [BUILD_DIR]: the comparison of the Unicorn paper's Fig. 22 (left, middle) on this
# machine: real StarPU 1.3 (benchmarks/starpu_sgemm.c) against Narwhal's real backend on the
# same sgemm, N x N floats in BLOCK x BLOCK blocks of C (env N, BLOCK; default 4096, 1024), one
# process, the same number of CPU workers. Four configurations, run interleaved (A B C D A B C
# D ...) because this machine is noisy, each figure the best of REPS (default 3):
#   starpu-eager, starpu-dmda (its history model calibrated first, in a temporary STARPU_HOME),
#   narwhal-unicorn and narwhal-dmda (`--sched`, its model calibrated first with --calibrate
#   on; n/a where this build has no such option). Every figure times the first multiplication
#   of a fresh process (a Narwhal run is one); StarPU's dmda after an untimed multiplication
#   in the same process (its steady state) is printed too, outside the ratios.
# Before each timed process, benchmarks/touch_pages touches and frees 1.5x the memory of the
# largest contender, so that none finds fewer recently freed pages than another (on the
# development VM a page the host took back costs several microseconds to touch first; see
# touch_pages.c). Then the ratios of Narwhal to StarPU. On the CPUs a fifth configuration runs
# interleaved with them: the same block calls with no runtime (bench_blocks), the ceiling of
# both, and each runtime's ratio to it. Where a GPU and a CUDA build are present, the same
# again with one GPU: StarPU with STARPU_NCUDA=1 (needs a StarPU built with CUDA, which
# Debian's is not: then n/a), Narwhal with --devices cpu+gpu.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-3}
n=${N:-4096}
block=${BLOCK:-1024}
nw=$build/narwhal
sp=$build/benchmarks/starpu_sgemm
blocks=$build/benchmarks/bench_blocks
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none

if [ ! -x "$sp" ]; then
  echo "starpu.sh: $sp is missing (no starpu-1.3 at configure time? apt-get install libstarpu-dev)" >&2
  exit 1
fi
if [ ! -x "$nw" ]; then
  echo "starpu.sh: $nw is missing (build first: scripts/bootstrap.sh)" >&2
  exit 1
fi

# StarPU writes its bus and codelet models under $STARPU_HOME/.starpu: a directory of this run,
# so nothing lands in ~/.starpu and no model of an earlier run (other sizes, other load) is used.
STARPU_HOME=$(mktemp -d)
export STARPU_HOME
trap 'rm -rf "$STARPU_HOME"' EXIT
export STARPU_NOPENCL=0

# Narwhal's --sched is newer than this script: without it, unicorn is the only scheduler. The
# help is read whole first: grep -q leaving early would fail the pipe under pipefail.
have_sched=0
help=$("$nw" run --help 2>&1 || true)
grep -qE -- '--sched( |$)' <<<"$help" && have_sched=1

. benchmarks/settle.sh
touch_mib=$(settle_mib "$n")

# The largest of the lines read, to two decimals ("n/a ..." lines pass unchanged).
bestmax() { sort -g | tail -n1 | awk '/^[0-9]/ { printf "%.2f\n", $1; next } { print }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# Narwhal's real backend (core/run.c, nw_run_cpu_layout): a CPU device per core of the rank,
# less 2 reserved cores when it drives GPUs (1 on a 2-core machine); each device's BLAS runs on
# one thread. StarPU gets as many CPU workers; starpu_sgemm pins OpenBLAS to one thread too.
cores=$(nproc)

# One StarPU run: prints its GFlop/s; fails the script on a wrong result. Exit 3 is "no CUDA
# worker can run the codelet", reported by the caller as n/a.
# WARM 0 (the default here): the timed multiplication is the process's first, as each Narwhal
# run is one multiplication in a fresh process (both pay first-call costs and the first touch
# of C's pages); WARM 1: after an untimed one, StarPU's steady state, printed for reference.
starpu_once() { # SCHED NCPU NCUDA [WARM]
  local out rc=0
  out=$(STARPU_SCHED=$1 STARPU_NCPU=$2 STARPU_NCUDA=$3 "$sp" "$n" "$block" 1 "${4:-0}") || rc=$?
  [ "$rc" -eq 3 ] && return 3
  if [ "$rc" -ne 0 ]; then
    echo "starpu.sh: starpu_sgemm failed (STARPU_SCHED=$1, exit $rc)" >&2
    exit 1
  fi
  local workers=${out#*cpu_workers=}
  workers=${workers%% *}
  # Debian's StarPU is built with at most 4 CPU workers (STARPU_MAXCPUS): say so if capped.
  [ "$workers" = "$2" ] || echo "starpu.sh: StarPU ran $workers CPU workers, not $2" >&2
  echo "$out" | sed -n 's/^gflops=\([0-9.eE+-]*\).*/\1/p'
}

# One Narwhal run (one MPI rank with every core, as benchmarks/run.sh): prints its GFlop/s.
# Narwhal's dmda predicts from a model calibrated first, as StarPU's is (narwhal_calibrate).
narwhal_model=$STARPU_HOME/narwhal-model.json
narwhal_once() { # SCHED|"" DEVICES [EXTRA OPTIONS]
  local sched=()
  [ -n "$1" ] && sched=(--sched "$1")
  [ "$1" = dmda ] && sched+=(--perfmodel "$narwhal_model")
  mpirun -np 1 --bind-to none "$nw" run --app matmul --backend real --n "$n" --block "$block" \
    --devices "$2" "${sched[@]}" "${@:3}" --no-verify --json |
    sed -n 's/.*"gflops":[[:space:]]*\([0-9.eE+-]*\).*/\1/p'
}

# dmda needs the model's history for every worker kind before its decisions mean anything;
# StarPU wants 10 samples per kind, and one multiplication has (N/BLOCK)^2 tasks.
calibrate() { # NCPU NCUDA
  local tasks=$(((n / block) * (n / block)))
  local calib_reps=$(((10 + tasks - 1) / tasks + 1))
  STARPU_CALIBRATE=1 STARPU_SCHED=dmda STARPU_NCPU=$1 STARPU_NCUDA=$2 \
    "$sp" "$n" "$block" "$calib_reps" >/dev/null
}

# The four configurations on one device mix, interleaved; then one line each and the ratios.
compare() { # LABEL NCPU NCUDA DEVICES
  local label=$1 ncpu=$2 ncuda=$3 devices=$4
  local se=() sd=() sw=() nu=() nd=() nr=() v rc=0 gpus=""
  [ "$ncuda" -gt 0 ] && gpus=" + $ncuda GPU"
  echo "== $label: sgemm n=$n block=$block, StarPU $(pkg-config --modversion starpu-1.3 2>/dev/null ||
    echo 1.3) vs Narwhal (1 rank), $ncpu CPU workers$gpus, best of $reps"
  calibrate "$ncpu" "$ncuda" || rc=$?
  local why="n/a (no StarPU CUDA worker: Debian's StarPU is built without CUDA)"
  if [ "$rc" -eq 3 ]; then
    se=("$why") sd=("$why") sw=("$why")
  elif [ "$rc" -ne 0 ]; then
    echo "starpu.sh: StarPU's calibration run failed (exit $rc)" >&2
    exit 1
  fi
  if [ "$have_sched" = 1 ]; then # Narwhal's dmda model: one calibration run, like StarPU's
    rm -f "$narwhal_model"
    narwhal_once dmda "$devices" --calibrate on >/dev/null 2>&1
  fi
  for _ in $(seq "$reps"); do
    if [ "$rc" -eq 0 ]; then
      settle "$build" "$touch_mib"
      v=$(starpu_once eager "$ncpu" "$ncuda")
      se+=("$v")
      settle "$build" "$touch_mib"
      v=$(starpu_once dmda "$ncpu" "$ncuda")
      sd+=("$v")
      settle "$build" "$touch_mib"
      v=$(starpu_once dmda "$ncpu" "$ncuda" 1)
      sw+=("$v")
    fi
    if [ "$have_sched" = 1 ]; then
      settle "$build" "$touch_mib"
      v=$(narwhal_once unicorn "$devices")
      nu+=("$v")
      settle "$build" "$touch_mib"
      v=$(narwhal_once dmda "$devices")
      nd+=("$v")
    else
      settle "$build" "$touch_mib"
      v=$(narwhal_once "" "$devices") # unicorn: the only scheduler of this build
      nu+=("$v")
    fi
    # No runtime: the same block calls on a thread per core (CPU only), the ceiling of both.
    if [ "$ncuda" -eq 0 ] && [ -x "$blocks" ]; then
      settle "$build" "$touch_mib"
      v=$("$blocks" "$n" "$block")
      nr+=("$v")
    fi
  done
  [ "${#nd[@]}" -gt 0 ] || nd=("n/a (this build has no --sched)")
  local e d w u m
  e=$(printf '%s\n' "${se[@]}" | bestmax)
  d=$(printf '%s\n' "${sd[@]}" | bestmax)
  w=$(printf '%s\n' "${sw[@]}" | bestmax)
  u=$(printf '%s\n' "${nu[@]}" | bestmax)
  m=$(printf '%s\n' "${nd[@]}" | bestmax)
  printf 'starpu-eager:    %s\nstarpu-dmda:     %s\nnarwhal-unicorn: %s\nnarwhal-dmda:    %s\n' \
    "$e" "$d" "$u" "$m"
  printf 'starpu-dmda after an untimed multiplication (steady state, not in the ratios): %s\n' "$w"
  local num den
  for num in "narwhal-dmda=$m" "narwhal-unicorn=$u"; do
    for den in "starpu-dmda=$d" "starpu-eager=$e"; do
      v="n/a"
      [[ ${num#*=} == n/a* || ${den#*=} == n/a* ]] || v=$(ratio "${num#*=}" "${den#*=}")
      echo "${num%%=*}/${den%%=*}: $v"
    done
  done
  if [ "${#nr[@]}" -gt 0 ]; then
    local r
    r=$(printf '%s\n' "${nr[@]}" | bestmax)
    printf 'no runtime (bench_blocks: the same block calls, a thread per core): %s\n' "$r"
    for num in "starpu-dmda=$d" "narwhal-dmda=$m" "narwhal-unicorn=$u"; do
      v="n/a"
      [[ ${num#*=} == n/a* ]] || v=$(ratio "${num#*=}" "$r")
      echo "${num%%=*}/no-runtime: $v"
    done
  fi
}

compare cpu "$cores" 0 cpu

# The CUDA variant: a GPU here, and a build with CUDA.
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
  grep -q '^CMAKE_CUDA_COMPILER:.*=.*nvcc' "$build/CMakeCache.txt" 2>/dev/null; then
  # One GPU for both, and the CPU workers Narwhal keeps beside it (cores less its reserve).
  visible=${CUDA_VISIBLE_DEVICES:-0}
  export CUDA_VISIBLE_DEVICES=${visible%%,*}
  reserved=$((cores > 2 ? 2 : cores - 1))
  compare cpu+gpu $((cores - reserved)) 1 cpu+gpu
else
  echo "== cpu+gpu: skipped (no GPU or no CUDA build)"
fi
