#!/usr/bin/env bash
# cores-figs.sh [BUILD_DIR]: the Unicorn paper's Fig. 19 (left and middle) in simulation (Beri
# et al., TPDS, section 5.7.1): conv2d and matmul at the paper's sizes on 1, 2, 4, 8 and 14
# nodes of platforms/paper-cluster.xml (two GPUs per node, phantom data) with 7 to 12 of each
# node's 12 cores computing subtasks (--reserved-cores 5 to 0). The paper: "the average
# difference between the maximum and minimum performing cases (at all data points) for both
# experiments is less than 10%"; the row gives, per app, the mean over node counts of (slowest
# - fastest) / fastest. The right graph (threads bound to cores) is not run: the simulator has
# no operating system placing threads. Seconds. With PAPER_ROWS / PAPER_CSV_DIR set
# (scripts/reproduce-paper.sh does) it also writes the runs as CSV and the rows beside the
# paper's (experiments/paper/rows.sh).
set -eu
# shellcheck source=../experiments/paper/paper-run.sh
. "$(dirname "$0")/../experiments/paper/paper-run.sh" "${1:-build}" # build, nw, src; rows.sh
table_csv cores app nodes compute_cores makespan_s
printf '%-7s %5s %6s %11s\n' app nodes cores makespan_s
for spec in "conv2d 65536 2048 radius=15 channels=3 channel_bytes=1" "matmul 65536 2048"; do
  app_args "$spec"
  name=${APP_ARGS[0]}
  diffs=()
  for nodes in 1 2 4 8 14; do
    times=()
    for cores in 7 8 9 10 11 12; do
      t=$(unicorn_run "$nodes" "${APP_ARGS[@]}" --reserved-cores $((12 - cores)) | json_eval 'd["makespan_s"]')
      printf '%-7s %5s %6s %11.3f\n' "$name" "$nodes" "$cores" "$t"
      table_row cores "$name" "$nodes" "$cores" "$t"
      times+=("$t")
    done
    diffs+=("$(printf '%s\n' "${times[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f", 100 * (hi - lo) / lo }')")
  done
  mean=$(printf '%s\n' "${diffs[@]}" | awk '{ s += $1 } END { printf "%.2f", s / NR }')
  echo "$name: (slowest - fastest) / fastest by node count: ${diffs[*]} % (mean $mean%)"
  paper_row Unicorn "Fig. 19" "$name, 1-14 nodes, 7 to 12 compute cores a node: mean (slowest - fastest) / fastest, %" \
    "section 5.7.1" 0 10 "less than 10%" "$mean"
done
