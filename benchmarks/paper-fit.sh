#!/usr/bin/env bash
# paper-fit.sh [BUILD_DIR]: fits the paper cluster's model to three numbers of the Unicorn paper
# (Beri, Bansal, Kumar, "The Unicorn Runtime: Efficient Distributed Shared Memory Programming
# for Hybrid CPU-GPU Clusters", IEEE TPDS, section 5.2), then predicts the paper's other stated
# figures with the original model (platforms/paper-cluster.xml) and the fitted one
# (platforms/paper-cluster-fitted.xml) and prints both errors
# (docs/experiments/paper-cluster-fitted.md).
#
# Fitted, in this order:
#  1. the CPUs against the GPUs: a node's CPU cores together an order of magnitude slower than
#     one GPU ("GPUs being an order of magnitude faster than CPUs", section 5.2 on Figs. 5-7):
#     --core-speed is the GPU speed / (10 x 12 cores), tied to it in the next two steps. The
#     data sheet's cores (19.2 Gf each) make a node's CPUs half a GPU, which puts a fifth of
#     the subtasks on CPUs where the paper saw fewer than 2%.
#  2. --gpu-speed, by bisection, to the one-node matmul rate: 7.88 TFlop/s / 7.34 (the 14-node
#     rate over the 14-node speed-up) = 1073.6 GFlop/s. One node moves nothing over the network.
#  3. --nic-bw, by bisection, to the 14-node matmul rate, 7.88 TFlop/s, with the speeds of 1-2.
# Everything else stays as platforms/README.md documents it (NIC latency 2 us, PCIe 6 GB/s).
# The per-transfer cost (--nic-lat) is not fitted: the last lines show that the matmul rates
# hardly move with it, so these figures cannot pin it down.
#
# Predicted: the paper's other stated numbers (sections 5.2, 5.3, 5.6.1, 5.6.2 and the table of
# Fig. 21), on matmul and on conv2d. conv2d runs the paper's image convolution (a 31 x 31 filter
# on a 24-bit image: --app-param radius=15 channels=3 channel_bytes=1, 5766 flop and 3 bytes a
# pixel) with a performance-model file (--perfmodel) that gives each subtask those flops at its
# device's rate (a GPU's launch added, and CONV_EFF below).
# Averages run over 1, 2, 4, 8 and 14 nodes (the paper does not say over which); one seed.
# Errors: |model - paper| / paper; for a stated range ("fewer than 2%", "3-4x") 0 inside it,
# else the distance to its nearest end over that end.
#
# The rows that depend on how fast the CPUs are against the GPUs (their share of the subtasks,
# multi-assign's gain) get notes from the 14-node runs again with seeds 1-3 and with the data
# sheet's cores. A performance model that leaves a subtask unpriced stops the script (exit 1).
#
# CONV_EFF (environment, default 1): conv2d's kernel rate on both devices as a fraction of the
# platform's (SGEMM-fitted) rate, in the hand-made conv2d model; an experiment's knob
# (docs/experiments/paper-cluster-fitted.md, "conv2d's kernel rate"), not part of the fit.
#
# About 120 simulations of 0.1-0.7 s each, one at a time: about 30 s on one core.
# The fit is checked against the checked-in platforms/paper-cluster-fitted.xml (a line says
# whether they agree); the predictions use the checked-in files.
#
# With PAPER_ROWS / PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) it also writes the table
# as CSV and each figure with a paper value beside it, once per platform
# (experiments/paper/rows.sh); the printed output is the same either way.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
nw=$build/narwhal
[ -x "$nw" ] || { echo "paper-fit: $nw not built" >&2; exit 2; }
. experiments/paper/rows.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The paper's set-up (section 5): 65536 x 65536 inputs in 2048 x 2048 blocks spread at random,
# CPU work-groups beside two GPUs per node. Seed 1: matmul places A with seed 1 and B with 2.
n=65536 block=2048
base=(--backend sim --n "$n" --block "$block" --data phantom --devices cpu+gpu --work-groups on)
nodes_list=(1 2 4 8 14)
original=platforms/paper-cluster.xml # the data sheet's model, before the fit
cores=12 cpu_ratio=10 # step 1 of the fit: a node's CPUs a tenth of a GPU
paper_node=(--cores "$cores" --gpus 2 --gpu-mem 6442450944 --pcie-bw 6GBps
  --pcie-lat 10us --nic-lat 2us --backbone-bw 100GBps --backbone-lat 0.5us)
rate1=$(awk 'BEGIN { printf "%.4f", 7880 / 7.34 }') rate14=7880
moved14=248.5 comm14=43.81 # section 5.2: matmul's GB moved and % of its time communicating

# key FILE NAME: a top-level number of a run's --json output.
key() { sed -n "s/^\t\"$2\":\t\([0-9.e+-]*\),*$/\1/p" "$1"; }
# cpu_share FILE: percent of executed subtasks that ran on CPU work-groups.
cpu_share() {
  awk '/^\t\t\t"kind":/ { k = $2 } /^\t\t\t"subtasks":/ { s[k] += $2; t += $2 }
       END { printf "%.4f", 100 * s["\"cpu\","] / t }' "$1"
}
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }

# run OUT PLATFORM APP NODES [OPTIONS...]: one simulation, its JSON in OUT. A performance model
# that leaves a subtask unpriced stops the script: its rows would take the cost model's flops.
# conv2d is the paper's (above); conv2d-builtin the app's default 5 x 5 filter on one float
# channel.
run() {
  local out=$1 platform=$2 app=$3 nodes=$4 params=()
  shift 4
  case $app in
  conv2d) params=(--app-param radius=15 --app-param channels=3 --app-param channel_bytes=1) ;;
  conv2d-builtin) app=conv2d ;;
  esac
  "$nw" run --app "$app" --platform "$platform" --nodes "$nodes" "${base[@]}" \
    ${params[@]+"${params[@]}"} "$@" --json >"$out" 2>"$out.err"
  cat "$out.err" >&2
  if grep -q 'could not time' "$out.err"; then
    echo "paper-fit: $app on $nodes nodes: the performance model did not price every subtask" >&2
    exit 1
  fi
}

# perfmodel PLATFORM: a performance-model file giving every conv2d subtask the paper's filter
# cost at the platform's device rates (a GPU's 5 us launch included, as a measured model holds
# it), for each of the three tile shapes (inner, edge, corner) and every work-group size.
fnv() { # nw_perf_footprint (core/sched/perfmodel.c): FNV-1a over the sizes' 8 bytes each
  local h=$((0xcbf29ce484222325)) s b
  for s in "$@"; do
    for ((b = 0; b < 8; b++)); do h=$(((h ^ ((s >> (8 * b)) & 255)) * 0x100000001b3)); done
  done
  printf '%016x' "$h"
}
# A footprint ends with the bits of the cost model's flops of the subtask as a double
# (nw_perf_footprint_flops): the paper's filter's, 2 x 31 x 31 x 3 per pixel of the tile
# (apps/conv2d/conv2d_kind.c).
radius=15 px=3
cost_flops=$((2 * 31 * 31 * 3 * block * block))
cost_bits=$(perl -e 'printf "%u", unpack("Q<", pack("d<", $ARGV[0]))' "$cost_flops")
# host_gf PLATFORM HOST: the speed in Gf of node 0's HOST (cpu: one core; gpu0).
host_gf() { sed -n "s/.*id=\"n0-$2\" speed=\"\([0-9.]*\)Gf\".*/\1/p" "$1"; }
perfmodel() {
  local platform=$1 gpu core flops out=$((block * block * px)) arch t sep="" sep2 r
  gpu=$(host_gf "$platform" gpu0) core=$(host_gf "$platform" cpu)
  flops=$(calc "2 * 31 * 31 * 3 * $block * $block")
  printf '{"narwhal-perfmodel": 1, "platform": "%s", "models": [' "$(basename "$platform")"
  for arch in gpu cpu cpu{2..12}; do
    case $arch in
    gpu) t=$(calc "$flops / (${CONV_EFF:-1} * $gpu * 1e9) + 5e-6") ;;
    cpu) t=$(calc "$flops / (${CONV_EFF:-1} * $core * 1e9)") ;;
    *) t=$(calc "$flops / (${CONV_EFF:-1} * ${arch#cpu} * $core * 1e9)") ;;
    esac
    printf '%s{"kind": "conv2d", "arch": "%s", "history": [' "$sep" "$arch"
    sep=", " sep2=""
    # read bytes: the tile widened by the radius on 2, 1 (edge) or 0 (corner) sides
    for r in $(((block + 2 * radius) * (block + 2 * radius) * px)) \
      $(((block + 2 * radius) * (block + radius) * px)) \
      $(((block + radius) * (block + radius) * px)); do
      printf '%s{"footprint": "%s", "size": %d, "count": 10, "mean": %s, "stddev": 0}' \
        "$sep2" "$(fnv "$r" 0 0 "$out" "$cost_bits")" $((r + out)) "$t"
      sep2=", "
    done
    printf ']}'
  done
  printf ']}\n'
}

# --- the fit ------------------------------------------------------------------------------
core_of() { calc "$1 / ($cpu_ratio * $cores)"; } # core_of GPU_GF: a core's Gf (step 1)
fitplat() { # fitplat GPU_GF NIC_MBPS: the paper node with these two changed, its cores tied
  platforms/gen-platform.sh --nodes 14 "${paper_node[@]}" --core-speed "$(core_of "$1")Gf" \
    --gpu-speed "$1Gf" --nic-bw "$2MBps" >"$tmp/fit.xml"
}
gflops() { run "$tmp/fit.json" "$tmp/fit.xml" matmul "$1" && key "$tmp/fit.json" gflops; }

# GPU speed in tenths of a Gf: bisect [100, 1030] Gf (the M2070's peak) on the 1-node rate.
lo=1000 hi=10300
while [ $((hi - lo)) -gt 1 ]; do
  mid=$(((lo + hi) / 2))
  fitplat "$(calc "$mid / 10")" 4000
  if awk -v r="$(gflops 1)" -v t="$rate1" 'BEGIN { exit !(r < t) }'; then lo=$mid; else hi=$mid; fi
done
for g in $lo $hi; do fitplat "$(calc "$g / 10")" 4000 && echo "$g $(gflops 1)"; done >"$tmp/g"
gpu=$(awk -v t="$rate1" '{ d = $2 - t; if (d < 0) d = -d; if (NR == 1 || d < best) { best = d; g = $1 } }
  END { printf "%.1f", g / 10 }' "$tmp/g")
# NIC bandwidth in MBps: bisect [100, 4000] (4000: 32 Gbps) on the 14-node rate.
lo=100 hi=4000
while [ $((hi - lo)) -gt 1 ]; do
  mid=$(((lo + hi) / 2))
  fitplat "$gpu" "$mid"
  if awk -v r="$(gflops 14)" -v t="$rate14" 'BEGIN { exit !(r < t) }'; then lo=$mid; else hi=$mid; fi
done
for b in $lo $hi; do fitplat "$gpu" "$b" && echo "$b $(gflops 14)"; done >"$tmp/b"
nic=$(awk -v t="$rate14" '{ d = $2 - t; if (d < 0) d = -d; if (NR == 1 || d < best) { best = d; b = $1 } }
  END { print b }' "$tmp/b")
core=$(core_of "$gpu")
echo "fit: --core-speed ${core}Gf (from $(host_gf "$original" cpu)Gf), --gpu-speed ${gpu}Gf (from 650Gf), --nic-bw ${nic}MBps (from 4GBps)"
fitted=platforms/paper-cluster-fitted.xml
if grep -q "id=\"n0-gpu0\" speed=\"${gpu}Gf\"" "$fitted" 2>/dev/null &&
  grep -q "id=\"n0-cpu\" speed=\"${core}Gf\"" "$fitted" &&
  grep -q "id=\"n0-nic\" bandwidth=\"${nic}MBps\"" "$fitted"; then
  echo "fit: $fitted holds these values"
else
  echo "fit: $fitted does not hold these values; regenerate it (its header has the command)"
fi
echo

# --- predictions ----------------------------------------------------------------------------
# collect PLATFORM TAG: every run the figures need, JSON files under $tmp/TAG-*.
collect() {
  local p=$1 tag=$2 k
  perfmodel "$p" >"$tmp/$tag-pm.json"
  for k in "${nodes_list[@]}"; do
    run "$tmp/$tag-mm-$k.json" "$p" matmul "$k"
    run "$tmp/$tag-mm-ma-$k.json" "$p" matmul "$k" --multi-assign off
    run "$tmp/$tag-mm-one-$k.json" "$p" matmul "$k" --steal-policy one-level
    for v in "" "--multi-assign off" "--steal-policy one-level" "--pipeline off"; do
      # shellcheck disable=SC2086 # v is an option and its value, or nothing
      run "$tmp/$tag-cv$(tr -dc '[:lower:]' <<<"$v")-$k.json" "$p" conv2d "$k" $v \
        --perfmodel "$tmp/$tag-pm.json"
    done
  done
  run "$tmp/$tag-raw-1.json" "$p" conv2d-builtin 1
  run "$tmp/$tag-raw-14.json" "$p" conv2d-builtin 14
}
collect "$original" o
collect "$fitted" f
# The paper's reason for conv2d's two-level gain (section 5.3): GPUs, the usual stealers, run
# the subtasks they steal at once, conv2d's being small. The fitted model's conv2d with each
# GPU running 4 subtasks at once (CUDA streams), both stealing schemes, for the note of the
# gain row.
for k in "${nodes_list[@]}"; do
  run "$tmp/f-cvs4-$k.json" "$fitted" conv2d "$k" --gpu-streams 4 --perfmodel "$tmp/f-pm.json"
  run "$tmp/f-cvs4one-$k.json" "$fitted" conv2d "$k" --gpu-streams 4 --steal-policy one-level \
    --perfmodel "$tmp/f-pm.json"
  for seed in 2 3; do # and what one seed is worth
    run "$tmp/f$seed-cv-$k.json" "$fitted" conv2d "$k" --seed "$seed" --perfmodel "$tmp/f-pm.json"
    run "$tmp/f$seed-cvone-$k.json" "$fitted" conv2d "$k" --seed "$seed" \
      --steal-policy one-level --perfmodel "$tmp/f-pm.json"
  done
done
# How many steal requests two-level saves depends on the devices per node (section 4.3.2): the
# fitted model's matmul runs again with a CPU device per core (12 a node, not 3), for the note
# of its "fewer steal requests" row.
for k in "${nodes_list[@]}"; do
  run "$tmp/f-mmpc-$k.json" "$fitted" matmul "$k" --work-groups off
  run "$tmp/f-mmpc-one-$k.json" "$fitted" matmul "$k" --work-groups off --steal-policy one-level
  run "$tmp/f-cvpc-$k.json" "$fitted" conv2d "$k" --work-groups off --perfmodel "$tmp/f-pm.json"
  run "$tmp/f-cvpc-one-$k.json" "$fitted" conv2d "$k" --work-groups off --steal-policy one-level \
    --perfmodel "$tmp/f-pm.json"
done

# The fitted model's CPUs are a tenth of a GPU (step 1 of the fit). For the notes of the rows
# that depend on it (who runs the subtasks, what multi-assign then gains): its 14-node runs with
# seeds 1-3, and with the data sheet's cores (19.2 Gflop/s each: a node's CPUs half a GPU).
mkdir -p "$tmp/fast"
fast=$tmp/fast/${fitted##*/} # the model file names its platform by file name
sed -E "s/(id=\"n[0-9]+-cpu\" speed=\")[0-9.]+Gf/\\1$(host_gf "$original" cpu)Gf/" "$fitted" >"$fast"
perfmodel "$fast" >"$tmp/h-pm.json"
for seed in 1 2 3; do # without multi-assign, when a CPU's last subtask starts decides the tail
  run "$tmp/s$seed-mm-14.json" "$fitted" matmul 14 --seed "$seed"
  run "$tmp/s$seed-mmma-14.json" "$fitted" matmul 14 --seed "$seed" --multi-assign off
  run "$tmp/s$seed-cv-14.json" "$fitted" conv2d 14 --seed "$seed" --perfmodel "$tmp/f-pm.json"
  run "$tmp/s$seed-cvma-14.json" "$fitted" conv2d 14 --seed "$seed" --multi-assign off \
    --perfmodel "$tmp/f-pm.json"
done
run "$tmp/h-mm-14.json" "$fast" matmul 14
run "$tmp/h-mmma-14.json" "$fast" matmul 14 --multi-assign off
run "$tmp/h-cv-14.json" "$fast" conv2d 14 --perfmodel "$tmp/h-pm.json"
run "$tmp/h-cvma-14.json" "$fast" conv2d 14 --multi-assign off --perfmodel "$tmp/h-pm.json"
# seeds_note APP: the note of APP's rows on CPU share and multi-assign gain (seeds 1-3, and the
# data sheet's cores).
seeds_note() {
  local seed share="" copies="" gains=""
  for seed in 1 2 3; do
    share="$share $(cpu_share "$tmp/s$seed-$1-14.json")"
    copies="$copies $(key "$tmp/s$seed-$1-14.json" multi_assigned)"
    gains="$gains $(gain "s$seed" "${1}ma" "$1" 14)"
  done
  printf '14 nodes, seeds 1-3: %s%% of subtasks on CPUs, %s copies, multi-assign gain %s%%; ' \
    "$(range "$share")" "$(range "$copies" %d)" "$(range "$gains")"
  printf "with the data sheet's cores (a node's CPUs half a GPU, not a tenth): %.1f%% on CPUs, gain %.1f%%" \
    "$(cpu_share "$tmp/h-$1-14.json")" "$(gain h "${1}ma" "$1" 14)"
}
# copies_made APP: multi_assigned of the fitted model's runs at each node count.
copies_made() {
  local k out=""
  for k in "${nodes_list[@]}"; do out="$out${out:+, }$(key "$tmp/f-$1-$k.json" multi_assigned)"; done
  echo "$out"
}
# half_need: what a node computing half of C's blocks must receive at the least, inputs spread
# evenly: r block rows of A and c block columns of B (a panel each: block x n floats), half of
# them held by the other node, r = c = the square root of half the blocks.
half_need() {
  awk -v n="$n" -v b="$block" 'BEGIN { k = n / b; r = sqrt(k * k / 2); p = b * n * 4 / 1e9
    printf "a node computing half of C needs r block rows of A and r block columns of B (%.3f GB panels), half held by the other node: at least %.2f GB for r = %.1f, so the paper'"'"'s 8.50 GB is below any even split", p, r * p, r }'
}
range() { # range "V1 V2 ..." [FORMAT]: MIN-MAX in FORMAT (one decimal), or one value if alike
  tr ' ' '\n' <<<"$1" | awk -v f="${2:-%.1f}" '
    NF { v = $1 + 0; if (n++ == 0 || v < lo) lo = v; if (n == 1 || v > hi) hi = v }
    END { printf (sprintf(f, lo) == sprintf(f, hi) ? f : f "-" f), lo, hi }'
}

# Figures, from the JSON files of one model (TAG) ----------------------------------------------
ms() { key "$tmp/$1-$2.json" makespan_s; }
# task_gb TAG RUN NODES: GB the task moved (bytes_network less the untimed placement's)
task_gb() {
  local f=$tmp/$1-$2-$3.json
  calc "($(key "$f" bytes_network) - $(key "$f" bytes_placed)) / 1e9"
}
# comm_pct TAG RUN NODES: the average node's NIC busy with the task's bytes, in % of the
# makespan (its bytes over the NIC bandwidth): the model's counterpart of the paper's share of
# time spent communicating
comm_pct() {
  local f=$tmp/$1-$2-$3.json
  calc "100 * $(task_gb "$@") * 1e9 / $3 / $(key "$f" net_bandwidth) / $(key "$f" makespan_s)"
}
gain() { calc "100 * ($(ms "$1" "$2-$4") / $(ms "$1" "$3-$4") - 1)"; } # T(off) / T(on) - 1
avg_gain() { # avg_gain TAG ON OFF
  local k sum=0
  for k in "${nodes_list[@]}"; do sum=$(calc "$sum + $(gain "$1" "$3" "$2" "$k")"); done
  calc "$sum / ${#nodes_list[@]}"
}
avg_change() { # avg_change TAG KEY TWO ONE SIGN: mean over nodes of SIGN x (two / one - 1), %
  local k sum=0
  for k in "${nodes_list[@]}"; do
    sum=$(calc "$sum + $5 * 100 * ($(key "$tmp/$1-$3-$k.json" "$2") / $(key "$tmp/$1-$4-$k.json" "$2") - 1)")
  done
  calc "$sum / ${#nodes_list[@]}"
}
avg_pipe() {
  local k sum=0
  for k in "${nodes_list[@]}"; do sum=$(calc "$sum + $(ms "$1" "cvpipelineoff-$k") / $(ms "$1" "cv-$k")"); done
  calc "$sum / ${#nodes_list[@]}"
}

# pipe_bound: the note of the pipelining row. With pipelining off a device waits for a subtask's
# data, then computes it; overlapping the two perfectly saves at most the shorter of its waits
# and its busy time. The fitted model's pipeline-off runs: devices' busy and waiting seconds
# summed over every node count, and the speed-up that full overlap would give at most.
pipe_bound() {
  local k f busy=0 wait=0 best=0
  for k in "${nodes_list[@]}"; do
    f=$tmp/f-cvpipelineoff-$k.json
    read -r b w m <<<"$(awk '/^\t\t\t"busy_s":/ { b += $2 } /^\t\t\t"demand_wait_s":/ { w += $2 }
      /^\t\t\t"busy_s":/ { cb = $2 } /^\t\t\t"demand_wait_s":/ { m += (cb > $2 ? cb : $2) }
      END { printf "%.6f %.6f %.6f", b, w, m }' "$f")"
    busy=$(calc "$busy + $b") wait=$(calc "$wait + $w") best=$(calc "$best + $m")
  done
  printf "pipelining off, the devices of the 1-14 node runs computed %.0f s and waited %.0f s for data: overlapping both in full would give at most %.2fx; the paper's 3-4x needs waits 2-3 times the compute" \
    "$busy" "$wait" "$(calc "($busy + $wait) / $best")"
}

# floor_cv: the note of conv2d's 14-node speed-up row: the least time the fitted model's NICs
# need for the 14-node run's bytes (each node's NIC at the fitted rate), and the one-node time
# the paper's 11.83x would then take (app-scaling.sh's own run moves more: its note differs).
floor_cv() {
  local gb floor
  gb=$(task_gb f cv 14)
  floor=$(calc "$gb * 1e9 / (14 * $nic * 1e6)")
  printf "not the network's floor: the 14-node run's %.1f GB over 14 NICs at %.0f MB/s take at least %.1f s, so 11.83x needs a 1-node run of %.0f s, and the model's takes %.1f s" \
    "$gb" "$nic" "$floor" "$(calc "11.83 * $floor")" "$(ms f cv-1)"
}

# rate_note TWO ONE: the note of a "more successful steals" row, the paper's sentence read as a
# rate instead (successes per attempt, two-level run TWO against one-level ONE, the fitted
# model, mean over node counts; steal-levels.sh gives its own runs the same note).
rate_note() {
  local k sum=0 n=0 a1 s1 a2 s2
  for k in "${nodes_list[@]}"; do
    a1=$(key "$tmp/f-$2-$k.json" steals_attempted) s1=$(key "$tmp/f-$2-$k.json" steals_succeeded)
    a2=$(key "$tmp/f-$1-$k.json" steals_attempted) s2=$(key "$tmp/f-$1-$k.json" steals_succeeded)
    if awk -v a="$a1" -v b="$a2" -v s="$s1" 'BEGIN { exit !(a > 0 && b > 0 && s > 0) }'; then
      sum=$(calc "$sum + 100 * (($s2 / $a2) / ($s1 / $a1) - 1)") n=$((n + 1))
    fi
  done
  [ "$n" -gt 0 ] || return 0
  printf "read as a rate (successes per attempt): %+.1f%%, mean over the %d node counts with steals" \
    "$(calc "$sum / $n")" "$n"
}

# comm_note: the note of matmul's "% time communicating" row. The share is the run's bytes over
# its NICs' rate and its makespan; the paper's own numbers (248.5 GB in 43.81% of the time its
# 7.88 TFlop/s take) give the rate its NICs moved at, to set beside the fitted one.
comm_note() {
  local t gb
  t=$(calc "2 * $n ^ 3 / ($rate14 * 1e9)") gb=$(task_gb f mm 14)
  printf "%.1f GB over 14 NICs at the fitted %.0f MB/s in %.1f s; the paper's %s GB in %s%% of its %.1f s (7.88 TFlop/s) mean NICs moving %.0f MB/s each: the fitted rate, set by the 14-node GFlop/s, is faster than the one the paper's share implies" \
    "$gb" "$nic" "$(ms f mm-14)" "$moved14" "$comm14" "$t" \
    "$(calc "$moved14 * 1e9 / 14 / ($comm14 / 100 * $t) / 1e6")"
}
# levels_note APP: the note of APP's (mm, cv) "fewer steal requests" row: the same mean with a
# CPU device per core.
levels_note() {
  printf "with the cores as one work-group (3 devices a node); with a CPU device per core (12 a node) two-level sends %.1f%% fewer: one-level's wasted requests grow with the devices per node (section 4.3.2)" \
    "$(avg_change f steals_attempted "$1pc" "$1pc-one" -1)"
}

# streams_note: the note of conv2d's two-level gain row: the same mean with seeds 2 and 3, and
# with 4 streams a GPU.
streams_note() {
  printf "the same mean with seeds 2 and 3: %.2f%%, %.2f%%; with 4 subtasks at once a GPU (--gpu-streams 4; the paper's reason) %.2f%%" \
    "$(avg_gain f2 cv cvone)" "$(avg_gain f3 cv cvone)" "$(avg_gain f cvs4 cvs4one)"
}

# figure FIT|PRED|INFO NAME SOURCE LO HI COMMAND: one row; COMMAND prints the model's value,
# TAG in it standing for the model; the paper's value is LO (to HI for a range; "-": none).
rows=$tmp/rows
: >"$rows"
figure() {
  printf '%s|%s|%s|%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" "$5" "$(eval "${6//TAG/o}")" \
    "$(eval "${6//TAG/f}")" >>"$rows"
}
mm_rate() { calc "2 * $n ^ 3 / $(ms "$1" "mm-$2") / 1e9"; }
speedup() { calc "$(ms "$1" "$2-1") / $(ms "$1" "$2-$3")"; }

# gpu_ratio TAG: one GPU's speed over a node's CPUs' (its cores together), on model TAG.
gpu_ratio() {
  local p=$original
  [ "$1" = o ] || p=$fitted
  awk -v g="$(host_gf "$p" gpu0)" -v c="$(host_gf "$p" cpu)" -v k="$cores" \
    'BEGIN { printf "%.4g", g / (c * k) }'
}
figure FIT "one GPU over a node's CPUs, speed" "5.2 (an order of magnitude)" 10 10 'gpu_ratio TAG'
figure FIT "matmul 1 node, GFlop/s" "derived from abstract and section 5.2: 7.88 TF / 7.34" \
  "$rate1" "$rate1" 'mm_rate TAG 1'
figure FIT "matmul 14 nodes, GFlop/s" "abstract" 7880 7880 'mm_rate TAG 14'
for k in 2 4 8; do
  figure INFO "matmul $k nodes, speed-up" "Fig. 4 (not stated)" - - "speedup TAG mm $k"
done
figure FIT "matmul 14 nodes, speed-up (the two above)" "5.2" 7.34 7.34 'speedup TAG mm 14'
figure PRED "matmul 14 nodes, GB moved" "5.2" "$moved14" "$moved14" 'task_gb TAG mm 14'
paper=(8.50 15.88 18.19 18.36)
i=0
for k in 2 4 8 14; do
  figure PRED "matmul $k nodes, GB sent per node" "Fig. 21" "${paper[$i]}" "${paper[$i]}" \
    "calc \"\$(task_gb TAG mm $k) / $k\""
  i=$((i + 1))
done
figure PRED "matmul 14 nodes, % time communicating" "5.2" "$comm14" "$comm14" 'comm_pct TAG mm 14'
# shellcheck disable=SC2016 # evaluated later, once per model
figure PRED "matmul 14 nodes, % subtasks on CPUs" "5.2 (< 2%)" 0 2 'cpu_share "$tmp/TAG-mm-14.json"'
figure PRED "matmul multi-assign gain, mean %" "5.6.1" 2.23 2.23 'avg_gain TAG mm mm-ma'
figure PRED "matmul multi-assign gain at 14 nodes, %" "5.6.1" 10.62 10.62 'gain TAG mm-ma mm 14'
figure PRED "matmul two-level: fewer steal requests, mean %" "5.3" 64.9 64.9 \
  'avg_change TAG steals_attempted mm mm-one -1'
figure PRED "matmul two-level: more successful steals, mean %" "5.3" 54.25 54.25 \
  'avg_change TAG steals_succeeded mm mm-one 1'
figure PRED "conv2d 14 nodes, speed-up" "5.2" 11.83 11.83 'speedup TAG cv 14'
# shellcheck disable=SC2016 # evaluated later, once per model
figure PRED "conv2d 14 nodes, GB moved" "5.2" 11.4 11.4 'task_gb TAG cv 14'
paper=(3.05 2.27 1.32 0.88)
i=0
for k in 2 4 8 14; do
  figure PRED "conv2d $k nodes, GB sent per node" "Fig. 21" "${paper[$i]}" "${paper[$i]}" \
    "calc \"\$(task_gb TAG cv $k) / $k\""
  i=$((i + 1))
done
figure PRED "conv2d 14 nodes, % time communicating" "5.2" 50.05 50.05 'comm_pct TAG cv 14'
# shellcheck disable=SC2016 # evaluated later, once per model
figure PRED "conv2d 14 nodes, % subtasks on CPUs" "5.2 (< 2%)" 0 2 'cpu_share "$tmp/TAG-cv-14.json"'
figure PRED "conv2d multi-assign gain, mean %" "5.6.1" 9.19 9.19 'avg_gain TAG cv cvmultiassignoff'
figure PRED "conv2d multi-assign gain at 14 nodes, %" "5.6.1" 38.26 38.26 \
  'gain TAG cvmultiassignoff cv 14'
figure PRED "conv2d two-level gain, mean %" "5.3" 6.92 6.92 'avg_gain TAG cv cvstealpolicyonelevel'
figure PRED "conv2d two-level: fewer steal requests, mean %" "5.3" 65.88 65.88 \
  'avg_change TAG steals_attempted cv cvstealpolicyonelevel -1'
figure PRED "conv2d two-level: more successful steals, mean %" "5.3" 44.24 44.24 \
  'avg_change TAG steals_succeeded cv cvstealpolicyonelevel 1'
figure PRED "conv2d pipelining speed-up, mean" "5.6.2 (3-4x)" 3 4 'avg_pipe TAG'
figure INFO "conv2d, built-in radius-2 filter, 14 nodes, speed-up" "5.2 (11.83)" - - \
  'speedup TAG raw 14'

# The table, and the errors' median and maximum over the predicted figures.
awk -F'|' '
  function err(v, lo, hi) {
    if (v >= lo && v <= hi) return 0
    return v < lo ? (lo - v) / (lo ? lo : 1) * 100 : (v - hi) / hi * 100
  }
  function paper(lo, hi) { return lo == "-" ? "-" : lo == hi ? sprintf("%.5g", lo) : lo "-" hi }
  function median(a, k,   i, j, t) {
    for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  BEGIN { printf "%-5s %-52s %-20s %9s %10s %7s %10s %7s\n", "role", "figure", "paper section", "paper", "original", "error", "fitted", "error" }
  {
    if ($4 == "-") { eo = "-"; ef = "-" }
    else {
      eo = sprintf("%.0f%%", err($6, $4, $5)); ef = sprintf("%.0f%%", err($7, $4, $5))
      if ($1 == "PRED") { k++; o[k] = err($6, $4, $5); f[k] = err($7, $4, $5); if (o[k] > mo) mo = o[k]; if (f[k] > mf) mf = f[k] }
    }
    printf "%-5s %-52s %-20s %9s %10.5g %7s %10.5g %7s\n", $1, $2, $3, paper($4, $5), $6, eo, $7, ef
  }
  END {
    printf "\nerror over the %d predicted figures: original median %.0f%%, max %.0f%%; fitted median %.0f%%, max %.0f%%\n", k, median(o, k), mo, median(f, k), mf
  }' "$rows"

# The same rows for scripts/reproduce-paper.sh: the table as CSV, and each figure the paper
# states beside both platforms' values (the INFO rows have no paper value, so none). With
# PAPER_PLATFORM naming one of the two (`narwhal reproduce` names the fitted one, the model all
# its Unicorn figures run on), only that platform's rows: the other model's stay in the table.
rows_o=1 rows_f=1
case ${PAPER_PLATFORM:+${PAPER_PLATFORM##*/}} in
paper-cluster-fitted.xml) rows_o=0 ;;
paper-cluster.xml) rows_f=0 ;;
esac
table_csv paper-fit role figure source paper_lo paper_hi original fitted
while IFS='|' read -r role name source lo hi o f; do
  table_row paper-fit "$role" "$name" "$source" "$lo" "$hi" "$o" "$f"
  [ "$role" != INFO ] || continue
  stated="" fig=""
  case $source in *" ("*")") stated=${source#* (} stated=${stated%)} source=${source%% (*} ;; esac
  case $source in
  5.2* | abstract | derived*) fig="Fig. 4" ;;
  5.3*) fig="Fig. 9" ;; 5.6.1*) fig="Fig. 14" ;; 5.6.2*) fig="Fig. 16" ;;
  *) fig=$source ;;
  esac
  case $name in *"on CPUs"* | *"over a node's CPUs"*) fig="Figs. 5-7" ;; esac
  case $source in [0-9]*) source="section $source" ;; esac
  name=${name/ (the two above)/} # the table's order is not the report's
  source=${source/: 7.88 TF/: 7.88 TFlop\/s}
  [ $rows_o = 0 ] || paper_row Unicorn "$fig" "$name; paper-cluster.xml (estimates)" "$source" \
    "$lo" "$hi" "$stated" "$o"
  note=""
  [ "$role" != FIT ] || note="fitted to this value: says nothing of the model"
  case $name in
  "matmul 14 nodes, % subtasks on CPUs" | "matmul multi-assign gain at 14 nodes, %") note=$(seeds_note mm) ;;
  "conv2d 14 nodes, % subtasks on CPUs" | "conv2d multi-assign gain at 14 nodes, %") note=$(seeds_note cv) ;;
  "matmul multi-assign gain, mean %") note="copies made at 1-14 nodes: $(copies_made mm)" ;;
  "conv2d multi-assign gain, mean %") note="copies made at 1-14 nodes: $(copies_made cv)" ;;
  "matmul 2 nodes, GB sent per node") note=$(half_need) ;;
  "conv2d pipelining speed-up, mean") note=$(pipe_bound) ;;
  "conv2d 14 nodes, speed-up") note=$(floor_cv) ;;
  "matmul two-level: more successful steals, mean %") note=$(rate_note mm mm-one) ;;
  "matmul two-level: fewer steal requests, mean %") note=$(levels_note mm) ;;
  "matmul 14 nodes, % time communicating") note=$(comm_note) ;;
  "conv2d two-level gain, mean %") note=$(streams_note) ;;
  "conv2d two-level: fewer steal requests, mean %") note=$(levels_note cv) ;;
  "conv2d two-level: more successful steals, mean %") note=$(rate_note cv cvstealpolicyonelevel) ;;
  esac
  [ $rows_f = 0 ] || paper_row Unicorn "$fig" "$name; paper-cluster-fitted.xml" "$source" "$lo" \
    "$hi" "$stated" "$f" "$note"
done <"$rows"

# What one seed is worth: the same 14-node matmul with other random placements and steal draws.
echo
for seed in 1 2 3 4 5; do
  run "$tmp/seed.json" "$fitted" matmul 14 --seed "$seed"
  key "$tmp/seed.json" makespan_s
done | awk '{ s[NR] = $1; if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
  END { printf "seeds 1-5: fitted platform, 14-node matmul: %.2f to %.2f s (%.1f%% apart)\n", lo, hi, 100 * (hi / lo - 1) }'

# The per-transfer cost: the 14-node matmul rate on the fitted platform with a larger NIC
# latency (each transfer and control message pays it twice, once per NIC).
echo
for lat in 2us 1ms 10ms; do
  platforms/gen-platform.sh --nodes 14 "${paper_node[@]}" --core-speed "${core}Gf" \
    --gpu-speed "${gpu}Gf" --nic-bw "${nic}MBps" --nic-lat "$lat" >"$tmp/lat.xml"
  run "$tmp/lat.json" "$tmp/lat.xml" matmul 14
  printf 'per-transfer cost: fitted platform with --nic-lat %s: 14-node matmul %.0f GFlop/s\n' \
    "$lat" "$(key "$tmp/lat.json" gflops)"
done
