#!/usr/bin/env bash
# compare.sh PROGRAM POLICY_A POLICY_B [OPTION...]: runs PROGRAM twice on the simulator, the
# same OPTIONs but --sched POLICY_A, then --sched POLICY_B, and prints each simulated makespan
# and which policy was faster. A program runs its application once per process (SimGrid starts
# once), hence two processes. Simulated runs are deterministic: the same numbers every time.
#
#   examples/compare-policies/compare.sh build/examples/compare-policies/uneven eager prio \
#       --platform platforms/small.xml --nodes 1 --n 32 --block 100000 --pipeline off
#
# Exit status: 0, or 1 when a run failed or its result was wrong (each run checks its own).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: compare.sh PROGRAM POLICY_A POLICY_B [OPTION...]" >&2; exit 2; }
prog=$1 a=$2 b=$3
shift 3

# The makespan of one run, from the report's JSON (--json); fails unless the run verified.
makespan() {
  local policy=$1 out
  shift
  out=$("$prog" --backend sim "$@" --sched "$policy" --json) ||
    { echo "compare.sh: the run with --sched $policy failed" >&2; return 1; }
  printf '%s\n' "$out" | tr -d '\n' | grep -E '"verified":[[:space:]]*true' >/dev/null ||
    { echo "compare.sh: the run with --sched $policy did not verify its result" >&2; return 1; }
  printf '%s\n' "$out" | tr -d '\n' | grep -oE '"makespan_s":[[:space:]]*[0-9.eE+-]+' |
    head -n1 | sed -E 's/.*:[[:space:]]*//'
}
# --sched comes after the OPTIONs on each command line, so it wins over one among them.
ta=$(makespan "$a" "$@")
tb=$(makespan "$b" "$@")
awk -v a="$a" -v b="$b" -v ta="$ta" -v tb="$tb" 'BEGIN {
  printf "%s: makespan %.6f s\n%s: makespan %.6f s\n", a, ta, b, tb
  if (ta == tb) print "neither is faster"
  else if (ta < tb) printf "%s is faster, by %.3fx\n", a, tb / ta
  else printf "%s is faster, by %.3fx\n", b, ta / tb
}'
