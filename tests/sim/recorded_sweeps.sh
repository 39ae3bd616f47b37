#!/usr/bin/env bash
# recorded_sweeps.sh NARWHAL SRC_DIR: every sweep of experiments/ whose table was recorded in
# tests/sim/recorded/ gives exactly the recorded table again. The recordings were taken before
# the scheduler was moved behind the policy table: the `unicorn` policy, the
# default, must reproduce today's numbers to the printed digit. A deliberate change of the
# model or of the policy updates the recording in the same commit, with the reason.
set -euo pipefail
nw=${1:?usage: recorded_sweeps.sh NARWHAL SRC_DIR}
src=${2:?usage: recorded_sweeps.sh NARWHAL SRC_DIR}
cd "$src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for rec in tests/sim/recorded/*.csv; do
  name=$(basename "$rec" .csv)
  if ! "$nw" sweep "experiments/$name.json" --csv "$tmp/$name.csv" >"$tmp/$name.out" 2>&1; then
    echo "recorded_sweeps: $name: the sweep failed:"
    tail -5 "$tmp/$name.out"
    fail=$((fail + 1))
  elif ! diff -u "$rec" "$tmp/$name.csv"; then
    echo "recorded_sweeps: $name: the table differs from the recording (above)"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
echo "recorded_sweeps: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
