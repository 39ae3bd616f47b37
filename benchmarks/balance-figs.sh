#!/usr/bin/env bash
# balance-figs.sh [BUILD_DIR]: the Unicorn paper's Fig. 10 (top) in simulation (Beri et al.,
# TPDS, section 5.4): conv2d at the paper's size on 14 nodes of platforms/paper-cluster.xml
# (CPU work-groups and two GPUs per node, phantom data): each device's finishing time and
# subtask count. The paper: "the finishing times of each of them is quite close to each other"
# although GPUs run many more subtasks than CPU work-groups. Close counts as a spread (latest
# less earliest finish) under 10% of the makespan (our rule: the paper gives no number).
# The same on matmul: its GPUs' subtask counts, which the paper says are roughly equal.
# Fig. 11 (section 5.5.1, heterogeneous subtasks): conv2d's top half in 512 tiles of 2048^2 and
# its bottom half in 128 of 4096^2 (--app-param bottom_block=4096), on 10 nodes, and the same
# image in 2048^2 tiles alone beside it; "a decent load balance" by Fig. 10's rule (spread
# under 10% of the makespan).
# PageRank's half of the figure (its 10th iteration, input on NFS) is not run. Seconds. With
# PAPER_ROWS / PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) it also writes the devices
# as CSV and the row beside the paper's (experiments/paper/rows.sh).
set -eu
# shellcheck source=../experiments/paper/paper-run.sh
. "$(dirname "$0")/../experiments/paper/paper-run.sh" "${1:-build}" # build, nw, src; rows.sh
app_args "conv2d 65536 2048 radius=15 channels=3 channel_bytes=1"
json=$(unicorn_run 14 "${APP_ARGS[@]}")
table_csv balance node kind subtasks finish_s
printf '%4s %-4s %8s %9s\n' node kind subtasks finish_s
while read -r node kind subtasks finish; do
  printf '%4s %-4s %8s %9.3f\n' "$node" "$kind" "$subtasks" "$finish"
  table_row balance "$node" "$kind" "$subtasks" "$finish"
done < <(json_eval '"\n".join("%d %s %d %.6f" % (x["node"], x["kind"], x["subtasks"], x["finish_s"]) for x in d["devices"])' <<<"$json")
read -r spread gpu cpu <<<"$(json_eval 'round(finish_spread_pct(d), 2)' \
  'round(sum(x["subtasks"] for x in d["devices"] if x["kind"] == "gpu") / sum(1 for x in d["devices"] if x["kind"] == "gpu"), 1)' \
  'round(sum(x["subtasks"] for x in d["devices"] if x["kind"] == "cpu") / sum(1 for x in d["devices"] if x["kind"] == "cpu"), 1)' <<<"$json")"
echo "finishing times spread over $spread% of the makespan; subtasks per GPU $gpu, per CPU work-group $cpu"
paper_row Unicorn "Fig. 10" "conv2d 65536/2048, 14 nodes: devices' finishing times (latest less earliest, % of the makespan)" \
  "section 5.4" "" "" "quite close to each other" "$spread% (subtasks per GPU $gpu, per work-group $cpu)" \
  "$(awk -v s="$spread" 'BEGIN { print (s < 10 ? "agrees" : "differs") " (under 10% counts as close: our rule)" }')"

echo
echo "Fig. 11: conv2d 65536, 10 nodes, devices' finishing times spread (latest less earliest, % of the makespan)"
printf '%-28s %8s %11s %9s %10s %10s\n' tiles subtasks makespan_s spread per_gpu per_cpu
table_csv balance-fig11 tiles subtasks makespan_s spread_pct subtasks_per_gpu subtasks_per_cpu
for bottom in "" 4096; do # one tile size (no bottom_block), then the paper's two
  app_args "conv2d 65536 2048 radius=15 channels=3 channel_bytes=1${bottom:+ bottom_block=$bottom}"
  read -r subtasks makespan spread gpu cpu <<<"$(unicorn_run 10 "${APP_ARGS[@]}" | json_eval \
    'd["subtasks"]' 'round(d["makespan_s"], 3)' 'round(finish_spread_pct(d), 2)' \
    'round(sum(x["subtasks"] for x in d["devices"] if x["kind"] == "gpu") / sum(1 for x in d["devices"] if x["kind"] == "gpu"), 1)' \
    'round(sum(x["subtasks"] for x in d["devices"] if x["kind"] == "cpu") / sum(1 for x in d["devices"] if x["kind"] == "cpu"), 1)')"
  what="2048^2 top, ${bottom:-2048}^2 bottom"
  printf '%-28s %8s %11s %8s%% %10s %10s\n' "$what" "$subtasks" "$makespan" "$spread" "$gpu" "$cpu"
  table_row balance-fig11 "$what" "$subtasks" "$makespan" "$spread" "$gpu" "$cpu"
done
# The row: the last run, the paper's two sizes (640 subtasks).
paper_row Unicorn "Fig. 11" "conv2d 65536, 512 tiles of 2048^2 (top half) and 128 of 4096^2 (bottom half), 10 nodes: devices' finishing times (latest less earliest, % of the makespan)" \
  "section 5.5.1" "" "" "a decent load balance despite the four fold execution disparity in subtasks" \
  "$spread% ($subtasks subtasks; per GPU $gpu, per work-group $cpu)" \
  "$(awk -v s="$spread" 'BEGIN { print (s < 10 ? "agrees" : "differs") " (under 10% counts as balanced: our rule, as Fig. 10)" }')"

# Section 5.4 on matmul (whose inputs start spread evenly): "all GPUs execute roughly the same
# number of subtasks"; roughly counts as (most - fewest) under 25% of the mean (our rule).
app_args "matmul 65536 2048"
read -r lo hi mean <<<"$(unicorn_run 14 "${APP_ARGS[@]}" | json_eval \
  'min(x["subtasks"] for x in d["devices"] if x["kind"] == "gpu")' \
  'max(x["subtasks"] for x in d["devices"] if x["kind"] == "gpu")' \
  'round(sum(x["subtasks"] for x in d["devices"] if x["kind"] == "gpu") / sum(1 for x in d["devices"] if x["kind"] == "gpu"), 2)')"
echo "matmul 65536/2048, 14 nodes: subtasks per GPU from $lo to $hi (mean $mean)"
paper_row Unicorn "Fig. 10" "matmul 65536/2048, 14 nodes: subtasks per GPU, fewest to most (mean)" \
  "section 5.4" "" "" "all GPUs execute roughly the same number of subtasks" "$lo to $hi (mean $mean)" \
  "$(awk -v a="$lo" -v b="$hi" -v m="$mean" 'BEGIN { print ((b - a) / m < 0.25 ? "agrees" : "differs") " (most less fewest under 25% of the mean counts as roughly the same: our rule)" }')"
