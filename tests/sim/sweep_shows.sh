#!/usr/bin/env bash
# sweep_shows.sh NARWHAL SRC_DIR NAME: runs experiments/NAME.json with `narwhal sweep` (from
# the source directory, where its platform paths point) into a temporary CSV, and checks what
# EXPERIMENTS.md says the sweep shows: an ordering between its rows, measured in the same run.
set -u
nw=$1 src=$2 name=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1
"$nw" sweep "experiments/$name.json" --csv "$tmp/out.csv" || { echo "sweep $name failed"; exit 1; }
# val COLUMN ROW: the value of COLUMN in the row whose first field is ROW; in a sweep of several
# keys, ROW is the first fields joined by '|' (A|B: first field A, second B).
val() {
  awk -F, -v c="$1" -v r="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
    { key = $1; hit = key == r; for (i = 2; i <= NF && !hit; i++) { key = key "|" $i; hit = key == r } }
    hit && k && !found { print $k; found = 1 } END { if (!found) print "missing" }' "$tmp/out.csv"
}
# less A_COL A_ROW B_COL B_ROW [FACTOR]: A * FACTOR < B
less() {
  a=$(val "$1" "$2") b=$(val "$3" "$4")
  echo "$1[$2] = $a; $3[$4] = $b; wanted $1[$2] * ${5:-1} < $3[$4]"
  awk -v a="$a" -v b="$b" -v f="${5:-1}" 'BEGIN { exit !(a != "missing" && b != "missing" && a * f < b) }' ||
    { echo "sweep_shows $name: 0 passed, 1 failed"; exit 1; }
}
# within COL ROW LO HI: LO < COL[ROW] < HI
within() {
  a=$(val "$1" "$2")
  echo "$1[$2] = $a; wanted between $3 and $4"
  awk -v a="$a" -v lo="$3" -v hi="$4" 'BEGIN { exit !(a != "missing" && a > lo && a < hi) }' ||
    { echo "sweep_shows $name: 0 passed, 1 failed"; exit 1; }
}
# near_best COL ROW FACTOR: COL[ROW] <= FACTOR * the smallest COL of any row
near_best() {
  a=$(val "$1" "$2")
  best=$(awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
    k && (m == "" || $k < m) { m = $k } END { print m == "" ? "missing" : m }' "$tmp/out.csv")
  echo "$1[$2] = $a; smallest $1 = $best; wanted $1[$2] <= $3 x smallest"
  awk -v a="$a" -v b="$best" -v f="$3" 'BEGIN { exit !(a != "missing" && b != "missing" && a <= f * b) }' ||
    { echo "sweep_shows $name: 0 passed, 1 failed"; exit 1; }
}
rows=$(($(wc -l <"$tmp/out.csv") - 1))
case $name in
matmul-scaling) # every doubling of nodes is faster; 14 nodes at least 10x one node
  less makespan_s 2 makespan_s 1
  less makespan_s 4 makespan_s 2
  less makespan_s 8 makespan_s 4
  less makespan_s 14 makespan_s 8
  less makespan_s 14 makespan_s 1 10 ;;
steal-policy) less steals_attempted two-level steals_attempted one-level 5 ;;
multi-assign) less makespan_s on makespan_s off ;;
prosteal) less makespan_s on makespan_s off ;;
pipeline) less makespan_s on makespan_s off ;;
work-groups) less makespan_s on makespan_s off ;;
locality) less bytes_network on bytes_network off
  less makespan_s on makespan_s off ;;
device-mix) less makespan_s gpu makespan_s cpu 5
  less makespan_s cpu+gpu makespan_s cpu 5 ;;
gpu-cache) # network-bound: every policy takes as long; MRU copies fewer bytes in (EXPERIMENTS.md)
  less bytes_h2d mru bytes_h2d lru
  less bytes_h2d lru bytes_h2d none ;;
sched-policies) # network-bound matmul: Unicorn's contiguous ranges and stealing lead; dmda's
  # data penalty moves fewer bytes than dm, which ignores data
  less makespan_s unicorn makespan_s dmda
  less bytes_network dmda bytes_network dm ;;
sched-policies-conv2d) # tiles spread at random: placing each subtask where its tile is wins
  less makespan_s dmda makespan_s unicorn 3
  less bytes_network dmda bytes_network dm ;;
sched-hetero) # a fast GPU beside slow cores: predicting each device's finish wins
  less makespan_s dmda makespan_s eager 5
  less makespan_s dmda makespan_s random 2 ;;
roofline-gemv) # equation (8)'s p puts most of gemv on the CPUs (bandwidth-bound on the GPUs'
  # PCIe) and runs within 5% of the best fixed p
  within roofline_p auto 0.5 1
  near_best makespan_s auto 1.05 ;;
roofline-cmeans) # most of C-means on the GPUs (compute-bound, points resident there); within 5%
  within roofline_p auto 0 0.5
  near_best makespan_s auto 1.05 ;;
roofline-vs-dynamic-gemv) # the static split is close to the dynamic policies; dmda, whose
  # model hides every transfer behind queued work, floods the PCIe-bound GPUs
  near_best makespan_s roofline 1.1
  less makespan_s roofline makespan_s dmda 3 ;;
roofline-vs-dynamic-cmeans) # a static split keeps each GPU's points cached across iterations;
  # stealing and a shared queue move subtasks, so the points are copied again
  less makespan_s roofline makespan_s unicorn 1.2
  less makespan_s roofline makespan_s eager 1.2
  less cache_misses roofline cache_misses unicorn ;;
mtc-bundle-k20x) # GeMTC's Fig. 9: 6,000 tasks/s unbundled (4000 tasks in 0.57-0.8 s), and
  # bundles of 100 at least 3x as many tasks/s (the paper: 22,000, 3.7x)
  within makespan_s 1 0.571 0.8
  less makespan_s 100 makespan_s 1 3
  less makespan_s 10 makespan_s 1
  less makespan_s 100 makespan_s 10 ;;
mtc-efficiency-k20x) # efficiency grows with the task's duration (GeMTC Figs. 20-21): bundling
  # caps short tasks at ~22,000 per second, long ones keep all 168 workers busy
  less gflops flops=2351190 gflops flops=23511905 5
  less gflops flops=23511905 gflops flops=235119048 5
  less gflops flops=235119048 gflops flops=23511904762
  within gflops flops=23511904762 3900 3950 ;;
mtc-vs-launch-k20x) # one-warp tasks: a launch each runs 32 at once (CUDA's concurrent kernels),
  # the resident kernel 168: from 10 ms a task many-task mode wins under either policy; launch
  # mode's rate stays near 32 warps' share of the GPU plus the cores (826 GFlop/s), which only
  # the one-warp bound (fill_threads) gives; tasks of 0.1 ms favour one launch each, whose 5 us
  # launch costs less than the fitted 44 us a many-task task pays on the host
  l=gpu-mode=launch\;gpu-streams=32 m=gpu-mode=many-task\;gpu-streams=256
  less makespan_s "flops=235119048|$m|unicorn" makespan_s "flops=235119048|$l|unicorn" 4
  less makespan_s "flops=235119048|$m|dmda" makespan_s "flops=235119048|$l|dmda" 4
  less makespan_s "flops=2351190476|$m|unicorn" makespan_s "flops=2351190476|$l|unicorn" 4
  within gflops "flops=2351190476|$l|unicorn" 700 830
  # dmda predicts a one-warp launch at its warps' share (nw_gpu_launch_share), so it gives the
  # cores their part as stealing does; taking the GPU's whole speed, it put all on the GPU
  less makespan_s "flops=2351190476|$l|dmda" makespan_s "flops=2351190476|$l|unicorn" 0.98
  less makespan_s "flops=2351190|$l|unicorn" makespan_s "flops=2351190|$m|unicorn"
  # dmda predicts a many-task lane through its GPU's one host stage and its bundle's wait
  # (nw_device_desc: stage_s, lane_s): on 0.1 ms tasks it gives the cores their share and
  # finishes before unicorn. Taking the 256 lanes for 256 devices, it kept 1668 of 1680 on the
  # GPU and took 1.8x unicorn's time
  less makespan_s "flops=2351190|$m|dmda" makespan_s "flops=2351190|$m|unicorn" ;;
agglomeration-policies) # agglomeration gains under either policy, most on small cells
  # (Lifflander et al., Figs. 5-6): at least 1.4x at 2560 particles, less at 102400
  for p in unicorn dmda; do
    less makespan_s "n=2560;block=10|32|$p" makespan_s "n=2560;block=10|1|$p" 1.4
    less makespan_s "n=102400;block=400|32|$p" makespan_s "n=102400;block=400|1|$p"
    g_small=$(awk -v a="$(val makespan_s "n=2560;block=10|1|$p")" -v b="$(val makespan_s "n=2560;block=10|32|$p")" 'BEGIN { print a / b }')
    g_large=$(awk -v a="$(val makespan_s "n=102400;block=400|1|$p")" -v b="$(val makespan_s "n=102400;block=400|32|$p")" 'BEGIN { print a / b }')
    echo "$p: gain $g_small at 2560, $g_large at 102400; wanted the first larger"
    awk -v s="$g_small" -v l="$g_large" 'BEGIN { exit !(s > l) }' ||
      { echo "sweep_shows $name: 0 passed, 1 failed"; exit 1; }
  done ;;
prefetch-priority) [ "$rows" -eq 2 ] || { echo "sweep_shows $name: $rows rows, wanted 2"; exit 1; } ;;
*) echo "sweep_shows: no check for $name"; exit 2 ;;
esac
echo "sweep_shows $name: 1 passed, 0 failed"
