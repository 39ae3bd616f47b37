#!/usr/bin/env bash
# random-programs.sh [--seeds N] [--first S] [--asan] [--backend sim|real|loop] [--rotation cpu|gpu]
#                   [--lose]
#
# The random-program property test (apps/randprog) at length, to run before changing
# the data layer: N seeds (default 2000) from S (default 1) on the chosen backend (default
# sim, both its cpu and gpu rotations unless --rotation picks one; real: mpirun with 2-3
# ranks; loop: the in-process backend with reordered messages). Prints the counts per
# configuration and every failing seed with the exact command that reproduces it; exits
# non-zero on any failure. --asan builds and uses build-asan (ASan + UBSan) instead of build.
# RANDPROG_SKIP (apps/randprog/randprog.h) defaults to what tests/CMakeLists.txt skips.
# --lose (sim and loop): every run of two nodes or more also loses a node at a time drawn from
# its seed, and must still be exact (RANDPROG_LOSE=1; core/node/recover.c).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
seeds=2000 first=1 asan=0 backend=sim rotations=(cpu gpu)
while [ $# -gt 0 ]; do
  case $1 in
  --seeds) seeds=$2; shift 2 ;;
  --first) first=$2; shift 2 ;;
  --asan) asan=1; shift ;;
  --backend) backend=$2; shift 2 ;;
  --rotation) rotations=("$2"); shift 2 ;;
  --lose) export RANDPROG_LOSE=1; shift ;;
  *) echo "random-programs.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
build=build
if [ $asan -eq 1 ]; then
  build="build-asan"
  scripts/bootstrap.sh build-asan -DNW_SANITIZE=ON || exit 1
  export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
  export RP_TIMEOUT=${RP_TIMEOUT:-120}
elif [ ! -x build/narwhal ]; then
  scripts/bootstrap.sh || exit 1
fi
skip=$(sed -n 's/^set(NW_RANDPROG_SKIP "\(.*\)")$/\1/p' tests/CMakeLists.txt)
export RANDPROG_SKIP=${RANDPROG_SKIP-$skip}
echo "random-programs: $seeds seeds from $first, backend $backend, $build," \
  "RANDPROG_SKIP='$RANDPROG_SKIP'"
status=0
case $backend in
sim)
  for r in "${rotations[@]}"; do
    tests/sim/random_programs.sh "$build/narwhal" platforms/small.xml "$r" "$first" "$seeds" ||
      status=1
  done ;;
real)
  tests/sim/random_programs.sh "$build/narwhal" "$(command -v mpiexec)" real "$first" "$seeds" ||
    status=1 ;;
loop)
  (cd "$build/tests/unit" && ./random_programs_loop "$seeds" "$first") 2>&1 |
    sed "s|: random_programs_loop --one|: $build/tests/unit/random_programs_loop --one|" ||
    status=1 ;;
*)
  echo "random-programs.sh: --backend must be sim, real or loop" >&2
  exit 2 ;;
esac
exit $status
