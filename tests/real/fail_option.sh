#!/usr/bin/env bash
# fail_option.sh NARWHAL MPIEXEC RANK: --fail RANK@1.5 on hardware: that rank kills itself 1.5 s
# into the run (README, "Faults"), and the job ends within 10 s of it with one Narwhal line
# naming the rank (backends/real/real_lost_rank.h).
set -uo pipefail
nw=$1 mpiexec=$2 victim=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s.%N)
# A chain of 10^6 two-subtask steps: far longer than the test waits.
timeout 60 "$mpiexec" -np 3 --oversubscribe --bind-to none "$nw" run --backend real \
  --app chain --n 1000000 --block 2 --cpu-devices 1 --fail "$victim@1.5" >"$out" 2>&1
status=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
cat "$out"
lines=$(grep -c "^narwhal: rank [0-9]*: the run is lost: rank $victim ended abnormally" "$out")
echo "mpirun exited $status after $took s; Narwhal's lines naming rank $victim: $lines"
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || { echo "FAIL: the job exited $status"; exit 1; }
awk -v t="$took" 'BEGIN { exit !(t < 11.5) }' || { echo "FAIL: took $took s"; exit 1; }
[ "$lines" -eq 1 ] || { echo "FAIL: want one Narwhal line naming rank $victim"; exit 1; }
echo "ok"
