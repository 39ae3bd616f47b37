#!/usr/bin/env bash
# agglomeration_order.sh NARWHAL SRC_DIR APP ARGS...: dynamic agglomeration (README,
# "Agglomeration") on a platform whose GPU launches are slow (1 ms) beside a fast PCIe link, so
# that subtasks reach each GPU's FIFO faster than it launches them. The same run with
# --agglomerate 1 (the FIFO, one subtask per launch: the paper's "limit of 1") and 16, in one
# test: both equal the reference; with 16 some launch holds several subtasks, there are fewer
# launches, and the run is faster.
set -u
nw=$1 src=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$src/platforms/gen-platform.sh" --nodes 2 --cores 4 --core-speed 1Gf --gpus 1 --gpu-speed 10Gf \
  --gpu-mem 1073741824 --pcie-bw 10GBps --pcie-lat 1us --nic-bw 1GBps --nic-lat 10us \
  --backbone-bw 10GBps --backbone-lat 1us --gpu-prop launch_latency=1e-3 >"$tmp/slow-launch.xml"
# field KEY FILE: KEY's value in a run's JSON
field() { tr -d '\n' <"$2" | grep -oE "\"$1\":[[:space:]]*[^,}]*" | head -n1 | sed -E 's/.*:[[:space:]]*//'; }
for n in 1 16; do
  "$nw" run --platform "$tmp/slow-launch.xml" --devices cpu+gpu --gpu-streams 16 --agglomerate "$n" \
    --verify --json "$@" >"$tmp/$n.json" || { echo "agglomeration_order: the run with $n failed"; exit 1; }
  echo "--agglomerate $n: verified $(field verified "$tmp/$n.json"), makespan $(field makespan_s "$tmp/$n.json") s," \
    "$(field gpu_launches "$tmp/$n.json") launches for $(field gpu_launch_subtasks "$tmp/$n.json") subtasks," \
    "largest $(field gpu_launch_largest "$tmp/$n.json")"
done
ok=1
[ "$(field verified "$tmp/1.json")" = true ] && [ "$(field verified "$tmp/16.json")" = true ] || ok=0
[ "$(field gpu_launch_largest "$tmp/1.json")" = 1 ] && [ "$(field gpu_launch_largest "$tmp/16.json")" -gt 1 ] || ok=0
awk -v a="$(field makespan_s "$tmp/16.json")" -v b="$(field makespan_s "$tmp/1.json")" \
  -v la="$(field gpu_launches "$tmp/16.json")" -v sa="$(field gpu_launch_subtasks "$tmp/16.json")" \
  'BEGIN { exit !(a < b && la < sa) }' || ok=0
[ $ok -eq 1 ] && echo "agglomeration_order: 1 passed, 0 failed" && exit 0
echo "agglomeration_order: 0 passed, 1 failed"
exit 1
