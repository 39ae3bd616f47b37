#!/usr/bin/env bash
# gemtc-scale.sh [BUILD_DIR]: GeMTC's results over workers and nodes in simulation (Krieder,
# Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu, "GeMTC: GPU-enabled Many-Task
# Computing", sections 5.1-5.2), on the K20X node model, many-task GPU mode with bundles of
# 100 fed by 256 lanes (as experiments/mtc-*-k20x.json), GPUs alone, phantom data:
#  - workers (Fig. 15): mdlite groups of 32 particles, 1000 steps (0.52 ms on one warp), 10 a
#    worker, on 1, 8, 32 and 168 worker warps each at 1/168 of the K20X's speed. The paper: as
#    workers are added, demand on the in-memory queues rises until they are the bottleneck;
#  - nodes (Fig. 16): one mdlite simulation (32 particles, 100000 steps: 52 ms) a worker on 1,
#    2, 4 and 8 nodes of 168 workers. The paper: 96% utilization on 8 nodes;
#  - throughput (Fig. 19): adder tasks of 1 flop, 3 a worker, on 1 node and on 60 (10,080
#    workers). The paper: about 70% of ideal throughput with 10,000-way concurrency;
#  - one worker against 168 (Figs. 21-22): adder tasks of 0.1 ms to 1 s (on one warp), 10 a
#    worker, on one node. The paper: with 168 workers a GPU, tasks must last longer to be
#    efficient.
# The platforms are platforms/k20x-node.xml's own gen-platform.sh command (its "Regenerate"
# line) with other node and worker counts. Swift/T, through which the paper ran all of these,
# is not modelled. About 13 seconds (the 60 nodes: 11). With PAPER_ROWS / PAPER_CSV_DIR set
# (scripts/reproduce-paper.sh does) it also writes the runs as CSV and the rows
# (experiments/paper/rows.sh).
set -euo pipefail
# shellcheck source=paper-run.sh
. "$(dirname "$0")/paper-run.sh" "${1:-build}" # build, nw, src; rows.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }
one() { awk -v x="$1" 'BEGIN { printf "%.1f", x }'; } # one decimal, for the rows' evidence

# The K20X model: its GPU's speed (GFlop/s) and worker warps, and the gen-platform.sh options
# that wrote it.
# shellcheck disable=SC2154 # src: paper-run.sh's
k20x_xml=$src/platforms/k20x-node.xml
speed=$(sed -n 's/.*id="n0-gpu0" speed="\([0-9.]*\)Gf".*/\1/p' "$k20x_xml")
full=$(sed -n 's/.*id="mtc_workers" value="\([0-9]*\)".*/\1/p' "$k20x_xml")
read -ra regen <<<"$(sed -n 's|^Regenerate: platforms/gen-platform.sh ||p' "$k20x_xml")"
if [ -z "$speed" ] || [ -z "$full" ] || [ ${#regen[@]} -eq 0 ]; then
  echo "gemtc-scale.sh: $k20x_xml: no GPU speed, mtc_workers or Regenerate line" >&2
  exit 1
fi
# k20x NODES WORKERS: writes $tmp/k20x-NODES-WORKERS.xml, the K20X model on NODES nodes with
# WORKERS worker warps a GPU, each at the model's 1/168 of the K20X (the GPU's speed scaled to
# WORKERS/168: the other warps idle), and prints its path.
k20x() {
  local out=$tmp/k20x-$1-$2.xml args=() i
  for ((i = 0; i < ${#regen[@]}; i++)); do
    case ${regen[i]} in
    --nodes) args+=(--nodes "$1") i=$((i + 1)) ;;
    --gpu-speed)
      args+=(--gpu-speed "$(awk -v s="$speed" -v w="$2" -v f="$full" 'BEGIN { printf "%.10g", s * w / f }')Gf")
      i=$((i + 1))
      ;;
    mtc_workers=*) args+=("mtc_workers=$2") ;;
    *) args+=("${regen[i]}") ;;
    esac
  done
  [ -s "$out" ] || "$src/platforms/gen-platform.sh" "${args[@]}" >"$out"
  echo "$out"
}
# mtc PLATFORM APP N BLOCK PARAM: "makespan_s gflops subtasks demand_wait_s mean_bundle" of one
# run, GPUs alone in many-task mode, 256 lanes feeding the queue: more than the K20X's 168
# workers, so that a next bundle can wait while they all compute.
# shellcheck disable=SC2154 # nw: paper-run.sh's
mtc() {
  "$nw" run --app "$2" --platform "$1" --n "$3" --block "$4" --app-param "$5" --data phantom \
    --devices gpu --gpu-mode many-task --gpu-streams 256 --json |
    json_eval 'd["makespan_s"]' 'd["gflops"]' 'd["subtasks"]' 'd["demand_wait_s"]' 'd["agglomeration_mean"]'
}

echo "Fig. 15: mdlite, 32 particles a group, 1000 steps, 10 groups a worker, one K20X"
printf '%8s %12s %12s\n' workers makespan_s utilisation
table_csv gemtc-workers workers particles makespan_s utilisation_pct
util="" first="" last="" falls=1 prev=""
for w in 1 8 32 "$full"; do
  read -r t g _ <<<"$(mtc "$(k20x 1 "$w")" mdlite $((320 * w)) 32 steps=1000)"
  # Busy share of the workers' time: the flops done over what w warps at 1/168 of the GPU
  # each could do in the makespan.
  u=$(calc "100 * $g / ($speed * $w / $full)")
  printf '%8s %12.6f %11.1f%%\n' "$w" "$t" "$u"
  table_row gemtc-workers "$w" $((320 * w)) "$t" "$u"
  util="$util${util:+, }$(one "$u")% at $w"
  [ -z "$prev" ] || awk -v a="$u" -v b="$prev" 'BEGIN { exit !(a < b) }' || falls=0
  prev=$u first=${first:-$u} last=$u
done
# Our rule: the claim agrees when utilisation falls with each step in workers, by more than 10
# points from 1 worker to 168.
verdict=$([ "$falls" = 1 ] && awk -v a="$first" -v b="$last" 'BEGIN { exit !(a - b > 10) }' &&
  echo agrees || echo differs)
paper_row GeMTC "Fig. 15" "mdlite 0.52 ms tasks, 10 a worker, on 1 to $full workers of the K20X model: workers' utilisation" \
  "section 5.1" "" "" "increasingly higher demand on the in-memory queues as workers are added" \
  "$util workers" "$verdict (utilisation falls with each step, by over 10 points from 1 to $full: our rule; the model's queue is fed at its fitted host cost per task and bundle, it has no device-side locks)"

echo
echo "Fig. 16: one mdlite simulation (32 particles, 100000 steps) a worker, $full workers a node"
printf '%6s %8s %12s %12s\n' nodes workers makespan_s utilisation
table_csv gemtc-nodes nodes workers makespan_s utilisation_pct
t1=""
for n in 1 2 4 8; do
  read -r t _ <<<"$(mtc "$(k20x "$n" "$full")" mdlite $((32 * full * n)) 32 steps=100000)"
  t1=${t1:-$t}
  u=$(calc "100 * $t1 / $t")
  printf '%6s %8s %12.6f %11.2f%%\n' "$n" $((full * n)) "$t" "$u"
  table_row gemtc-nodes "$n" $((full * n)) "$t" "$u"
done
paper_row GeMTC "Fig. 16" "mdlite 52 ms tasks, one a worker, on 8 K20X model nodes ($((8 * full)) workers): utilisation, 1-node time over 8-node time, %" \
  "section 5.1" 96 96 "96%" "$u" "the paper's flat line drawn from 1 node (our reading of its utilization)"

echo
echo "Fig. 19: adder tasks of 1 flop, 3 a worker, $full workers a node"
printf '%6s %8s %12s %12s %14s %12s\n' nodes workers makespan_s tasks_per_s data_wait_s mean_bundle
table_csv gemtc-throughput nodes workers tasks makespan_s tasks_per_s data_wait_s mean_bundle
for n in 1 60; do
  read -r t _ s wait bundle <<<"$(mtc "$(k20x "$n" "$full")" adder $((3 * full * n)) 1 flops=1)"
  r=$(calc "$s / $t")
  printf '%6s %8s %12.6f %12.0f %14.4f %12.1f\n' "$n" $((full * n)) "$t" "$r" "$wait" "$bundle"
  table_row gemtc-throughput "$n" $((full * n)) "$s" "$t" "$r" "$wait" "$bundle"
  [ "$n" != 1 ] || r1=$r
done
paper_row GeMTC "Fig. 19" "adder 1-flop tasks, 3 a worker, on 60 K20X model nodes ($((60 * full)) workers): throughput over 60 times one node's, %" \
  "section 5.2" 70 70 "~70%" "$(calc "100 * $r / (60 * $r1)")" "ideal: 60 times one node's tasks/s at the same tasks a node (our reading)"

echo
echo "Figs. 21-22: adder tasks on one warp's speed, 10 a worker, one node: efficiency"
printf '%10s %14s %14s\n' task_ms "1 worker" "$full workers"
table_csv gemtc-one-worker task_ms efficiency_1_worker_pct "efficiency_${full}_workers_pct"
high1="" highw="" effs=""
for ms in 0.1 1 10 100 1000; do
  f=$(awk -v ms="$ms" -v s="$speed" -v w="$full" 'BEGIN { printf "%.0f", ms / 1e3 * s * 1e9 / w }')
  read -r _ g1 _ <<<"$(mtc "$(k20x 1 1)" adder 10 1 "flops=$f")"
  read -r _ gw _ <<<"$(mtc "$(k20x 1 "$full")" adder $((10 * full)) 1 "flops=$f")"
  e1=$(calc "100 * $g1 / ($speed / $full)") ew=$(calc "100 * $gw / $speed")
  printf '%10s %13.1f%% %13.1f%%\n' "$ms" "$e1" "$ew"
  table_row gemtc-one-worker "$ms" "$e1" "$ew"
  effs="$effs${effs:+, }$ms ms: $(one "$e1") / $(one "$ew")%"
  # "High efficiency": 90% or more (our rule); the shortest task that reaches it.
  [ -n "$high1" ] || ! awk -v e="$e1" 'BEGIN { exit !(e >= 90) }' || high1=$ms
  [ -n "$highw" ] || ! awk -v e="$ew" 'BEGIN { exit !(e >= 90) }' || highw=$ms
done
echo "90% efficient from ${high1:-never} ms with 1 worker, ${highw:-never} ms with $full"
paper_row GeMTC "Figs. 21-22" "adder, 10 tasks a worker, one K20X model node: efficiency by task duration, 1 worker / $full workers" \
  "section 5.2" "" "" "with 167 more workers a GPU, longer tasks are needed for high efficiency" \
  "$effs; 90% from ${high1:-never} ms / ${highw:-never} ms" \
  "$(awk -v a="${high1:-1e9}" -v b="${highw:-1e9}" 'BEGIN { print (b > a ? "agrees" : "differs") }') (the shortest task 90% efficient is longer with $full workers: our rule)"
