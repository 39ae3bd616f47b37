#!/usr/bin/env bash
# core_purity.sh SRC_DIR: DESIGN.md's rule: nothing under core/ includes an MPI, CUDA,
# SimGrid, pthread, BLAS or FFTW header. Prints each offending line; fails if there is one.
set -u
src=${1:?usage: core_purity.sh SRC_DIR}
[ -d "$src/core" ] || { echo "core_purity: no core/ under $src"; exit 2; }
bad=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]*/)?(mpi|cuda|cublas|cufft|curand|simgrid|xbt|pthread|cblas|openblas|lapacke|omp|fftw)[^>"]*[>"]' \
  "$src/core" --include='*.c' --include='*.h')
files=$(find "$src/core" -name '*.[ch]' | wc -l)
if [ -n "$bad" ]; then
  echo "$bad"
  echo "core_purity: 0 passed, 1 failed ($files files checked)"
  exit 1
fi
echo "core_purity: 1 passed, 0 failed ($files files checked)"
