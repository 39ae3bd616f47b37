#!/usr/bin/env bash
# gpu_pagerank.sh NARWHAL_REAL MPIEXEC EXPECT_JSON DEVICES NP [OPTIONS...]: PageRank on this
# machine's CUDA GPU(s) through the real backend: the CUDA kernel's atomic adds and the
# runtime's reduction of eight subtasks per iteration, checked bit for bit against the
# single-process reference. OPTIONS go to the run; with --compression gpu the GPUs' results
# must also have crossed encoded (bytes_gpu_reduction_sent above 0 and below
# bytes_gpu_reduction_raw). Skips (status 77) with a clear message where no GPU is present.
set -u
nw=$1 mpiexec=$2 expect=$3 devices=$4 np=$5
shift 5
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "gpu_pagerank: skipped: no NVIDIA GPU on this machine (nvidia-smi lists none)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
run=("$here/../real/mpirun.sh" "$mpiexec" "$np" --bind-to none "$nw" run --backend real
  --app pagerank --devices "$devices" --n 1048576 --block 131072 --app-param iterations=5
  --gpu-streams 2 --json "$@")
case " $* " in
*" --compression gpu "* | *" --compression both "*) ;;
*) exec "$expect" verified=true "subtasks=40" -- "${run[@]}" ;;
esac
out=$("${run[@]}") || { echo "the run failed: ${run[*]}"; exit 1; }
"$expect" verified=true "subtasks=40" -- printf '%s\n' "$out" || exit 1
field() { printf '%s' "$out" | grep -oE "\"$1\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
raw=$(field bytes_gpu_reduction_raw) sent=$(field bytes_gpu_reduction_sent)
echo "GPU results: $raw bytes raw, $sent sent"
awk -v r="$raw" -v s="$sent" 'BEGIN { exit !(r > 0 && s > 0 && s < r) }' ||
  { echo "gpu_pagerank: 0 passed, 1 failed: the results did not cross encoded"; exit 1; }
echo "gpu_pagerank: 1 passed, 0 failed"
