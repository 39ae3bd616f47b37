#!/usr/bin/env bash
# overhead-figs.sh [BUILD_DIR]: the Unicorn paper's Fig. 20 in simulation (Beri et al., TPDS,
# section 5.7.2, "Unicorn Time versus Application Time"): conv2d and matmul at the paper's
# sizes on 1, 2, 4, 8 and 14 nodes of the Unicorn figures' cluster (two GPUs and a CPU
# work-group a node, phantom data; the node counts of Fig. 19, the same section's). The paper
# counts as application time the callbacks' and the data transfers' (network and CPU-GPU) and
# "the rest of the experimental time" as the runtime's overhead; here, over every device, the
# share of the makespan a device spends neither executing a subtask (busy_s) nor waiting for
# its data (demand_wait_s, which holds the network and PCIe transfers it waits on):
#   overhead % = 100 * (1 - sum(busy_s + demand_wait_s) / (devices * makespan_s)),
#   overhead s = overhead % / 100 * makespan_s,
# and the rows give their means over the node counts against the paper's averages. The
# simulated cluster charges no runtime code (it has no rt_* costs), so the rest is the time
# devices wait for work: steals, and the tail after a device's last subtask (tail_pct: that
# tail's share, 100 * sum(makespan_s - finish_s) / (devices * makespan_s)). With PAPER_ROWS /
# PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) it also writes the runs as CSV and the
# rows beside the paper's (experiments/paper/rows.sh).
set -eu
# shellcheck source=../experiments/paper/paper-run.sh
. "$(dirname "$0")/../experiments/paper/paper-run.sh" "${1:-build}" # build, nw, src; rows.sh
table_csv overhead app nodes makespan_s overhead_pct overhead_s tail_pct
printf '%-7s %5s %11s %12s %10s %8s\n' app nodes makespan_s overhead_pct overhead_s tail_pct
for spec in "conv2d 65536 2048 radius=15 channels=3 channel_bytes=1|3.6|0.43" "matmul 65536 2048|0.91|0.82"; do
  IFS='|' read -r args paper_pct paper_s <<<"$spec"
  app_args "$args"
  name=${APP_ARGS[0]}
  pcts=() secs=() tails=()
  for nodes in 1 2 4 8 14; do
    read -r m pct tail <<<"$(unicorn_run "$nodes" "${APP_ARGS[@]}" | json_eval 'd["makespan_s"]' \
      'round(100 * (1 - sum(x["busy_s"] + x["demand_wait_s"] for x in d["devices"]) / (len(d["devices"]) * d["makespan_s"])), 2)' \
      'round(100 * sum(d["makespan_s"] - x["finish_s"] for x in d["devices"]) / (len(d["devices"]) * d["makespan_s"]), 2)')"
    s=$(awk -v m="$m" -v p="$pct" 'BEGIN { printf "%.4f", p / 100 * m }')
    printf '%-7s %5s %11.3f %12.2f %10.3f %8.2f\n' "$name" "$nodes" "$m" "$pct" "$s" "$tail"
    table_row overhead "$name" "$nodes" "$m" "$pct" "$s" "$tail"
    pcts+=("$pct") secs+=("$s") tails+=("$tail")
  done
  mean_pct=$(printf '%s\n' "${pcts[@]}" | awk '{ s += $1 } END { printf "%.2f", s / NR }')
  mean_s=$(printf '%s\n' "${secs[@]}" | awk '{ s += $1 } END { printf "%.3f", s / NR }')
  mean_tail=$(printf '%s\n' "${tails[@]}" | awk '{ s += $1 } END { printf "%.2f", s / NR }')
  echo "$name: overhead by node count ${pcts[*]} % (mean $mean_pct%), ${secs[*]} s (mean $mean_s s)"
  what="$name, 1-14 nodes: time devices neither compute nor wait for data, mean over node counts"
  note="no runtime code is charged on this cluster: the rest is devices waiting for work, $mean_tail points of it after their last subtask (${tails[*]} % by node count)"
  paper_row Unicorn "Fig. 20" "$what, %" "section 5.7.2" "$paper_pct" "$paper_pct" "" "$mean_pct" "$note"
  paper_row Unicorn "Fig. 20" "$what, seconds" "section 5.7.2" "$paper_s" "$paper_s" "" "$mean_s" "$note"
done
