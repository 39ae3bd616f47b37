#!/usr/bin/env bash
# external-load-figs.sh [BUILD_DIR]: the Unicorn paper's Fig. 15 in simulation (Beri et al.,
# TPDS, section 5.6.1): conv2d at the paper's size on 4 nodes of the paper's cluster (paper-run.sh)
# (CPU work-groups and two GPUs per node, phantom data), one node overloaded, with and without
# multi-assign. The paper loads each core of one node with a process computing trigonometric
# functions; here that node computes twice as slowly (--slow 1:2: a core shared by two busy
# processes). The paper: with multi-assign "the task completes faster"; its heuristics
# multi-assign "fewer than 1% of the subtasks", and "the later-assigned unit finishes first
# about 50% of the time". A second. With PAPER_ROWS / PAPER_CSV_DIR set
# (scripts/reproduce-paper.sh does) it also writes the runs as CSV and the rows beside the
# paper's (experiments/paper/rows.sh).
set -eu
# shellcheck source=../experiments/paper/paper-run.sh
. "$(dirname "$0")/../experiments/paper/paper-run.sh" "${1:-build}" # build, nw, src; rows.sh
app_args "conv2d 65536 2048 radius=15 channels=3 channel_bytes=1"
table_csv external-load multi_assign makespan_s subtasks multi_assigned multi_assign_wins
printf '%-12s %10s %8s %14s %17s\n' multi-assign makespan_s subtasks multi_assigned multi_assign_wins
declare -A m=()
for ma in on off; do
  read -r t s a w <<<"$(unicorn_run 4 "${APP_ARGS[@]}" --slow 1:2 --multi-assign "$ma" |
    json_eval 'd["makespan_s"]' 'd["subtasks"]' 'd["multi_assigned"]' 'd["multi_assign_wins"]')"
  printf '%-12s %10.3f %8s %14s %17s\n' "$ma" "$t" "$s" "$a" "$w"
  table_row external-load "$ma" "$t" "$s" "$a" "$w"
  m[$ma]=$t
  [ "$ma" != on ] || { subtasks=$s assigned=$a wins=$w; }
done
faster=$(awk -v on="${m[on]}" -v off="${m[off]}" 'BEGIN { printf "%.2f", 100 * (off / on - 1) }')
paper_row Unicorn "Fig. 15" "conv2d 65536/2048, 4 nodes, one slowed twofold: multi-assign against none, faster by %" \
  "section 5.6.1" "" "" "with multi-assign the task completes faster" "$faster%" \
  "$(awk -v f="$faster" 'BEGIN { print (f > 0 ? "agrees" : "differs") }')"
paper_row Unicorn "Fig. 15" "conv2d 65536/2048, 4 nodes, one slowed twofold: % of subtasks multi-assigned" \
  "section 5.6.1" 0 1 "fewer than 1%" "$(awk -v a="$assigned" -v s="$subtasks" 'BEGIN { printf "%.2f", 100 * a / s }')"
# Without a multi-assigned subtask there is no share: the row says so, with no difference.
later="none multi-assigned" later_note="no subtask was multi-assigned"
if [ "$assigned" -gt 0 ]; then
  # A share of a few copies moves in steps of 100 / copies points: the note counts them, and
  # pools seeds 2 and 3 (other random placements) with this run's for a larger sample.
  # Only for the row's note, so only when rows are written.
  pa=$assigned pw=$wins seeds="2 3"
  [ -n "${PAPER_ROWS:-}" ] || seeds=""
  for seed in $seeds; do
    read -r a w <<<"$(unicorn_run 4 "${APP_ARGS[@]}" --slow 1:2 --multi-assign on --seed "$seed" |
      json_eval 'd["multi_assigned"]' 'd["multi_assign_wins"]')"
    pa=$((pa + a)) pw=$((pw + w))
  done
  later=$(awk -v a="$assigned" -v w="$wins" 'BEGIN { printf "%.1f", 100 * w / a }')
  later_note="$wins of $assigned copies (of $subtasks subtasks) won by the later-assigned unit; seeds 1-3 together: $pw of $pa$(
    awk -v a="$pa" -v w="$pw" 'BEGIN { if (a > 0) printf " (%.1f%%)", 100 * w / a }')"
fi
paper_row Unicorn "Fig. 15" "conv2d 65536/2048, 4 nodes, one slowed twofold: % of multi-assigned subtasks whose later-assigned unit finished first" \
  "section 5.6.1" 50 50 "about 50%" "$later" "$later_note"
