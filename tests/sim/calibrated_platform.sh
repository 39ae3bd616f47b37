#!/usr/bin/env bash
# calibrated_platform.sh NARWHAL SRC_DIR: the simulator charges a calibrated platform's costs
# (README, "Calibration"; backends/simgrid/sim_costs.h).
# 1. Runtime costs: a chain of 50 tiny tasks on one core, with every event costing c, then 2c.
#    Going from c to 2c adds exactly c per event handled inside the makespan (an integer
#    count k, every event of the run but the few before the first submission and after the
#    last completion); cost 0 runs as an uncalibrated platform. The run's runtime_costs say
#    what was charged: each event handled, 2c of CPU each. Costs fitted to one
#    application (KEY@APP) are that application's alone. A new view's page costs rt_page_fresh
#    and rt_KIND_per_view_page above it.
# 2. Kernel durations: with a model saying a subtask's kernel takes T, the devices are busy
#    subtasks x (T + the two hand-offs) (within 0.1%) on a platform that also charges event
#    costs: a measured duration is the kernel's alone (as the real backend measures it), and
#    the hand-offs come around it, as they do on hardware.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "calibrated_platform: 0 passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
# props SUFFIX VALUE: the property rt_KIND SUFFIX = VALUE for every kind of event.
props() { for k in message exec_done timer driver copy_done; do printf -- '--cpu-prop rt_%s%s=%s ' "$k" "$1" "$2"; done; }
costs() { props "" "$1"; }
"$gen" --nodes 1 --cores 1 >"$tmp/c0.xml"
# shellcheck disable=SC2046
"$gen" --nodes 1 --cores 1 $(costs 1e-3) >"$tmp/c1.xml"
# shellcheck disable=SC2046
"$gen" --nodes 1 --cores 1 $(costs 2e-3) >"$tmp/c2.xml"
chain=(run --backend sim --app chain --n 50 --block 1 --json)
o0=$("$nw" "${chain[@]}" --platform "$tmp/c0.xml") || fail "run on the cost-free platform"
o1=$("$nw" "${chain[@]}" --platform "$tmp/c1.xml") || fail "run with 1 ms per event"
o2=$("$nw" "${chain[@]}" --platform "$tmp/c2.xml") || fail "run with 2 ms per event"
m0=$(field "$o0" makespan_s) m1=$(field "$o1" makespan_s) m2=$(field "$o2" makespan_s)
events=$(field "$o2" events_handled)
echo "makespans: $m0 s (no cost), $m1 s (1 ms/event), $m2 s (2 ms/event); $events events"
awk -v a="$m1" -v b="$m2" -v e="$events" 'BEGIN {
  k = (b - a) / 1e-3; r = int(k + 0.5)
  printf "2 ms - 1 ms per event: %.9f events charged\n", k
  exit !(k - r < 1e-6 && r - k < 1e-6 && r <= e && r >= 0.9 * e) }' ||
  fail "the makespan did not grow by 1 ms per event handled"
awk -v a="$m0" 'BEGIN { exit !(a < 0.01) }' || fail "the cost-free platform charged $m0 s"
# 1a. What was charged is reported as the real backend reports what it measured (runtime_costs):
#     every event handled, 2 ms of CPU each; none on the cost-free platform.
charged=$(field_sum "$o2" cpu_seconds) counted=$(field_sum "$o2" events)
echo "runtime_costs: $counted events, $charged s of CPU charged"
awk -v c="$charged" -v n="$counted" -v e="$events" 'BEGIN {
  exit !(n == e && c > n * 2e-3 * 0.999999 && c < n * 2e-3 * 1.000001) }' ||
  fail "runtime_costs said $counted events and $charged s, not $events at 2 ms"
case $o0 in *runtime_costs*) fail "the cost-free platform's run reported runtime_costs" ;; esac

# 1b. An application's own costs (KEY@APP, written by calibrate per workload's application)
#     replace the pooled ones for that application only: chain with 2 ms as its own runs exactly
#     as with 2 ms pooled; costs of another application's leave it at 1 ms.
own() { props "@$1" "$2"; }
# shellcheck disable=SC2046
"$gen" --nodes 1 --cores 1 $(costs 1e-3) $(own chain 2e-3) >"$tmp/own.xml"
# shellcheck disable=SC2046
"$gen" --nodes 1 --cores 1 $(costs 1e-3) $(own matmul 2e-3) >"$tmp/other.xml"
mo=$(field "$("$nw" "${chain[@]}" --platform "$tmp/own.xml")" makespan_s)
mx=$(field "$("$nw" "${chain[@]}" --platform "$tmp/other.xml")" makespan_s)
echo "chain's own 2 ms: $mo s (pooled 2 ms: $m2 s); matmul's own 2 ms: $mx s (pooled 1 ms: $m1 s)"
[ "$mo" = "$m2" ] && [ "$mx" = "$m1" ] || fail "an application's own costs were not taken for it alone"

# 1c. A new view's page costs rt_page_fresh, and rt_KIND_per_view_page above it in an event of
#     that kind: adding 2 us a view page to every kind adds 2 us of CPU charged per page of the
#     run's view_pages_fresh.
"$gen" --nodes 1 --cores 2 --cpu-prop rt_page_fresh=1e-6 >"$tmp/v1.xml"
# shellcheck disable=SC2046
"$gen" --nodes 1 --cores 2 --cpu-prop rt_page_fresh=1e-6 $(props _per_view_page 2e-6) >"$tmp/v2.xml"
lu=(run --backend sim --app lu --n 1152 --block 96 --json)
ov1=$("$nw" "${lu[@]}" --platform "$tmp/v1.xml") || fail "lu with rt_page_fresh"
ov2=$("$nw" "${lu[@]}" --platform "$tmp/v2.xml") || fail "lu with rt_KIND_per_view_page"
c1=$(field_sum "$ov1" cpu_seconds) c2=$(field_sum "$ov2" cpu_seconds)
pages=$(field "$ov2" view_pages_fresh)
echo "lu 1152/96: $pages new view pages; CPU charged $c1 s, $c2 s with 2 us a view page more"
awk -v a="$c1" -v b="$c2" -v p="$pages" 'BEGIN {
  d = b - a; w = p * 2e-6; exit !(p > 1000 && d > w * 0.999999 && d < w * 1.000001) }' ||
  fail "rt_KIND_per_view_page added $c2 - $c1 s for $pages pages, not 2 us each"

# shellcheck disable=SC2046
"$gen" --nodes 1 --cores 2 $(costs 1e-4) --cpu-prop rt_launch=3e-4 --cpu-prop rt_done=5e-4 \
  >"$tmp/cal.xml"
common=(run --backend sim --platform "$tmp/cal.xml" --n 512 --block 128 --json)
out=$("$nw" "${common[@]}" --calibrate on --perfmodel "$tmp/model.json") || fail "calibration run"
sed -E 's/("mean":[[:space:]]*)[0-9.eE+-]+/\10.25/; s/("stddev":[[:space:]]*)[0-9.eE+-]+/\10/' \
  "$tmp/model.json" >"$tmp/t.json"
out=$("$nw" "${common[@]}" --perfmodel "$tmp/t.json") || fail "run with the model"
subtasks=$(field "$out" subtasks)
busy=$(printf '%s' "$out" | grep -oE '"busy_s":[[:space:]]*[0-9.eE+-]+' |
  awk -F: '{ s += $2 } END { printf "%.9f", s }')
echo "busy seconds of all devices: $busy (wanted $subtasks x (0.25 + 3e-4 + 5e-4))"
awk -v b="$busy" -v n="$subtasks" 'BEGIN { w = n * 0.2508; exit !(n == 16 && b > w * 0.999 && b < w * 1.001) }' ||
  fail "busy $busy s for $subtasks subtasks of 0.25 s and 0.8 ms of hand-offs"
echo "calibrated_platform: 5 passed, 0 failed"
