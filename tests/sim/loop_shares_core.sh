#!/usr/bin/env bash
# loop_shares_core.sh NARWHAL SRC_DIR: on a calibrated platform whose nodes' event loop has no
# core of its own (rt_loop_weight, rt_spin: backends/simgrid/sim_costs.h), the loop's work
# takes the node's core from the kernels at its weight.
# 1. Spin, exactly: a chain of 50 tasks of one subtask, each 10 ms by the model, on one core.
#    After each launch the loop spins 1 ms at weight 3 while the kernel runs at weight 1, so
#    the kernel computes 0.25 ms in that 1 ms and ends 0.75 ms later than alone: the makespan
#    grows by a whole number k of 0.75 ms, k at least 50 (one per task) and at most 60.
# 2. The same with rt_spin_share=0.2 (a spin measured taking a fifth of a core beside a
#    kernel): the kernel computes 0.8 ms in each 1 ms spin, so the makespan grows by a whole
#    number k of 0.2 ms, k from 50 to 60, as many spins as in 1.
# 3. Handling, as an ordering: matmul with its inputs on node 0 across two one-core nodes,
#    messages costing 4 ns a byte to handle: the kernels are slower when the loop shares their
#    core (no spin) than when it has its own, by at least a tenth of the handling's total.
# 4. rt_spin_share above 1 is refused: one line, exit 2.
# 5. Copies priced per row run (rt_message_per_run=0.1 ms, large enough to reach the critical
#    path): matmul as in 3, a loop with a core of its own; the runs its copies moved
#    (copy_runs, the same in both runs) make it slower, by more than nothing and by no more
#    than every run's price paid one after the other.
# 6. rt_pickup, 7. rt_pickup@APP, 8. no rt_pickup between a slowed node's kernels, 9. a
#    pickup ends with the kernel beside it: see below.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "loop_shares_core: $passed passed, 1 failed: $*"; exit 1; }
passed=0
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"

"$gen" --nodes 1 --cores 1 >"$tmp/own.xml"
"$gen" --nodes 1 --cores 1 --cpu-prop rt_loop_weight=3 --cpu-prop rt_spin=1e-3 >"$tmp/shared.xml"
chain=(run --backend sim --app chain --n 50 --block 1 --json)
"$nw" "${chain[@]}" --platform "$tmp/own.xml" --calibrate on --perfmodel "$tmp/m.json" >/dev/null ||
  fail "the calibration run"
sed -E 's/("mean":[[:space:]]*)[0-9.eE+-]+/\10.01/; s/("stddev":[[:space:]]*)[0-9.eE+-]+/\10/' \
  "$tmp/m.json" >"$tmp/t.json"
# Each platform's own copy of the model: a model names the platform it was measured on.
sed -E 's/("platform":[[:space:]]*")[^"]*"/\1shared.xml"/' "$tmp/t.json" >"$tmp/ts.json"
o1=$("$nw" "${chain[@]}" --platform "$tmp/own.xml" --perfmodel "$tmp/t.json") || fail "own core"
o2=$("$nw" "${chain[@]}" --platform "$tmp/shared.xml" --perfmodel "$tmp/ts.json") || fail "shared core"
m1=$(field "$o1" makespan_s) m2=$(field "$o2" makespan_s)
echo "chain: $m1 s with a core of its own, $m2 s sharing it"
awk -v a="$m1" -v b="$m2" 'BEGIN { k = (b - a) / 0.75e-3; r = int(k + 0.5)
  printf "extra / 0.75 ms = %.6f\n", k; exit !(k - r < 1e-4 && r - k < 1e-4 && r >= 50 && r <= 60) }' ||
  fail "the spin did not slow each kernel by 0.75 ms"
passed=1

"$gen" --nodes 1 --cores 1 --cpu-prop rt_loop_weight=3 --cpu-prop rt_spin=1e-3 \
  --cpu-prop rt_spin_share=0.2 >"$tmp/bounded.xml"
sed -E 's/("platform":[[:space:]]*")[^"]*"/\1bounded.xml"/' "$tmp/t.json" >"$tmp/tb.json"
o3=$("$nw" "${chain[@]}" --platform "$tmp/bounded.xml" --perfmodel "$tmp/tb.json") || fail "bounded spin"
m3=$(field "$o3" makespan_s)
echo "chain: $m3 s with spins bounded to 0.2 of the core"
awk -v a="$m1" -v b="$m3" 'BEGIN { k = (b - a) / 0.2e-3; r = int(k + 0.5)
  printf "extra / 0.2 ms = %.6f\n", k; exit !(k - r < 1e-4 && r - k < 1e-4 && r >= 50 && r <= 60) }' ||
  fail "a spin bounded to 0.2 of the core did not slow each kernel by 0.2 ms"
passed=2

"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_byte=4e-9 >"$tmp/own2.xml"
"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_byte=4e-9 --cpu-prop rt_loop_weight=9.31 \
  >"$tmp/shared2.xml"
mm=(run --backend sim --app matmul --n 1024 --block 256 --placement node0 --json)
o1=$("$nw" "${mm[@]}" --platform "$tmp/own2.xml") || fail "matmul, own core"
o2=$("$nw" "${mm[@]}" --platform "$tmp/shared2.xml") || fail "matmul, shared core"
m1=$(field "$o1" makespan_s) m2=$(field "$o2" makespan_s)
busy1=$(field_sum "$o1" busy_s) busy2=$(field_sum "$o2" busy_s)
bytes=$(field "$o2" bytes_received)
echo "matmul: busy $busy1 s, makespan $m1 s with a core of its own; busy $busy2 s, $m2 s sharing it ($bytes bytes received)"
awk -v a="$busy1" -v b="$busy2" -v x="$bytes" 'BEGIN { exit !(x > 0 && b - a >= 0.1 * x * 4e-9) }' ||
  fail "handling messages on the shared core did not slow the kernels"
passed=3

# 4. A share above a whole core is refused with one line naming the property, exit 2.
"$gen" --nodes 1 --cores 1 --cpu-prop rt_loop_weight=3 --cpu-prop rt_spin=1e-3 \
  --cpu-prop rt_spin_share=1.5 >"$tmp/bad.xml"
"$nw" "${chain[@]}" --platform "$tmp/bad.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "rt_spin_share" "$tmp/err" ||
  fail "rt_spin_share=1.5: exit $rc, stderr: $(cat "$tmp/err")"
passed=4

"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_byte=4e-9 --cpu-prop rt_message_per_run=1e-4 \
  >"$tmp/runs2.xml"
o5=$("$nw" "${mm[@]}" --platform "$tmp/runs2.xml") || fail "matmul, priced runs"
m5=$(field "$o5" makespan_s) r1=$(field "$o1" copy_runs) r5=$(field "$o5" copy_runs)
echo "matmul: $m1 s, $m5 s with 0.1 ms a run; copy_runs $r1 and $r5"
awk -v a="$m1" -v b="$m5" -v r="$r5" -v q="$r1" 'BEGIN { exit !(r > 0 && r == q && b > a && b - a <= r * 1e-4 + 1e-9) }' ||
  fail "the row runs were not priced as rt_message_per_run says"
passed=5

# 6. A message to a loop that waits beside a running kernel is seen later, by draws of mean
#    rt_pickup: matmul as in 3 with rt_pickup=2 ms is slower than without, by less than three
#    times the mean a message received (an exponential's sum over 42 draws stays well below);
#    the same seed gives the same makespan to the bit; a loop with a core of its own ignores
#    rt_pickup (the same makespan as without, to the bit).
"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_byte=4e-9 --cpu-prop rt_loop_weight=9.31 \
  --cpu-prop rt_pickup=2e-3 >"$tmp/pickup2.xml"
"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_byte=4e-9 --cpu-prop rt_pickup=2e-3 \
  >"$tmp/ownpickup2.xml"
o6=$("$nw" "${mm[@]}" --platform "$tmp/pickup2.xml") || fail "matmul, rt_pickup"
o7=$("$nw" "${mm[@]}" --platform "$tmp/ownpickup2.xml") || fail "matmul, rt_pickup, own core"
m6=$(field "$o6" makespan_s) m7=$(field "$o7" makespan_s)
msgs=$(($(field "$o6" messages_control) + $(field "$o6" messages_data)))
echo "matmul: $m2 s sharing the core, $m6 s with rt_pickup 2 ms ($msgs messages); own core $m1 s, $m7 s"
awk -v a="$m2" -v b="$m6" -v n="$msgs" 'BEGIN { exit !(n > 0 && b > a && b - a <= 3 * n * 2e-3) }' ||
  fail "rt_pickup did not delay the messages a waiting loop sees beside a kernel"
again=$(field "$("$nw" "${mm[@]}" --platform "$tmp/pickup2.xml")" makespan_s)
[ "$again" = "$m6" ] || fail "rt_pickup's draws are not the seed's: $m6 then $again"
[ "$m7" = "$m1" ] || fail "rt_pickup changed a run whose loop has a core of its own ($m1 -> $m7)"
passed=6

# 7. An application's own rt_pickup@APP comes before the pooled one: matmul with
#    rt_pickup@matmul=2 ms over a pooled 0.1 ms runs as with a pooled 2 ms (to the bit), and an
#    rt_pickup@ of another application changes nothing.
"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_byte=4e-9 --cpu-prop rt_loop_weight=9.31 \
  --cpu-prop rt_pickup=1e-4 --cpu-prop rt_pickup@matmul=2e-3 >"$tmp/apppickup.xml"
"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_byte=4e-9 --cpu-prop rt_loop_weight=9.31 \
  --cpu-prop rt_pickup=2e-3 --cpu-prop rt_pickup@pagerank=1e-4 >"$tmp/otherpickup.xml"
m8=$(field "$("$nw" "${mm[@]}" --platform "$tmp/apppickup.xml")" makespan_s)
m9=$(field "$("$nw" "${mm[@]}" --platform "$tmp/otherpickup.xml")" makespan_s)
echo "matmul: $m8 s with rt_pickup@matmul 2 ms, $m9 s with rt_pickup@pagerank beside a pooled 2 ms"
[ "$m8" = "$m6" ] && [ "$m9" = "$m6" ] ||
  fail "rt_pickup@APP: $m8 s and $m9 s, wanted $m6 s (the pooled 2 ms) for both"
passed=7

# 8. A slowed node (--slow) computes slower and that is all: between its kernels its loop sees
#    messages as an unslowed node's does (on hardware its kernels hold their core longer,
#    backends/real/real_backend.c, hold_slowed; nothing runs between them). Matmul as in 6 with
#    node 1 slowed twofold from the start: the messages an idle node 1 got from an idle node 0
#    waited a median under 0.15 ms (the route and the handling), as when slowed only from
#    1000 s on, after the run; a pickup drawn beside a load (mean rt_pickup, 2 ms) would
#    exceed 0.3 ms with odds of 86%. scripts/message-delays.py reads the traces.
delays() {
  "$nw" "${mm[@]}" --platform "$tmp/pickup2.xml" --slow "$1" --trace "$tmp/t8.json" >/dev/null &&
    python3 "$src/scripts/message-delays.py" "$tmp/t8.json" |
    sed -nE 's/^  to node 1, kernel at sender no +at receiver no +: +[0-9]+ messages, median +([0-9]+) us.*/\1/p'
}
slowed=$(delays 1:2) || fail "matmul, node 1 slowed"
idle=$(delays 1:2@1000) || fail "matmul, node 1 slowed after the run"
echo "messages to an idle node 1 from an idle node 0: median $slowed us slowed, $idle us not yet"
[ -n "$slowed" ] && [ -n "$idle" ] && [ "$slowed" -lt 150 ] && [ "$idle" -lt 150 ] ||
  fail "a slowed node's loop saw messages late between its kernels ($slowed us, $idle us)"
passed=8

# 9. A pickup lasts at most until a kernel of the node ends (its core is free: on hardware the
#    compute thread handles what is queued at once). Matmul as in 6 with rt_pickup=100 s: the
#    draws (mean 100 s) would keep a message waiting for minutes beside a kernel of
#    milliseconds; cut short, each message waits no longer than the kernel it came beside,
#    and the run takes at most twice the run without pickup (m2).
"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_byte=4e-9 --cpu-prop rt_loop_weight=9.31 \
  --cpu-prop rt_pickup=100 >"$tmp/pickup100.xml"
o9=$("$nw" "${mm[@]}" --platform "$tmp/pickup100.xml") || fail "matmul, rt_pickup 100 s"
m10=$(field "$o9" makespan_s)
echo "matmul: $m2 s sharing the core, $m10 s with rt_pickup 100 s"
awk -v a="$m2" -v b="$m10" 'BEGIN { exit !(b >= a && b <= 2 * a) }' ||
  fail "a pickup outlasted the kernel beside it: $m10 s against $m2 s without"
passed=9
echo "loop_shares_core: 9 passed, 0 failed"
