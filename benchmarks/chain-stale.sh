#!/usr/bin/env bash
# chain-stale.sh [BUILD_DIR] [RUNS] [STEPS] [APP] [BLOCK]: stale reads of late data reproduced
# on the real backend (not a CI test: it takes about 10-15 s a run on 2 cores). Runs the chain
# app (apps/chain: STEPS tasks of 2 subtasks, every read checked) RUNS times (default 500, 1000
# steps) under
#   mpirun --oversubscribe --bind-to none -np 2 BUILD_DIR/narwhal-real run --backend real \
#       --app APP --n STEPS --block BLOCK --cpu-devices 1 --seed RUN --json
# and counts the runs with stale reads, the stale reads, the runs that failed otherwise, and
# what the runtime did meanwhile (copies, steals, stale data dropped). One line per run, then
# a summary line. APP: chain (two spaces in turn, read-only then write-only; default) or
# chain-rw (one space read-write). BLOCK: subtasks per step (default 2, as when the stale reads
# were found; with one device per rank, 2 leaves no prefetched subtask to steal, so the
# stale-data path needs 3 or more: see README). Exit status 1 if any run read stale data or failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build=${1:-build}
runs=${2:-500}
steps=${3:-1000}
app=${4:-chain}
block=${5:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Containers often forbid the cross-memory attach that shared-memory transport uses.
export OMPI_MCA_btl_vader_single_copy_mechanism=none

key() { printf '%s\n' "$1" | tr -d '\n' | grep -oE "\"$2\":[[:space:]]*[^,}]*" | head -n1 |
  sed -E "s/\"$2\":[[:space:]]*//"; }

stale_runs=0 stale_total=0 failed=0 copies=0 steals=0 dropped=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT
echo "chain-stale: $runs runs of: mpirun --oversubscribe --bind-to none -np 2" \
  "$build/narwhal-real run --backend real --app $app --n $steps --block $block --cpu-devices 1" \
  "--seed RUN --json"
for i in $(seq "$runs"); do
  t0=$(date +%s.%N)
  out=$(timeout 600 mpirun --oversubscribe --bind-to none -np 2 "$build/narwhal-real" run \
    --backend real --app "$app" --n "$steps" --block "$block" --cpu-devices 1 --seed "$i" --json \
    2>"$err")
  status=$?
  wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  stale=$(key "$out" stale_reads)
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ] || [ -z "$stale" ]; then
    failed=$((failed + 1))
    echo "run $i: FAILED (status $status, ${wall}s): $(tr '\n' ' ' <"$err" | cut -c1-300)"
    continue
  fi
  ma=$(key "$out" multi_assigned) st=$(key "$out" steals_succeeded)
  dr=$(key "$out" stale_data_dropped)
  copies=$((copies + ma)) steals=$((steals + st)) dropped=$((dropped + dr))
  if [ "$stale" -gt 0 ]; then
    stale_runs=$((stale_runs + 1))
    stale_total=$((stale_total + stale))
  fi
  echo "run $i: stale_reads=$stale verified=$(key "$out" verified) multi_assigned=$ma" \
    "steals_succeeded=$st stale_data_dropped=$dr wall_s=$wall" \
    "$([ "$stale" -gt 0 ] && tr '\n' ' ' <"$err" | cut -c1-300)"
done
echo "chain-stale: $runs runs, $stale_runs with stale reads ($stale_total stale reads)," \
  "$failed failed; copies $copies, steals $steals, stale data dropped $dropped"
[ "$stale_runs" -eq 0 ] && [ "$failed" -eq 0 ]
