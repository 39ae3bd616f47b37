#!/usr/bin/env bash
# calibrate_no_verify.sh MPIRUN_SH MPIEXEC NARWHAL: `narwhal calibrate` checks the result in its
# warm-up run and not in the runs it records, whose handlers' costs it fits: an application
# verifies after its tasks, outside the makespan, and the reply to its read of the result is
# handled into a fresh buffer of the application's (docs/experiments/first-touch-attribution.md).
# The event log of a recorded run (NARWHAL_EVENT_COSTS) has as many driver calls as a run with
# --no-verify, and fewer than a run that verifies (its read is one more).
set -u
mpirun_sh=$1 mpiexec=$2 nw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "calibrate_no_verify: $*"; exit 1; }
drivers() { awk '!/^#/ && $1 == "driver" { n++ } END { print n + 0 }' "$1"; }
mm=(--app matmul --n 512 --block 128)
for v in verify no-verify; do
  NARWHAL_EVENT_COSTS=$tmp/$v "$mpirun_sh" "$mpiexec" 1 --bind-to none -x NARWHAL_EVENT_COSTS \
    "$nw" run --backend real "${mm[@]}" "--$v" --calibrate on --perfmodel "$tmp/m$v.json" \
    --json >/dev/null </dev/null || fail "the run with --$v failed"
done
NARWHAL_EVENT_COSTS=$tmp/cal "$mpirun_sh" "$mpiexec" 1 --bind-to none -x NARWHAL_EVENT_COSTS \
  "$nw" calibrate --platform-out "$tmp/p.xml" --perfmodel "$tmp/c.json" --runs 1 \
  --workload matmul:512:128 >"$tmp/cal.log" 2>&1 </dev/null || fail "calibrate failed: $(tail -1 "$tmp/cal.log")"
on=$(drivers "$tmp/verify.0") off=$(drivers "$tmp/no-verify.0") cal=$(drivers "$tmp/cal.0")
echo "driver calls: $on verifying, $off not, $cal in calibrate's recorded run"
[ "$on" -gt "$off" ] || fail "verifying made no more driver calls ($on against $off)"
[ "$cal" -eq "$off" ] || fail "the recorded run made $cal driver calls, not $off: it verified"
echo "calibrate_no_verify: 2 passed, 0 failed"
