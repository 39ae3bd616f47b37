#!/usr/bin/env bash
# agglomeration-grain.sh [BUILD_DIR]: two more of the agglomeration paper's Molecular2D results
# in simulation (Lifflander, Evans, Arya, Kale, "Dynamic Scheduling for Work Agglomeration on
# Heterogeneous Clusters", section V-A), on platforms/s1070-node.xml as written, GPUs alone
# with 16 lanes, phantom data, 100 steps:
#  - the grain size (Fig. 7): about 70,000 particles on G x G cells (G from 6 to 20, each
#    cell holding round(70000 / G^2) particles), with dynamic agglomeration up to 32 and without
#    (--agglomerate 0). The paper: best at 486 particles per work unit (12 x 12 cells) with
#    agglomeration and 1429 (7 x 7) without, performance rising with virtualization until its
#    overheads win;
#  - the agglomeration limit (Fig. 8): 100,000 particles on 10 x 10 cells with at most 1, 2,
#    4, 8, 16 and 32 subtasks a launch. The paper: a limit of 1 is the slowest by far;
#  - dynamic against static agglomeration (Figs. 9-10): 5000 particles on 5 x 5 cells, 50 steps,
#    and 100,000 (100,096: 391 a cell) on 16 x 16, 100 steps; dynamic up to 32 against static
#    (--agglomerate-mode static) at sizes 1, 2, 4, 8, 16 and 32. The paper: "dynamic scheduling
#    always performs close to optimal without any tuning".
# About 60 seconds. With PAPER_ROWS / PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) it
# also writes the runs as CSV and the rows (experiments/paper/rows.sh).
set -euo pipefail
# shellcheck source=paper-run.sh
. "$(dirname "$0")/paper-run.sh" "${1:-build}" # build, nw, src; rows.sh
# shellcheck disable=SC2154 # nw and src: paper-run.sh's
md() { # md N PPC AGGLOMERATE [LANES]: "makespan mean_agglomeration" of one run (16 lanes)
  "$nw" run --app molecular2d --platform "$src/platforms/s1070-node.xml" --n "$1" --block "$2" \
    --app-param steps=100 --devices gpu --gpu-streams "${4:-16}" --agglomerate "$3" --data phantom \
    --json | json_eval 'd["makespan_s"]' 'd["agglomeration_mean"]'
}
echo "Molecular2D, about 70,000 particles, 100 steps, GPUs, 16 lanes (simulated s)"
printf '%5s %6s %8s %12s %12s\n' cells ppc n agglomerated single
table_csv agglomeration-grain grid particles_per_cell particles makespan_agglomerated_s makespan_single_s
curve_a="" curve_s="" curve_1=""
for g in 6 7 8 10 12 14 16 20; do
  ppc=$(((70000 + g * g / 2) / (g * g))) n=$((g * g * ((70000 + g * g / 2) / (g * g))))
  read -r ta _ <<<"$(md "$n" "$ppc" 32)"
  read -r ts _ <<<"$(md "$n" "$ppc" 0)"
  # For a row's note only: without agglomeration and with one lane a GPU, so that launches
  # cannot overlap (is the finer optimum the lanes'?).
  if [ -n "${PAPER_ROWS:-}" ]; then
    read -r t1 _ <<<"$(md "$n" "$ppc" 0 1)"
    curve_1="$curve_1 $ppc:$t1"
  fi
  printf '%5s %6s %8s %12.4f %12.4f\n' "${g}x$g" "$ppc" "$n" "$ta" "$ts"
  table_row agglomeration-grain "$g" "$ppc" "$n" "$ta" "$ts"
  curve_a="$curve_a $ppc:$ta" curve_s="$curve_s $ppc:$ts"
done
# shape CURVE: "agrees" when the time falls with more cells (fewer particles each) to one
# minimum and then rises.
shape() { tr ' ' '\n' <<<"$1" | awk -F: 'NF == 2 { t[++k] = $2 } END {
    for (i = 2; i <= k; i++) if (t[i] > t[i - 1]) up = 1; else if (up) bad = 1
    print bad ? "differs" : "agrees" }'; }
read -r best_a _ <<<"$(extreme min "$curve_a")"
read -r best_s _ <<<"$(extreme min "$curve_s")"
echo "best particles per cell: $best_a agglomerated, $best_s single"
paper_row Lifflander "Fig. 7" "Molecular2D about 70,000 particles, S1070 model: best particles per work unit, agglomerating up to 32" \
  "section V-A" 486 486 "486 particles per work unit" "$best_a"
one_note=""
if [ -n "$curve_1" ]; then
  read -r best_1 _ <<<"$(extreme min "$curve_1")"
  one_note="with one lane a GPU (launches one at a time) the best is $best_1: not the lanes; a unit's pair interactions fall as its cells shrink, so only a dearer launch than the model's would favour the paper's coarser units"
fi
paper_row Lifflander "Fig. 7" "Molecular2D about 70,000 particles, S1070 model: best particles per work unit, without agglomeration" \
  "section V-A" 1429 1429 "1429 particles per work unit" "$best_s" "$one_note"
paper_row Lifflander "Fig. 7" "Molecular2D about 70,000 particles, S1070 model: time against cells, both curves" \
  "section V-A" "" "" "performance increases with virtualization until overheads counteract it" \
  "minimum at $best_a (agglomerated) and $best_s (single) particles per cell" \
  "$([ "$(shape "$curve_a")" = agrees ] && [ "$(shape "$curve_s")" = agrees ] && echo agrees || echo differs) (one minimum)"

echo
echo "Molecular2D, 100,000 particles on 10 x 10 cells, 100 steps: the agglomeration limit"
printf '%6s %12s %15s\n' limit makespan_s mean_launched
table_csv agglomeration-limit limit makespan_s agglomeration_mean
times=""
for a in 1 2 4 8 16 32; do
  read -r t mean <<<"$(md 100000 1000 "$a")"
  printf '%6s %12.4f %15.2f\n' "$a" "$t" "$mean"
  table_row agglomeration-limit "$a" "$t" "$mean"
  times="$times $a:$t"
done
read -r slowest _ <<<"$(extreme max "$times")"
paper_row Lifflander "Fig. 8" "Molecular2D 100,000 particles, S1070 model: the agglomeration limit (1 to 32) of the slowest run" \
  "section V-A" "" "" "a limit of 1 is the slowest" "slowest at a limit of $slowest" \
  "$([ "$slowest" = 1 ] && echo agrees || echo differs)"

# ---- Dynamic against static agglomeration (Figs. 9-10) ---------------------------------------
# Each configuration: dynamic agglomeration up to 32 against the best of the static sizes, which
# wait for N force units of a step and launch fewer only when no more can come (the paper's
# edge case; docs/guide/gpu-modes.md). With 16 lanes a static launch holds at most 16, so 32
# acts as 16: a barrier across the lanes. Simulated runs are deterministic: one run a point
# (the paper averages five). "Close to optimal" counts as within 10% of the best static size
# (our rule: the paper gives no number).
mdm() { # N PPC STEPS MODE AGGLOMERATE: "makespan mean_agglomeration" of one run
  "$nw" run --app molecular2d --platform "$src/platforms/s1070-node.xml" --n "$1" --block "$2" \
    --app-param steps="$3" --devices gpu --gpu-streams 16 --agglomerate "$5" \
    --agglomerate-mode "$4" --data phantom --json | json_eval 'd["makespan_s"]' 'd["agglomeration_mean"]'
}
echo
echo "Molecular2D, dynamic (up to 32) against static agglomeration, GPUs, 16 lanes (simulated s)"
printf '%-28s %9s %12s %12s\n' configuration mode makespan_s mean_launched
table_csv agglomeration-static-molecular2d particles grid steps mode size makespan_s agglomeration_mean
near=""
for cfg in 5000:200:5:50 100096:391:16:100; do
  IFS=: read -r n ppc g steps <<<"$cfg"
  read -r td mean <<<"$(mdm "$n" "$ppc" "$steps" dynamic 32)"
  printf '%-28s %9s %12.6f %12.2f\n' "$n on ${g}x$g, $steps steps" dynamic "$td" "$mean"
  table_row agglomeration-static-molecular2d "$n" "$g" "$steps" dynamic 32 "$td" "$mean"
  statics=""
  for a in 1 2 4 8 16 32; do
    read -r t mean <<<"$(mdm "$n" "$ppc" "$steps" static "$a")"
    printf '%-28s %9s %12.6f %12.2f\n' "" "static $a" "$t" "$mean"
    table_row agglomeration-static-molecular2d "$n" "$g" "$steps" static "$a" "$t" "$mean"
    statics="$statics $a:$t"
  done
  read -r best tb <<<"$(extreme min "$statics")"
  near="$near${near:+, }$n on ${g}x$g: $(awk -v d="$td" -v b="$tb" -v a="$best" 'BEGIN { printf "%+.1f%% against static %s", 100 * (d - b) / b, a }')"
done
paper_row Lifflander "Figs. 9-10" "Molecular2D 5000 particles on 5x5 cells (50 steps) and 100,096 on 16x16 (100 steps), S1070 model, 16 lanes: dynamic agglomeration up to 32 against the best static size (1 to 32)" \
  "section V-A" "" "" "dynamic scheduling always performs close to optimal without any tuning" \
  "dynamic $near" \
  "$(awk -v l="$near" 'BEGIN { k = split(l, a, ", "); for (i = 1; i <= k; i++) { split(a[i], p, ": "); if (p[2] + 0 > 10) bad = 1 }
    print bad ? "differs (more than 10% slower than the best static size somewhere; within 10% counts: our rule)" : "agrees (within 10% of the best static size in both; our rule)" }')"
