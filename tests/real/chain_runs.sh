#!/usr/bin/env bash
# chain_runs.sh RUNS COMMAND...: runs COMMAND (a chain app run that prints one JSON object)
# RUNS times with --seed 1, 2, ... appended, so each run steals and copies at other moments;
# every run must end verified with no stale read (apps/chain checks every read).
set -u
runs=$1
shift
fail=0
for i in $(seq "$runs"); do
  out=$("$@" --seed "$i")
  status=$?
  flat=$(printf '%s' "$out" | tr -d '[:space:]')
  stale=$(printf '%s' "$flat" | grep -oE '"stale_reads":[0-9]+' | cut -d: -f2)
  copies=$(printf '%s' "$flat" | grep -oE '"multi_assigned":[0-9]+' | cut -d: -f2)
  if [ "$status" -eq 0 ] && [ "$stale" = 0 ] && printf '%s' "$flat" | grep -q '"verified":true'; then
    echo "run $i: verified, 0 stale reads, $copies copies"
  else
    echo "run $i: FAIL (status $status, stale_reads '${stale}')"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "chain_runs: 1 passed, 0 failed" || echo "chain_runs: 0 passed, 1 failed"
exit $fail
