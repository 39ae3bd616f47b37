#!/usr/bin/env bash
# gpu_matmul.sh NARWHAL_REAL MPIEXEC EXPECT_JSON DEVICES NP: matmul on this machine's CUDA GPU(s)
# through the real backend, checked bit for bit against the single-process reference, with
# the GPU cache in use. Skips (status 77) with a clear message where no GPU is present.
set -u
nw=$1 mpiexec=$2 expect=$3 devices=$4 np=$5
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "gpu_matmul: skipped: no NVIDIA GPU on this machine (nvidia-smi lists none)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
# Two ranks on one GPU share it: each takes a budget well below half its memory.
exec "$expect" verified=true "cache_hits=[1-9][0-9]*" "subtasks=256" -- \
  "$here/../real/mpirun.sh" "$mpiexec" "$np" --bind-to none "$nw" run --backend real \
  --devices "$devices" --n 4096 --block 256 --gpu-mem 4000000000 --gpu-streams 2 --json
