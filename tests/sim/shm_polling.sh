#!/usr/bin/env bash
# shm_polling.sh NARWHAL SRC_DIR: nodes of one machine (rt_machine) move data through shared
# memory, as their event loops' polling on their cores, not on the network
# (backends/simgrid/sim_shm_poll.h). Two one-core nodes whose loop shares the core
# (rt_loop_weight=9.31), matmul 1024/256 with its inputs on node 0 (each block 1 MiB).
# 1. Machines apart (rt_machine differs) run as without rt_machine, to the bit; so does one
#    machine where the loop has a core of its own (no rt_loop_weight).
# 2. One machine, polling priced at the network's rate (rt_shm_poll_per_byte = 1 / 1 GB/s):
#    the kernels lose core time to the polling beside them (device busy time up by at least a
#    tenth of a loop's polling of every byte received), where the network took none; the run's
#    runtime_costs.shm_poll says what was charged (both sides of each data message).
# 3. One machine, polling at 100 ns a byte (a block's copy 0.1 s per loop, a hundredfold the
#    network's): slower than machines apart by at least one block's copy (node 1's first
#    subtask waits for its inputs) and by no more than every byte's copy one after another.
# 4. A measured share bounds the polling beside a kernel (rt_shm_poll_share=0.05, polling at
#    10 ns a byte): the transfers node 1 waits for take longer while node 0's kernels run (a
#    slower run), and the kernels lose the same CPU time to them (busy time within 1%).
# 5. An application's own price comes first: rt_shm_poll_per_byte@matmul=100 ns over a pooled
#    1 ns runs as a pooled 100 ns, to the bit, and one of another application changes nothing.
# 6. rt_shm_poll_share above 1 is refused: one line naming it, exit 2.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "shm_polling: $passed passed, 1 failed: $*"; exit 1; }
passed=0
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
busy() { field_sum "$1" busy_s; }

base=(--nodes 2 --cores 1 --nic-bw 1GBps --backbone-bw 1GBps --cpu-prop rt_message_per_byte=1e-10)
"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 >"$tmp/none.xml"
"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 --cpu-prop rt_machine=1 >"$tmp/same.xml"
sed '0,/rt_machine" value="1"/s//rt_machine" value="2"/' "$tmp/same.xml" >"$tmp/apart.xml"
grep -q 'value="2"' "$tmp/apart.xml" && grep -q 'value="1"' "$tmp/apart.xml" ||
  fail "could not make a platform with two machines"
"$gen" "${base[@]}" --cpu-prop rt_machine=1 >"$tmp/own_same.xml"
"$gen" "${base[@]}" >"$tmp/own.xml"
mm=(run --backend sim --app matmul --n 1024 --block 256 --placement node0 --json)
run() { "$nw" "${mm[@]}" --platform "$1" || fail "matmul on $1"; }

o_none=$(run "$tmp/none.xml") o_apart=$(run "$tmp/apart.xml")
m_none=$(field "$o_none" makespan_s) m_apart=$(field "$o_apart" makespan_s)
m_own=$(field "$(run "$tmp/own.xml")" makespan_s) m_own_same=$(field "$(run "$tmp/own_same.xml")" makespan_s)
echo "no machine said $m_none s, machines apart $m_apart s; a core of its own $m_own s, one machine $m_own_same s"
[ "$m_apart" = "$m_none" ] || fail "machines apart changed the run ($m_none -> $m_apart)"
[ "$m_own_same" = "$m_own" ] || fail "a loop with a core of its own polled ($m_own -> $m_own_same)"
passed=1

"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 --cpu-prop rt_machine=1 \
  --cpu-prop rt_shm_poll_per_byte=1e-9 >"$tmp/rate.xml"
o_rate=$(run "$tmp/rate.xml")
b_apart=$(busy "$o_apart") b_rate=$(busy "$o_rate") bytes=$(field "$o_rate" bytes_received)
echo "busy $b_apart s machines apart, $b_rate s polling at 1 ns a byte ($bytes bytes received)"
awk -v a="$b_apart" -v b="$b_rate" -v x="$bytes" 'BEGIN { exit !(x > 0 && b - a >= 0.1 * x * 1e-9) }' ||
  fail "polling beside the kernels did not slow them"
# What it charged, as runtime_costs.shm_poll: each data message polled on both sides, every
# byte on the wire (headers too) at 1 ns on each side.
sp=$(printf '%s' "$o_rate" | tr -d '\n' | grep -oE '"shm_poll":[[:space:]]*\{[^}]*\}')
n=$(field "$sp" count) c=$(field "$sp" cpu_seconds) w=$(field "$sp" bytes) d=$(field "$o_rate" messages_data)
echo "shm_poll reported: $n transfers polled, $w bytes, $c s of CPU; $d data messages"
awk -v n="$n" -v c="$c" -v w="$w" -v d="$d" -v x="$bytes" 'BEGIN {
  exit !(n == 2 * d && w >= 2 * x && w < 2.01 * x && c > w * 1e-9 * 0.999999 && c < w * 1e-9 * 1.000001) }' ||
  fail "runtime_costs.shm_poll did not say what the polling was charged"
passed=2

"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 --cpu-prop rt_machine=1 \
  --cpu-prop rt_shm_poll_per_byte=1e-7 >"$tmp/slow.xml"
o_slow=$(run "$tmp/slow.xml")
m_slow=$(field "$o_slow" makespan_s) sent=$(field "$o_slow" bytes_network)
echo "polling at 100 ns a byte: $m_slow s ($sent bytes sent), machines apart $m_apart s"
awk -v a="$m_apart" -v b="$m_slow" -v x="$sent" \
  'BEGIN { exit !(b - a >= 1048576 * 1e-7 && b - a <= x * 1e-7 + 1e-6) }' ||
  fail "the transfers did not take the loops' polling time"
passed=3

"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 --cpu-prop rt_machine=1 \
  --cpu-prop rt_shm_poll_per_byte=1e-8 >"$tmp/tenfold.xml"
"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 --cpu-prop rt_machine=1 \
  --cpu-prop rt_shm_poll_per_byte=1e-8 --cpu-prop rt_shm_poll_share=0.05 >"$tmp/share.xml"
o_ten=$(run "$tmp/tenfold.xml") o_share=$(run "$tmp/share.xml")
m_ten=$(field "$o_ten" makespan_s) m_share=$(field "$o_share" makespan_s)
b_ten=$(busy "$o_ten") b_share=$(busy "$o_share")
echo "polling at 10 ns a byte: $m_ten s (busy $b_ten s); bounded to 0.05 of a core beside a kernel: $m_share s (busy $b_share s)"
awk -v a="$m_ten" -v b="$m_share" -v x="$b_ten" -v y="$b_share" \
  'BEGIN { exit !(b > a && y > 0.99 * x && y < 1.01 * x) }' ||
  fail "rt_shm_poll_share did not stretch the polling beside the kernels alone"
passed=4

"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 --cpu-prop rt_machine=1 \
  --cpu-prop rt_shm_poll_per_byte=1e-9 --cpu-prop rt_shm_poll_per_byte@matmul=1e-7 >"$tmp/app.xml"
"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 --cpu-prop rt_machine=1 \
  --cpu-prop rt_shm_poll_per_byte=1e-7 --cpu-prop rt_shm_poll_per_byte@pagerank=1e-9 >"$tmp/other.xml"
m_app=$(field "$(run "$tmp/app.xml")" makespan_s) m_other=$(field "$(run "$tmp/other.xml")" makespan_s)
echo "rt_shm_poll_per_byte@matmul 100 ns over a pooled 1 ns: $m_app s; @pagerank beside a pooled 100 ns: $m_other s"
[ "$m_app" = "$m_slow" ] && [ "$m_other" = "$m_slow" ] ||
  fail "rt_shm_poll_per_byte@APP: $m_app s and $m_other s, wanted $m_slow s (100 ns a byte) for both"
passed=5

"$gen" "${base[@]}" --cpu-prop rt_loop_weight=9.31 --cpu-prop rt_machine=1 \
  --cpu-prop rt_shm_poll_share=1.5 >"$tmp/bad.xml"
"$nw" "${mm[@]}" --platform "$tmp/bad.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "rt_shm_poll_share" "$tmp/err" ||
  fail "rt_shm_poll_share=1.5: exit $rc, stderr: $(cat "$tmp/err")"
passed=6
echo "shm_polling: $passed passed, 0 failed"
