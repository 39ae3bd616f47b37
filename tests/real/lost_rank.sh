#!/usr/bin/env bash
# lost_rank.sh NARWHAL MPIEXEC RANK [kill|fail]: a rank killed mid-run (kill -9 from here, as a
# crash or the OOM killer would; or, with `fail`, by the run's own --fail RANK@1.5, README
# "Faults") ends the whole job within 10 s with one Narwhal line naming it
# (backends/real/real_lost_rank.h), beside mpirun's own message.
set -uo pipefail
nw=$1 mpiexec=$2 victim=$3 how=${4:-kill}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ "$how" = fail ]; then
  start=$(date +%s.%N)
  timeout 60 "$mpiexec" -np 3 --oversubscribe --bind-to none "$nw" run --backend real \
    --app chain --n 1000000 --block 2 --cpu-devices 1 --fail "$victim@1.5" >"$out" 2>&1
  status=$?
  took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a - 1.5 }')
  [ "$status" -ne 124 ] || { echo "FAIL: the job did not end in 60 s"; cat "$out"; exit 1; }
else
  # A chain of 10^6 two-subtask steps: far longer than the test waits.
  timeout 60 "$mpiexec" -np 3 --oversubscribe --bind-to none "$nw" run --backend real \
    --app chain --n 1000000 --block 2 --cpu-devices 1 >"$out" 2>&1 &
  job=$!
  # The victim: the process whose environment says it is that rank, once all three run.
  pid=""
  for _ in $(seq 1 100); do
    for p in $(pgrep -f -- "--app chain --n 1000000" || true); do
      if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -x "OMPI_COMM_WORLD_RANK=$victim" >/dev/null; then
        pid=$p
      fi
    done
    [ -n "$pid" ] && [ "$(pgrep -f -- "--app chain --n 1000000" | wc -l)" -ge 4 ] && break
    sleep 0.1
  done
  [ -n "$pid" ] || { echo "FAIL: rank $victim never started"; cat "$out"; exit 1; }
  sleep 1 # inside the run, past MPI's start-up
  start=$(date +%s.%N)
  kill -9 "$pid"
  wait "$job"
  status=$?
  took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
fi
cat "$out"
lines=$(grep -c "^narwhal: rank $victim on host [^ ]* lost: its process is gone; " "$out")
echo "mpirun exited $status, $took s after the rank's death; Narwhal's lines naming rank $victim: $lines"
[ "$status" -ne 0 ] || { echo "FAIL: the job exited 0"; exit 1; }
awk -v t="$took" 'BEGIN { exit !(t < 10) }' || { echo "FAIL: took $took s"; exit 1; }
[ "$lines" -eq 1 ] || { echo "FAIL: want one Narwhal line naming rank $victim"; exit 1; }
echo "ok"
