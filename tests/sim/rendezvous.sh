#!/usr/bin/env bash
# rendezvous.sh NARWHAL SRC_DIR: on a platform with rt_eager_bytes a data message longer than
# that goes by rendezvous (sim_costs.h, sim_world.c): its first bytes cross, the receiving loop
# sees them, the answer crosses back, the sending loop sees it, then the rest moves.
# 1. rt_eager_bytes=0, and a value above every message, give the makespan without it, exactly.
# 2. Two one-core nodes, 1 GB/s with 20 ms a NIC (40 ms a route): matmul 512/128's 256 KiB
#    panels past 64 KiB each pay a round trip more before they move, so the run is slower by
#    at least one round trip (80 ms: the first fetch's rendezvous is on the critical path).
# 3. One node (no messages between nodes): the property changes nothing.
# 4. A node lost mid-run with rendezvous under way: the run recovers, bit-identical, no hang.
# 5. A negative value is refused: one line naming the property, exit 2.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "rendezvous: $passed passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
# shellcheck source=../lib/platform_property.sh
. "$(dirname "$0")/../lib/platform_property.sh"
run=(run --backend sim --app matmul --n 512 --block 128 --json)
span() { field "$("$nw" "${run[@]}" --platform "$1")" makespan_s; }

base=(--nodes 2 --cores 1 --nic-bw 10MBps --cpu-prop rt_control_behind=524288)
"$gen" "${base[@]}" >"$tmp/none.xml"
"$gen" "${base[@]}" --cpu-prop rt_eager_bytes=0 >"$tmp/zero.xml"
"$gen" "${base[@]}" --cpu-prop rt_eager_bytes=1000000000 >"$tmp/huge.xml"
a=$(span "$tmp/none.xml") b=$(span "$tmp/zero.xml") c=$(span "$tmp/huge.xml")
echo "two nodes: $a s without the property, $b s with 0, $c s with 1 GB"
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ] ||
  fail "rt_eager_bytes=0 or 1 GB changed the makespan ($a, $b, $c)"
passed=1

far=(--nodes 2 --cores 1 --nic-bw 1GBps --nic-lat 20ms)
"$gen" "${far[@]}" >"$tmp/far.xml"
"$gen" "${far[@]}" --cpu-prop rt_eager_bytes=65536 >"$tmp/far_rdv.xml"
d=$(span "$tmp/far.xml") e=$(span "$tmp/far_rdv.xml")
echo "two nodes 40 ms apart: $d s, $e s with rendezvous past 64 KiB"
awk -v d="$d" -v e="$e" 'BEGIN { exit !(d > 0 && e >= d + 0.08) }' ||
  fail "rendezvous past 64 KiB did not cost a round trip of 80 ms ($d -> $e s)"
passed=2

one_node_unchanged rt_eager_bytes=1024 || fail "the property changed a one-node run"
passed=3

"$gen" --nodes 4 --cores 1 --nic-bw 10MBps --cpu-prop rt_eager_bytes=4096 >"$tmp/four.xml"
lost=(run --backend sim --platform "$tmp/four.xml" --nodes 4 --app matmul --n 512 --block 64
  --data functional --json)
whole=$("$nw" "${lost[@]}")
h=$(field "$whole" makespan_s) s0=$(field "$whole" first_submit_s)
[ -n "$h" ] && [ -n "$s0" ] || fail "the four-node run without a loss failed"
at=$(awk -v h="$h" -v s="$s0" 'BEGIN { printf "%.6f", s + h / 2 }') # halfway through its task
out=$(timeout 120 "$nw" "${lost[@]}" --fail "2@$at" --fault detect:0.0001) ||
  fail "node 2 lost at $at s: the run failed or hung (exit $?)"
verified=$(printf '%s' "$out" | grep -cE '"verified":[[:space:]]*true')
echo "four nodes, node 2 lost at $at s: verified $verified, $(field "$out" nodes_lost) lost," \
  "$(field "$out" subtasks_reexecuted) subtasks re-executed"
[ "$verified" = 1 ] && [ "$(field "$out" nodes_lost)" = 1 ] &&
  [ "$(field "$out" subtasks_reexecuted)" -gt 0 ] ||
  fail "node 2 lost at $at s: not verified, no node lost or nothing re-executed"
passed=4

why=$(refused_in_one_line rt_eager_bytes=-5) || fail "a negative rt_eager_bytes: $why"
passed=5
echo "rendezvous: $passed passed"
