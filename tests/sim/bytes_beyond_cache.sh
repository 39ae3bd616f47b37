#!/usr/bin/env bash
# bytes_beyond_cache.sh NARWHAL SRC_DIR: an event of a price class (it gathered most of its bytes
# into messages it sent, it moved rt_cache_bytes or more, or both) pays its class's price for
# each of its bytes instead of rt_KIND_per_byte (backends/simgrid/sim_costs.h). matmul 1024/256
# with its inputs on node 0 across two one-core nodes, its messages (256 KiB to 1 MiB) costing
# 1 ns a byte to handle:
# 1. a knee above every message, with a dear price beyond it: the makespan is the base's,
#    to the last digit;
# 2. a knee of 1 byte (every message beyond it, copied in or gathered) priced at 10 ns a byte:
#    the makespan is that of the platform whose rt_message_per_byte is 10 ns, to the last
#    digit, and larger than the base's;
# 3. the same prices beyond written for the application alone (rt_message_per_byte_beyond@matmul,
#    the pooled one 1 ns): as 2;
# 4. a knee of 300 KiB: between 1 and 2 (the 256 KiB messages stay at 1 ns);
# 7. the replies' gathers (the requests' handling on node 0) at 100 ns a byte, no knee: slower
#    than the base (at 10 ns node 0's loop keeps ahead of node 1); priced apart at the base's
#    1 ns, the base's makespan to the last digit;
# 5. rt_cache_bytes=-1 is refused with one line naming it, exit 2;
# 6. the bytes a read's reply gathers from node 0's copy, which its handler copies and the
#    simulator prices with the message bytes, are counted: with every input on node 0,
#    bytes_gathered equals bytes_served, and is more than nothing.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "bytes_beyond_cache: $passed passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
mm=(run --backend sim --app matmul --n 1024 --block 256 --placement node0 --json)
span() { # span NAME PROPS...: the makespan on a 2-node 1-core platform with PROPS
  local name=$1
  shift
  local props=()
  for p in "$@"; do props+=(--cpu-prop "$p"); done
  "$gen" --nodes 2 --cores 1 "${props[@]}" >"$tmp/$name.xml" || fail "gen-platform $name"
  local o
  o=$("$nw" "${mm[@]}" --platform "$tmp/$name.xml") || fail "run on $name"
  field "$o" makespan_s
}
base=$(span base rt_message_per_byte=1e-9)
dear=$(span dear rt_message_per_byte=1e-8)
echo "base (1 ns/B) $base s, 10 ns/B $dear s"
m1=$(span high rt_message_per_byte=1e-9 rt_message_per_byte_beyond=1e-8 rt_cache_bytes=1e12)
[ "$m1" = "$base" ] || fail "a knee above every message changed the makespan: $m1 against $base"
passed=1
m2=$(span all rt_message_per_byte=1e-9 rt_message_per_byte_beyond=1e-8 \
  rt_message_per_byte_gather_beyond=1e-8 rt_cache_bytes=1)
[ "$m2" = "$dear" ] && awk -v a="$m2" -v b="$base" 'BEGIN { exit !(a > b) }' ||
  fail "every message beyond a 1-byte knee: $m2 s, wanted $dear s (10 ns/B everywhere), above $base"
passed=2
m3=$(span app rt_message_per_byte=1e-9 rt_message_per_byte_beyond=1e-9 \
  rt_message_per_byte_beyond@matmul=1e-8 rt_message_per_byte_gather_beyond@matmul=1e-8 \
  rt_cache_bytes=1)
[ "$m3" = "$dear" ] || fail "rt_message_per_byte_beyond@matmul: $m3 s, wanted $dear s"
passed=3
m4=$(span mid rt_message_per_byte=1e-9 rt_message_per_byte_beyond=1e-8 \
  rt_message_per_byte_gather_beyond=1e-8 rt_cache_bytes=307200)
echo "knee at 300 KiB: $m4 s"
awk -v a="$base" -v m="$m4" -v b="$dear" 'BEGIN { exit !(a < m && m < b) }' ||
  fail "a knee between the message sizes: $m4 s, wanted between $base and $dear"
passed=4
"$gen" --nodes 2 --cores 1 --cpu-prop rt_cache_bytes=-1 >"$tmp/bad.xml"
"$nw" "${mm[@]}" --platform "$tmp/bad.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "rt_cache_bytes" "$tmp/err" ||
  fail "rt_cache_bytes=-1: exit $rc, stderr: $(cat "$tmp/err")"
passed=5
o=$("$nw" "${mm[@]}" --platform "$tmp/base.xml") || fail "run on base"
g=$(field "$o" bytes_gathered) sv=$(field "$o" bytes_served)
echo "bytes_gathered $g, bytes_served $sv"
[ -n "$g" ] && [ "$g" = "$sv" ] && [ "$g" -gt 0 ] ||
  fail "bytes_gathered '${g:-}' against bytes_served '${sv:-}' with every input on node 0"
passed=6
m7=$(span gather rt_message_per_byte=1e-9 rt_message_per_byte_gather=1e-7)
e7=$(span gather_same rt_message_per_byte=1e-9 rt_message_per_byte_gather=1e-9)
echo "gathers at 100 ns/B: $m7 s; at 1 ns/B, written apart: $e7 s"
[ "$e7" = "$base" ] && awk -v a="$base" -v m="$m7" 'BEGIN { exit !(a < m) }' ||
  fail "gathers at 100 ns a byte: $m7 s, at the base's price: $e7 s; wanted above and equal to $base"
passed=7
echo "bytes_beyond_cache: all $passed passed"
