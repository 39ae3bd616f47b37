#!/usr/bin/env bash
# reduce_costs.sh NARWHAL SRC_DIR: the simulator charges a platform's reduction and compression
# costs (README, "Calibration": rt_reduce_per_byte, rt_rle_per_byte).
# 1. PageRank on one node of one core, where the node's loop combining results is the critical
#    path: going from c to 2c seconds per byte combined adds exactly c x bytes_reduced (within
#    0.1%), and c = 0 costs nothing (the uncalibrated platform is faster than c).
# 2. On 4 nodes with compression on, a cost per byte encoded or decoded makes the run slower.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "reduce_costs: 0 passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
"$gen" --nodes 1 --cores 1 >"$tmp/p0.xml"
"$gen" --nodes 1 --cores 1 --cpu-prop rt_reduce_per_byte=1e-9 >"$tmp/p1.xml"
"$gen" --nodes 1 --cores 1 --cpu-prop rt_reduce_per_byte=2e-9 >"$tmp/p2.xml"
pr=(run --backend sim --app pagerank --n 65536 --block 4096 --app-param iterations=2 --json)
o0=$("$nw" "${pr[@]}" --platform "$tmp/p0.xml") || fail "run on the cost-free platform"
o1=$("$nw" "${pr[@]}" --platform "$tmp/p1.xml") || fail "run with 1 ns per byte"
o2=$("$nw" "${pr[@]}" --platform "$tmp/p2.xml") || fail "run with 2 ns per byte"
m0=$(field "$o0" makespan_s) m1=$(field "$o1" makespan_s) m2=$(field "$o2" makespan_s)
bytes=$(field "$o2" bytes_reduced)
echo "makespans: $m0 s (no cost), $m1 s (1 ns/byte), $m2 s (2 ns/byte); $bytes bytes combined"
awk -v m0="$m0" -v m1="$m1" -v m2="$m2" -v b="$bytes" 'BEGIN {
  want = b * 1e-9; got = m2 - m1
  exit !(b > 0 && m0 < m1 && got > want * 0.999 && got < want * 1.001) }' ||
  fail "2 ns/byte added $(awk -v a="$m2" -v b="$m1" 'BEGIN{print a-b}') s over 1 ns/byte, wanted $bytes x 1e-9"
"$gen" --nodes 4 --cores 1 >"$tmp/r0.xml"
"$gen" --nodes 4 --cores 1 --cpu-prop rt_rle_per_byte=1e-9 >"$tmp/r1.xml"
rl=(run --backend sim --app pagerank --n 65536 --block 4096 --app-param iterations=2
  --compression network --json)
q0=$("$nw" "${rl[@]}" --platform "$tmp/r0.xml") || fail "compressed run, no cost"
q1=$("$nw" "${rl[@]}" --platform "$tmp/r1.xml") || fail "compressed run, 1 ns per byte coded"
n0=$(field "$q0" makespan_s) n1=$(field "$q1" makespan_s)
echo "compressed on 4 nodes: $n0 s (no cost), $n1 s (1 ns per byte coded)"
awk -v a="$n0" -v b="$n1" 'BEGIN { exit !(a < b) }' || fail "coding cost did not slow the run"
echo "reduce_costs: 2 passed, 0 failed"
