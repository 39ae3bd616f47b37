#!/usr/bin/env bash
# gpu_app.sh NARWHAL_REAL MPIEXEC EXPECT_JSON NP CHECKS -- RUN_OPTIONS...: an app's CUDA kernel on
# this machine's GPU(s) through the real backend, under mpirun with NP ranks: the run's JSON
# must pass CHECKS (KEY=REGEX words, as expect_json.sh takes them; verified=true compares with
# the single-process reference bit for bit). Skips (status 77) with a clear message where no
# GPU is present.
set -u
nw=$1 mpiexec=$2 expect=$3 np=$4
shift 4
checks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do checks+=("$1"); shift; done
shift
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "gpu_app: skipped: no NVIDIA GPU on this machine (nvidia-smi lists none)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$expect" "${checks[@]}" -- "$here/../real/mpirun.sh" "$mpiexec" "$np" --bind-to none "$nw" \
  run --backend real --json "$@"
