#!/usr/bin/env bash
# prs-figs.sh [BUILD_DIR]: the PRS paper's CPU+GPU against GPU-only gains in simulation (Li,
# Fox, von Laszewski, Chauhan, "Co-processing SPMD Computation on CPUs and GPUs Cluster", IEEE
# Cluster 2013, section IV-B and the conclusion): gemv 35000 x 10000 and C-means (1,000,000
# points of 100 dimensions, 10 clusters, resident on the GPU) on one node of
# platforms/delta-node.xml under the roofline policy, the CPUs' share p from equation (8)
# against p = 0 (the GPU alone), as experiments/roofline-gemv.json and roofline-cmeans.json
# run them. The paper: GEMV's CPU+GPU version is "10 times faster" than GPU only and C-means'
# "1.3 times faster" (section IV-B); its conclusion gives the same gains as +1011.8% and
# +11.56%, which disagree with section IV-B for C-means; both are rows. A second. With
# PAPER_ROWS / PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) it also writes the runs as
# CSV and the rows beside the paper's (experiments/paper/rows.sh).
set -eu
# shellcheck source=../experiments/paper/paper-run.sh
. "$(dirname "$0")/../experiments/paper/paper-run.sh" "${1:-build}" # build, nw, src; rows.sh
table_csv prs-gains app p makespan_s gflops
printf '%-7s %-6s %11s %10s\n' app p makespan_s gflops
for spec in "gemv 35000 100 --app-param cols=10000|10|1011.8" \
  "cmeans 1000000 5000 --roofline-resident on|1.3|11.56"; do
  IFS='|' read -r args times gain <<<"$spec"
  read -r name n block opts <<<"$args"
  declare -A t=()
  for p in 0 auto; do
    # shellcheck disable=SC2086,SC2154 # opts: the app's options, one per word; nw, src: paper-run.sh's
    read -r m g <<<"$("$nw" run --app "$name" --backend sim --platform "$src/platforms/delta-node.xml" \
      --nodes 1 --n "$n" --block "$block" --data phantom --devices cpu+gpu --sched roofline \
      --roofline-p "$p" $opts --json | json_eval 'd["makespan_s"]' 'd["gflops"]')"
    printf '%-7s %-6s %11.5f %10.2f\n' "$name" "$p" "$m" "$g"
    table_row prs-gains "$name" "$p" "$m" "$g"
    t[$p]=$m
  done
  x=$(awk -v a="${t[0]}" -v b="${t[auto]}" 'BEGIN { printf "%.4f", a / b }')
  what="$name on one Delta node, roofline split from equation (8) against the GPU alone:"
  paper_row PRS "Fig. 6" "$what speed-up" "section IV-B" "$times" "$times" "$times times faster" "$x"
  paper_row PRS "Fig. 6" "$what gain, %" "conclusion" "$gain" "$gain" "" \
    "$(awk -v x="$x" 'BEGIN { printf "%.2f", 100 * (x - 1) }')"
done
