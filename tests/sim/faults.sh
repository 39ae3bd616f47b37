#!/usr/bin/env bash
# faults.sh CASE NARWHAL PLATFORM [APP]: one check of the simulator's fault injection
# (core/node/faults.h, backends/simgrid/sim_faults.h). Each compares runs made here.
#   survive APP   APP (matmul, conv2d, chain-rw: the read-write chain) loses node 2 while the
#                 driver sets up, early in, halfway through and late in its tasks, and nodes 2
#                 and 1 one after the other: every run is bit-identical to the reference
#                 (core/node/recover.c), and the mid-run losses rolled back and re-ran subtasks;
#                 a loss after the end changes nothing
#   survive_copy  a node lost while it runs a copy of a slowed node's subtask (multi-assign),
#                 found in the trace of the same run without a loss
#   lost_driver   --fail 0@T: exit 1, one line saying the driver's node was lost
#   reproducible  a run with lost and late messages twice with the same seed: the same
#                 makespan; another seed: another makespan
set -u
case=$1 nw=$2 platform=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(run --backend sim --platform "$platform" --nodes 4 --n 512 --block 64 --data functional)
fail() { echo "faults $case: 0 passed, 1 failed: $*"; exit 1; }
key() { tr -d '\n' <"$1" | grep -oE "\"$2\":[[:space:]]*[^,}]*" | head -n1 | sed -E "s/\"$2\":[[:space:]]*//; s/[[:space:]]+$//"; }

# one_line_failure PATTERN ARGS...: the run exits 1 with exactly one stderr line matching.
one_line_failure() {
  local want=$1
  shift
  timeout 120 "$nw" "${common[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  local st=$?
  echo "narwhal ${common[*]} $* -> status $st"
  cat "$tmp/err"
  [ "$st" -eq 1 ] || fail "status $st, wanted 1"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "stderr has $(wc -l <"$tmp/err") lines, wanted 1"
  grep -qE -- "$want" "$tmp/err" || fail "stderr does not match '$want'"
}

case $case in
survive | survive_copy)
  app=${4:-matmul}
  [ "$case" = survive_copy ] && app=matmul
  common+=(--app "$app")
  extra=()
  [ "$case" = survive_copy ] && extra=(--multi-assign on --slow 1:4)
  # The reference timeline: the same resilient run (a loss after the end), quick detection.
  "$nw" "${common[@]}" "${extra[@]}" --fail 3@1e9 --fault detect:0.0001 --json \
    --trace "$tmp/trace.json" >"$tmp/ref.json" || fail "the run without a loss failed"
  [ "$(key "$tmp/ref.json" nodes_lost)" = 0 ] || fail "a node counted lost after the run's end"
  [ "$(key "$tmp/ref.json" verified)" = true ] || fail "not verified without a loss"
  first=$(key "$tmp/ref.json" first_submit_s) span=$(key "$tmp/ref.json" makespan_s)
  at() { awk -v a="$first" -v b="$span" -v f="$1" 'BEGIN { t = a + f * b; if (t < 0) t = a / 2; printf "%.9f", t }'; }
  plans=("2@$(at -1)" "2@$(at 0.1)" "2@$(at 0.5)" "2@$(at 0.9)" "2@$(at 0.3),1@$(at 0.6)")
  if [ "$case" = survive_copy ]; then
    # A copy of a straggler's subtask (multi-assign) in the trace: an execution of a subtask
    # that its origin node multi-assigned, on another node than node 0; that node is lost
    # halfway through it (trace times are microseconds from otherData.t0_s on the run's clock).
    read -r node mid < <(awk '
      function num(k,   m) { if (match($0, "\"" k "\":[0-9.]+")) { m = substr($0, RSTART, RLENGTH); sub(/.*:/, "", m); return m } return "" }
      NR == FNR { if ($0 ~ /"name":"multi-assign"/) origin[num("subtask")] = num("pid"); next }
      $0 ~ /"cat":"exec"/ { s = num("subtask"); p = num("pid")
        if ((s in origin) && p != origin[s] && p != 0) { print p, num("ts") + num("dur") / 2; exit } }' \
      "$tmp/trace.json" "$tmp/trace.json")
    [ -n "${node:-}" ] || fail "no copy ran on a node other than node 0"
    t0=$(key "$tmp/trace.json" t0_s)
    [ -n "$t0" ] || fail "the trace has no otherData.t0_s"
    echo "node $node runs a copy $mid us after the trace's start ($t0 s)"
    plans=("$node@$(awk -v a="$t0" -v m="$mid" 'BEGIN { printf "%.9f", a + m / 1e6 }')")
  fi
  for plan in "${plans[@]}"; do
    timeout 120 "$nw" "${common[@]}" "${extra[@]}" --fail "$plan" --fault detect:0.0001 --json \
      >"$tmp/run.json" 2>"$tmp/err" || { cat "$tmp/err"; fail "--fail $plan: the run failed"; }
    v=$(key "$tmp/run.json" verified) r=$(key "$tmp/run.json" tasks_restarted)
    x=$(key "$tmp/run.json" subtasks_reexecuted) l=$(key "$tmp/run.json" time_lost_s)
    echo "--fail $plan: verified $v, tasks restarted $r, subtasks re-executed $x, $l s lost," \
      "multi-assigned $(key "$tmp/run.json" multi_assigned)"
    [ "$v" = true ] || fail "--fail $plan: not bit-identical to the reference"
    [ "$(key "$tmp/run.json" nodes_lost)" -ge 1 ] || fail "--fail $plan: no node lost"
    case $plan in
    "2@$(at 0.5)" | *,1@*)
      [ "$x" -gt 0 ] || fail "--fail $plan: no subtask re-executed"
      awk -v l="$l" 'BEGIN { exit !(l > 0) }' || fail "--fail $plan: no time lost" ;;
    esac
    if [ "$case" = survive_copy ]; then
      [ "$(key "$tmp/run.json" multi_assigned)" -gt 0 ] || fail "no copies were made"
      [ "$x" -gt 0 ] || fail "no subtask re-executed"
    fi
  done
  ;;
lost_driver)
  one_line_failure "^narwhal: node 0, the driver's, was lost at 0.001 s: the run cannot go on" \
    --fail 0@0.001
  ;;
reproducible)
  plan=(--fault drop:0.2,rto:0.002,delay:0.0005:0.3)
  "$nw" "${common[@]}" "${plan[@]}" --seed 7 --json >"$tmp/a.json" || fail "run a failed"
  "$nw" "${common[@]}" "${plan[@]}" --seed 7 --json >"$tmp/b.json" || fail "run b failed"
  "$nw" "${common[@]}" "${plan[@]}" --seed 8 --json >"$tmp/c.json" || fail "run c failed"
  a=$(key "$tmp/a.json" makespan_s) b=$(key "$tmp/b.json" makespan_s) c=$(key "$tmp/c.json" makespan_s)
  echo "seed 7: $a and $b; seed 8: $c"
  for f in a b c; do
    [ "$(key "$tmp/$f.json" verified)" = true ] || fail "run $f not verified"
    [ "$(key "$tmp/$f.json" retransmissions)" -gt 0 ] || fail "run $f lost no message"
    [ "$(key "$tmp/$f.json" delayed)" -gt 0 ] || fail "run $f delayed no message"
  done
  [ "$a" = "$b" ] || fail "the same seed gave makespans $a and $b"
  [ "$a" != "$c" ] || fail "seeds 7 and 8 drew the same faults (makespan $a)"
  ;;
*) echo "faults: unknown case $case"; exit 2 ;;
esac
echo "faults $case: 1 passed, 0 failed"
