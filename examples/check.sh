#!/usr/bin/env bash
# check.sh NAME BIN_DIR MPIEXEC: the test of example NAME (examples/CMakeLists.txt registers
# one per example, examples.<NAME with - as _>). Runs the example built in BIN_DIR/NAME on the
# simulator and, where it makes sense, under mpirun with two ranks, and checks its exact result
# line, --json keys (tests/sim/expect_json.sh) and a one-line refusal of a bad option of its
# own. Every expected number is what the example's arithmetic gives; each says how.
set -uo pipefail
name=$1 bin=$2/$1 mpiexec=$3
src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/.." && pwd)
small=$root/platforms/small.xml
fail() { echo "FAIL ($name): $*"; exit 1; }

# expect LINE [KEY=REGEX...] -- COMMAND...: COMMAND succeeds, prints LINE as a whole line, and
# with --json each KEY of its JSON object matches REGEX. Sets $out to what it printed.
expect() {
  local line=$1 keys=()
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do keys+=("$1"); shift; done
  shift
  out=$("$@") || fail "exit status $?: $*"
  grep -qxF -- "$line" <<<"$out" || fail "no line '$line' from: $*"$'\n'"$out"
  echo "ok: $line"
  if [ ${#keys[@]} -gt 0 ]; then
    "$root/tests/sim/expect_json.sh" "${keys[@]}" -- printf '%s\n' "$out" || fail "$*"
  fi
}
# The real backend: two ranks on this machine. Open MPI does not free what its components
# allocate, so leaks are not reported there (the simulated runs keep LeakSanitizer on).
real() { ASAN_OPTIONS=detect_leaks=0 "$root/tests/real/mpirun.sh" "$mpiexec" 2 "$@"; }
# refused OPTION...: the program refuses them with exit status 2 and one line on stderr.
refused() {
  local err rc
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || fail "exit status $rc, wanted 2: $*"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "more than one line from $*: $err"
  echo "ok: refused: $err"
}
# summary_matches: the program's own "makespan X s" line (nw_run_summary_get) says what the
# report's makespan_s says, to the microsecond.
summary_matches() {
  local mine json
  mine=$(printf '%s\n' "$out" | sed -nE 's/^spin: makespan ([0-9.]+) s on .*/\1/p')
  json=$(printf '%s\n' "$out" | tr -d '\n' | grep -oE '"makespan_s":[[:space:]]*[0-9.eE+-]+' |
    sed -E 's/.*:[[:space:]]*//')
  awk -v a="$mine" -v b="$json" 'BEGIN { d = a - b; exit !(a != "" && d < 1e-6 && d > -1e-6) }' ||
    fail "the program's makespan '$mine' is not the report's '$json'"
  echo "ok: the program read makespan $mine s, as reported"
}
# near KEY WANT: the JSON key of the last expect's output lies within 1% of WANT.
near() {
  local got
  got=$(printf '%s\n' "$out" | tr -d '\n' | grep -oE "\"$1\":[[:space:]]*[0-9.eE+-]+" | head -n1 |
    sed -E 's/.*:[[:space:]]*//')
  awk -v g="$got" -v w="$2" 'BEGIN { exit !(g != "" && g >= 0.99 * w && g <= 1.01 * w) }' ||
    fail "$1 = '$got', wanted $2 within 1%"
  echo "ok: $1 = $got, within 1% of $2"
}

case $name in
first-task)
  p=$bin/first_task
  # n / block = 4096 / 512 = 8 subtasks.
  expect "first_task: alpha 7, 4096 elements, 0 wrong" verified=true subtasks=8 nodes=2 -- \
    "$p" --platform "$small" --nodes 2 --n 4096 --block 512 --alpha 7 --check-views on --json
  expect "first_task: alpha 7, 4096 elements, 0 wrong" verified=true subtasks=8 nodes=2 -- \
    real "$p" --backend real --n 4096 --block 512 --alpha 7 --json
  refused "$p" --platform "$small" --n 4096 --alpha x
  ;;
strided-subscriptions)
  p=$bin/transpose
  # (512 / 64)^2 = 64 tiles; each subtask reads its 64 x 64 tile of 4-byte elements, so all
  # of them read the matrix once: 512 * 512 * 4 = 1048576 bytes. --check-views on: a kernel
  # touching a byte outside its quads would fail the run.
  expect "transpose: 512 x 512 in 64 tiles, 0 wrong" verified=true subtasks=64 \
    locality_read_bytes=1048576 -- \
    "$p" --platform "$small" --nodes 4 --n 512 --block 64 --check-views on --json
  expect "transpose: 512 x 512 in 64 tiles, 0 wrong" verified=true subtasks=64 -- \
    real "$p" --backend real --n 512 --block 64 --json
  refused "$p" --platform "$small" --n 512 --block 64 --tile 8
  ;;
read-write-across-tasks)
  p=$bin/smooth
  # 6 tasks of 4096 / 256 = 16 subtasks: 96. Each subtask reads its 256 elements and two
  # neighbours, (256 + 2) * 4 bytes, so 6 * 16 * 1032 = 99072 bytes in all. Every task writes
  # the space the next reads: the runtime never runs two at once (tasks_concurrent_max 1),
  # although the driver submits all six before waiting.
  expect "smooth: 6 tasks of 16 subtasks over 4096 elements, 0 wrong" verified=true tasks=6 \
    subtasks=96 tasks_concurrent_max=1 locality_read_bytes=99072 -- \
    "$p" --platform "$small" --nodes 4 --n 4096 --block 256 --steps 6 --check-views on --json
  expect "smooth: 6 tasks of 16 subtasks over 4096 elements, 0 wrong" verified=true tasks=6 \
    subtasks=96 tasks_concurrent_max=1 -- \
    real "$p" --backend real --n 4096 --block 256 --steps 6 --json
  refused "$p" --platform "$small" --n 4096 --block 256 --steps 0
  ;;
reduction)
  p=$bin/histogram
  # 65536 / 4096 = 16 subtasks, each writing all 16 counters of 8 bytes (128 bytes). Folding
  # 16 results into one takes 15 combinations of 128 bytes: 1920 bytes reduced, wherever they
  # ran. Between nodes, each of the 3 nodes other than the tree's root sends one partial
  # histogram: 3 * 128 = 384 bytes (the 16 subtasks over 16 cores reach every node).
  expect "histogram: 65536 samples in 16 bins by 16 subtasks, total 65536, 0 wrong bins" \
    verified=true subtasks=16 bytes_reduced=1920 bytes_reduction_raw=384 -- \
    "$p" --platform "$small" --nodes 4 --n 65536 --block 4096 --check-views on --json
  expect "histogram: 65536 samples in 100 bins by 16 subtasks, total 65536, 0 wrong bins" \
    verified=true subtasks=16 -- \
    real "$p" --backend real --n 65536 --block 4096 --bins 100 --json
  refused "$p" --platform "$small" --n 65536 --block 4096 --bins 0
  ;;
compare-policies)
  p=$bin/uneven
  # 32 subtasks of 1 to 32 units; a unit is 100000 steps of 2 flops on small.xml's 1 Gflop/s
  # cores: 0.2 ms. One node, 4 cores, no pipelining (a device takes its next subtask when it
  # finishes one): eager deals them out in index order, which list scheduling finishes after
  # 144 units (0.0288 s); prio largest first, after 528 / 4 = 132 units (0.0264 s), the
  # perfect balance. 144 / 132 = 1.091.
  out=$("$src/compare-policies/compare.sh" "$p" eager prio --platform "$small" --nodes 1 \
    --n 32 --block 100000 --pipeline off) || fail "compare.sh failed: $out"
  printf '%s\n' "$out"
  for line in "eager: makespan 0.028800 s" "prio: makespan 0.026400 s" \
    "prio is faster, by 1.091x"; do
    grep -qxF -- "$line" <<<"$out" || fail "compare.sh did not say '$line'"
  done
  expect "uneven: 32 subtasks of 1 to 32 units, 0 wrong" verified=true subtasks=32 -- \
    "$p" --platform "$small" --nodes 2 --n 32 --block 1000 --sched prio --check-views on --json
  expect "uneven: 32 subtasks of 1 to 32 units, 0 wrong" verified=true subtasks=32 -- \
    real "$p" --backend real --n 32 --block 20000 --sched prio --json
  refused "$p" --platform "$small" --n 32 --block 1000 --policy prio
  ;;
custom-platform)
  p=$bin/spin
  plat=$src/custom-platform/two-nodes.xml
  # 16 subtasks of 2 * 1000000 flops on cores of 100 Mflop/s: 0.02 s each. 2 nodes of 4 cores
  # run 16 / 8 = 2 each, one after the other: 0.04 s; one node 16 / 4 = 4: 0.08 s. The
  # runtime's messages add a few 21 us latencies: within 1%. (No real run: it would not use
  # the platform.)
  expect "spin: 16 subtasks of 2000000 flops, 0 wrong" verified=true subtasks=16 nodes=2 -- \
    "$p" --platform "$plat" --n 16 --block 1000000 --json
  near makespan_s 0.04
  summary_matches
  expect "spin: 16 subtasks of 2000000 flops, 0 wrong" verified=true subtasks=16 nodes=1 -- \
    "$p" --platform "$plat" --nodes 1 --n 16 --block 1000000 --json
  near makespan_s 0.08
  refused "$p" --platform "$plat" --n 16 --block 1000000 --speed 2
  ;;
*)
  fail "no such example"
  ;;
esac
echo "check.sh: example $name passed"
