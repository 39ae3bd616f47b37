#!/usr/bin/env bash
# gpu.sh [BUILD_DIR]: matmul GFlop/s through Narwhal on this machine's GPU (one MPI rank,
# --devices gpu) as a ratio of plain cuBLAS sgemm on the same matrix size, measured in the
# same run: against the sgemm alone, and against sgemm plus copying A and B in and C out
# (bench_cublas.c). Each figure is the best of REPS runs (default 3). Needs a CUDA build and a
# GPU. Extra narwhal options may follow in NW_ARGS (e.g. "--gpu-streams 2"). With TRACE_DIR,
# one more (untimed) run of each point writes its trace there, matmul-N-BLOCK.json, for
# `narwhal critical-path` after the GPU machine is gone, and its --json (copies, cache hits)
# beside it, matmul-N-BLOCK.stats.json.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
bestmax() { sort -g | tail -n1; }
matmul() { # N BLOCK [narwhal options]: one rank's matmul on the GPU
  local n=$1 block=$2
  shift 2
  mpirun -np 1 --bind-to none "$build/narwhal-real" run --app matmul --backend real \
    --devices gpu --n "$n" --block "$block" --no-verify ${NW_ARGS:-} "$@"
}
for n in ${SIZES:-8192 16384}; do
  for block in ${BLOCKS:-2048 4096}; do
    base=$("$build/benchmarks/bench_cublas" "$n" "$reps")
    gemm=${base% *} e2e=${base#* }
    nwg=$(for _ in $(seq "$reps"); do
      matmul "$n" "$block" --json | sed -n 's/.*"gflops":[[:space:]]*\([0-9.eE+-]*\).*/\1/p'
    done | bestmax)
    if [ -n "${TRACE_DIR:-}" ]; then
      mkdir -p "$TRACE_DIR"
      matmul "$n" "$block" --trace "$TRACE_DIR/matmul-$n-$block.json" --json \
        >"$TRACE_DIR/matmul-$n-$block.stats.json"
    fi
    printf 'n=%s block=%s cublas_sgemm=%.1f cublas_with_copies=%.1f narwhal=%.1f ratio_sgemm=%.3f ratio_with_copies=%.3f\n' \
      "$n" "$block" "$gemm" "$e2e" "$nwg" "$(awk -v a="$nwg" -v b="$gemm" 'BEGIN{print a/b}')" \
      "$(awk -v a="$nwg" -v b="$e2e" 'BEGIN{print a/b}')"
  done
done
