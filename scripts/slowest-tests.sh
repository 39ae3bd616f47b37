#!/usr/bin/env bash
# slowest-tests.sh BUILD_DIR [N]: the N (default 15) slowest tests of the last ctest run in
# BUILD_DIR, with their seconds, slowest first, and the sum of all. CI prints it after each
# suite, so that a run that took longer than it should says where the time went.
set -u
log=${1:?usage: slowest-tests.sh BUILD_DIR [N]}/Testing/Temporary/LastTest.log
n=${2:-15}
[ -r "$log" ] || { echo "slowest-tests: no $log (has ctest run in ${1}?)"; exit 2; }
awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
     /^Test time = / && name != "" { printf "%9.2f s  %s\n", $4, name; sum += $4; name = "" }
     END { printf "%9.2f s  (all tests)\n", sum > "/dev/stderr" }' "$log" 2>"$log.sum" |
  sort -rn | head -n "$n"
cat "$log.sum" && rm -f "$log.sum"
