#!/usr/bin/env bash
# across_tasks.sh NARWHAL SRC_DIR: every policy spreads independent tasks over the devices
# (scheduling over the ready work of every running task, core/sched/policy.h). The program:
# 24 tasks of one 1 ms subtask each, each writing a space of its own (apps/bag), on
# platforms/small.xml (1 GFlop/s cores, CPU devices of one core):
#  - one node, 4 devices: each device runs 6 +- 1 subtasks and the makespan is at most
#    1.15 x 6 ms; random instead: every device gets work, and the mean makespan over seeds
#    1-20 is at most 1.5 x 6 ms (StarPU's w-rand draws each subtask's device);
#  - three nodes, 12 devices: the makespan is at most 1.15 x (2 ms + T), T the time the model
#    charges for the messages remote tasks need under that policy, measured in the same test as
#    the makespan of 12 such tasks (one per device) less their 1 ms of work (random: every
#    device count within the 24, no bound).
# A scheduler that decides inside one task puts every one of them on device 0 (24 ms).
set -u
nw=$1 src=$2
fail=0
bag() { "$nw" run --app bag --backend sim --platform "$src/platforms/small.xml" --block 1 "$@" --json; }
# makespan in ms, then each device's subtasks, from a run's JSON on stdin
summary() {
  tr -d '\n' | awk '{
    match($0, /"makespan_s":[ \t]*[^,]*/); m = substr($0, RSTART, RLENGTH); sub(/.*:[ \t]*/, "", m)
    out = sprintf("%.4f", m * 1000)
    rest = $0; sub(/.*"devices":/, "", rest)
    while (match(rest, /"subtasks":[ \t]*[0-9]+/)) {
      s = substr(rest, RSTART, RLENGTH); sub(/.*:[ \t]*/, "", s); out = out " " s
      rest = substr(rest, RSTART + RLENGTH)
    }
    print out }'
}
check() { # check NAME CONDITION-TEXT AWK-EXPRESSION over $1 (makespan) $2.. (counts)
  local name=$1 what=$2 expr=$3 line=$4
  if echo "$line" | awk "{ exit !($expr) }"; then
    echo "ok: $name: $line ($what)"
  else
    echo "FAIL: $name: $line, wanted $what"
    fail=1
  fi
}
for p in unicorn eager prio ws lws dm dmda dmdar dmdas heft roofline; do
  one=$(bag --sched "$p" --nodes 1 --n 24 | summary)
  check "$p, 1 node" "6 +- 1 each, makespan <= 6.9 ms" \
    'NF == 5 && $1 <= 6.9 && $2 >= 5 && $2 <= 7 && $3 >= 5 && $3 <= 7 && $4 >= 5 && $4 <= 7 && $5 >= 5 && $5 <= 7' "$one"
  twelve=$(bag --sched "$p" --nodes 3 --n 12 | summary | cut -d' ' -f1)
  three=$(bag --sched "$p" --nodes 3 --n 24 | summary)
  bound=$(awk -v t="$twelve" 'BEGIN { printf "%.4f", 1.15 * (2 + (t - 1)) }')
  check "$p, 3 nodes" "makespan <= 1.15 x (2 ms + ($twelve - 1) ms) = $bound ms" \
    "NF == 13 && \$1 <= $bound" "$three"
done
total=0 idle=0
for seed in $(seq 1 20); do
  line=$(bag --sched random --nodes 1 --n 24 --seed "$seed" | summary)
  total=$(awk -v a="$total" -v b="${line%% *}" 'BEGIN { print a + b }')
  echo "$line" | awk '{ for (i = 2; i <= NF; i++) if ($i == 0) exit 1 }' || idle=$((idle + 1))
done
mean=$(awk -v t="$total" 'BEGIN { printf "%.4f", t / 20 }')
check "random, 1 node, seeds 1-20" "every device busy in every run, mean makespan <= 9 ms" \
  "\$1 <= 9 && $idle == 0" "$mean"
[ $fail -eq 0 ] && echo "across_tasks: 1 passed, 0 failed" || echo "across_tasks: 0 passed, 1 failed"
exit $fail
