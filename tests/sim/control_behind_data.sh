#!/usr/bin/env bash
# control_behind_data.sh NARWHAL SRC_DIR: on a calibrated TCP platform a control message to a
# peer waits behind the data in flight to that peer (rt_control_behind: sim_costs.h,
# sim_world.c's behind_data); elsewhere nothing changes.
# 1. rt_control_behind=0 gives the makespan of the platform without it, exactly.
# 2. 512 KiB on two one-core nodes at 10 MB/s: matmul 512/128 with its inputs on node 0 is
#    slower (its fetches and steal messages follow 128 KiB blocks on the same routes).
# 3. One node (no route): the property changes nothing.
# 4. A negative value is refused: one line naming the property, exit 2.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "control_behind_data: $passed passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
# shellcheck source=../lib/platform_property.sh
. "$(dirname "$0")/../lib/platform_property.sh"
run=(run --backend sim --app matmul --n 512 --block 128 --json)

"$gen" --nodes 2 --cores 1 --nic-bw 10MBps >"$tmp/none.xml"
"$gen" --nodes 2 --cores 1 --nic-bw 10MBps --cpu-prop rt_control_behind=0 >"$tmp/zero.xml"
"$gen" --nodes 2 --cores 1 --nic-bw 10MBps --cpu-prop rt_control_behind=524288 >"$tmp/tcp.xml"
a=$(field "$("$nw" "${run[@]}" --platform "$tmp/none.xml")" makespan_s)
b=$(field "$("$nw" "${run[@]}" --platform "$tmp/zero.xml")" makespan_s)
echo "two nodes: $a s without the property, $b s with 0"
[ -n "$a" ] && [ "$a" = "$b" ] || fail "rt_control_behind=0 changed the makespan ($a, $b)"
passed=1

c=$(field "$("$nw" "${run[@]}" --platform "$tmp/tcp.xml")" makespan_s)
echo "two nodes, 512 KiB behind: $c s"
awk -v a="$a" -v c="$c" 'BEGIN { exit !(c > a * 1.01) }' ||
  fail "control messages waiting behind data did not slow the run ($a -> $c s)"
passed=2

one_node_unchanged rt_control_behind=524288 || fail "the property changed a one-node run"
passed=3

why=$(refused_in_one_line rt_control_behind=-5) || fail "a negative rt_control_behind: $why"
passed=4
echo "control_behind_data: $passed passed"
