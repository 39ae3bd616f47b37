#!/usr/bin/env bash
# sweep-rows.sh NAME CSV: the comparison rows (experiments/paper/rows.sh, into $PAPER_ROWS) of
# a figure that `narwhal sweep` reproduces, read from the CSV that the sweep just wrote. The
# paper's values are constants from the papers' text (EXPERIMENTS.md names the section for
# each); Narwhal's all come from CSV. NAME is one of scripts/reproduce-paper.sh's sweeps:
#   main-job          Unicorn Fig. 4's matmul on the paper cluster
#                     (docs/experiments/paper-matmul-simulated.md)
#   prs-table5-gemv   PRS Table 5, gemv: p from equation (8) and the best fixed p
#                     (docs/experiments/roofline-split.md)
#   prs-table5-cmeans the same for C-means
#   gemtc-fig9        GeMTC Fig. 9: tasks/s against bundle size on the K20X model
#                     (docs/experiments/many-task-sim-k20x.md)
#   gemtc-fig20-21    GeMTC Figs. 20-21: efficiency against task duration
#                     (docs/experiments/many-task-sim-k20x.md)
#   fig17-gpu-cache   Unicorn Fig. 17: the GPU cache policies (docs/experiments/gpus-simulated.md)
set -euo pipefail
cd "$(dirname "$0")/../.."
. experiments/paper/rows.sh
[ $# -eq 2 ] || { echo "sweep-rows.sh: usage: sweep-rows.sh NAME CSV" >&2; exit 2; }
name=$1 csv=$2
[ -r "$csv" ] || { echo "sweep-rows.sh: $csv: no such file" >&2; exit 2; }

# col KEY COLUMN [ROW_KEY_COLUMN]: the value of COLUMN in the row whose first column is KEY.
col() {
  awk -F, -v k="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) j = i; next }
    $1 == k && j { print $j; found = 1; exit } END { if (!found) exit 1 }' "$csv" || {
    echo "sweep-rows.sh: $csv has no $2 for '$1'" >&2
    exit 1
  }
}
# best COLUMN: the first column's value at the smallest makespan_s, over rows other than "auto".
best() {
  awk -F, 'NR == 1 { next } $1 != "auto" && (!n++ || $2 < m) { m = $2; k = $1 } END { print k }' "$csv"
}
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }

case $name in
main-job)
  # The abstract: 7.88 TFlop/s on 14 nodes; section 5.2: a speed-up of 7.34, so 1073.6 GFlop/s
  # on one node (derived).
  # (Assignments first: a missing row then stops the script.)
  r14=$(col 14 gflops)
  r1=$(col 1 gflops)
  what="matmul 65536, 2048 blocks, CPU work-groups + 2 GPUs per node, ${paper_platform##*/}:"
  paper_row Unicorn "Fig. 4" "$what GFlop/s on 14 nodes" "abstract" 7880 7880 "7880 (7.88 TFlop/s)" \
    "$(calc "$r14")"
  paper_row Unicorn "Fig. 4" "$what GFlop/s on 1 node" \
    "derived from abstract and section 5.2: 7.88 TFlop/s / 7.34" \
    1073.6 1073.6 "" "$(calc "$r1")"
  ;;
prs-table5-gemv | prs-table5-cmeans)
  # Table 5: p (the CPUs' share) from equation (8) and from profiling; the two "less than 10%"
  # apart, which the paper's own pairs satisfy only in percentage points (GMM: 11.2 and 13.1).
  if [ "$name" = prs-table5-gemv ]; then
    app="gemv 35000 x 10000" eq=97.3 prof=90.8
  else
    app="C-means 1,000,000 points, resident" eq=11.2 prof=11.9
  fi
  p_eq=$(col auto roofline_p)
  p_eq=$(calc "100 * $p_eq")
  p_best=$(calc "100 * $(best)")
  what="$app on one Delta node:"
  paper_row PRS "Table 5" "$what CPUs' share p from equation (8), %" "Table 5" "$eq" "$eq" "" "$p_eq"
  paper_row PRS "Table 5" "$what best p by measurement (paper: by profiling), %" "Table 5" \
    "$prof" "$prof" "" "$p_best" "best of the sweep's fixed p"
  paper_row PRS "Table 5" "$what equation (8) against measurement, percentage points" \
    "section IV-B" 0 10 "less than 10" "$(calc "($p_eq > $p_best ? $p_eq - $p_best : $p_best - $p_eq)")"
  ;;
gemtc-fig9)
  # Fig. 9: about 6,000 tasks/s with bundles of 1 and 22,000 with 100, "more than a 3x
  # increase". The K20X's costs are fitted to the two end points (platforms/README.md).
  one=$(col 1 makespan_s)
  hundred=$(col 100 makespan_s)
  n=$(col 1 subtasks)
  what="adder, $n tasks on the K20X model, many-task mode:"
  paper_row GeMTC "Fig. 9" "$what tasks/s, bundles of 1" "section 3.3" 6000 6000 "about 6,000" \
    "$(calc "$n / $one")" "the platform's costs are fitted to this value"
  paper_row GeMTC "Fig. 9" "$what tasks/s, bundles of 100" "section 3.3" 22000 22000 "about 22,000" \
    "$(calc "$n / $hundred")" "the platform's costs are fitted to this value"
  paper_row GeMTC "Fig. 9" "$what bundles of 100 over bundles of 1" "section 3.3" 3 "" "more than 3x" \
    "$(calc "$one / $hundred")"
  # Section 7: "roughly 23K tasks per second on a single node" (Fig. 18, driven by Swift/T,
  # which the model does not have): the sweep's highest tasks/s, over every bundle size.
  read -r top topb <<<"$(awk -F, -v n="$n" 'NR > 1 && (!k++ || $2 < m) { m = $2; b = $1 }
    END { printf "%.6g %s\n", n / m, b }' "$csv")"
  paper_row GeMTC "Fig. 18" "$what tasks/s on one node (168 workers), the best bundle size" "section 7" \
    23000 23000 "roughly 23K" "$top" "at bundles of $topb; the costs are fitted to section 3.3's 22,000 (bundles of 100)"
  ;;
gemtc-fig20-21)
  # Figs. 20-21: efficiency grows with task duration, high only from about 150 ms per task
  # (an image: no value is stated). Efficiency = GFlop/s over the GPU's speed; a task's
  # duration = its flops over one worker's share of that speed.
  speed=$(sed -n 's/.*id="n0-gpu0" speed="\([0-9.]*\)Gf".*/\1/p' platforms/k20x-node.xml)
  workers=$(sed -n 's/.*id="mtc_workers" value="\([0-9]*\)".*/\1/p' platforms/k20x-node.xml)
  effs=$(awk -F, -v s="$speed" -v w="$workers" 'NR > 1 {
    split($1, f, "="); printf "%s%g ms: %.1f%%", (NR > 2 ? ", " : ""), 1e3 * f[2] * w / (s * 1e9), 100 * $3 / s }' "$csv")
  grows=$(awk -F, 'NR > 2 && $3 <= last { bad = 1 } NR > 1 { last = $3 } END { print bad ? "differs" : "agrees" }' "$csv")
  paper_row GeMTC "Figs. 20-21" "adder on 168 workers of the K20X model: efficiency by task duration" \
    "section 5.2" "" "" "grows with duration; high from about 150 ms" "$effs" "$grows (grows)"
  ;;
fig17-gpu-cache)
  # Section 5.6.3 (Fig. 17, matmul): "both LRU and LFU perform better than others", seen in
  # "fewer average cache misses in LRU and LFU, compared to MRU, MFU and Random". Each agrees
  # when LRU's and LFU's worse value is below the best of MRU, MFU and Random.
  for k in makespan_s cache_misses; do
    declare -A v=()
    for p in lru lfu mru mfu random; do v[$p]=$(calc "$(col "$p" "$k")"); done
    list="lru ${v[lru]}, lfu ${v[lfu]}, mru ${v[mru]}, mfu ${v[mfu]}, random ${v[random]}"
    verdict=$(awk -v a="${v[lru]}" -v b="${v[lfu]}" -v c="${v[mru]}" -v d="${v[mfu]}" -v e="${v[random]}" 'BEGIN {
      w = a > b ? a : b; m = c < d ? c : d; m = m < e ? m : e; print (w < m ? "agrees" : "differs") }')
    if [ "$k" = makespan_s ]; then
      paper_row Unicorn "Fig. 17" "matmul 65536/2048, 14 nodes, GPUs only: seconds by GPU cache policy" \
        "section 5.6.3" "" "" "LRU and LFU perform better than others" "$list" "$verdict"
    else
      paper_row Unicorn "Fig. 17" "matmul 65536/2048, 14 nodes, GPUs only: cache misses by GPU cache policy" \
        "section 5.6.3" "" "" "fewer average cache misses in LRU and LFU" "$list" "$verdict"
    fi
  done
  ;;
*)
  echo "sweep-rows.sh: unknown sweep '$name'" >&2
  exit 2
  ;;
esac
