#!/usr/bin/env bash
# gpu_pagerank.sh NARWHAL_REAL MPIEXEC EXPECT_JSON DEVICES NP: PageRank on this machine's CUDA
# GPU(s) through the real backend: the CUDA kernel's atomic adds and the runtime's reduction of
# eight subtasks per iteration, checked bit for bit against the single-process reference.
# Skips (status 77) with a clear message where no GPU is present.
set -u
nw=$1 mpiexec=$2 expect=$3 devices=$4 np=$5
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "gpu_pagerank: skipped: no NVIDIA GPU on this machine (nvidia-smi lists none)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$expect" verified=true "subtasks=40" -- \
  "$here/../real/mpirun.sh" "$mpiexec" "$np" --bind-to none "$nw" run --backend real \
  --app pagerank --devices "$devices" --n 1048576 --block 131072 --app-param iterations=5 \
  --gpu-streams 2 --json
