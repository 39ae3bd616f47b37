#!/usr/bin/env bash
# critical_path.sh NARWHAL SRC_DIR: message spans in --trace and `narwhal critical-path`
# (tools/narwhal/trace_path.h) on a simulated two-node Task Bench stencil of STEPS steps:
#  - tracing does not move the simulation: the makespan with --trace equals the one without
#    (the send-time stamp a traced message carries is not charged to the network);
#  - a message to the node itself takes no simulated time, one to the other node some;
#  - the critical path's segments add up to the traced length (to the printed rounding);
#  - the path crosses between the nodes at least once a step (each step's end waits for both);
#  - bad input (a missing file, JSON that is not a trace, a bad --top) ends with one line, exit 2.
set -u
nw=$1 src=$2
steps=40
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "critical_path: $1"; echo "critical_path: 0 passed, 1 failed"; exit 1; }
run=("$nw" run --backend sim --platform "$src/platforms/small.xml" --nodes 2 --cpu-devices 1
  --app taskbench --n "$steps" --block 4 --app-param iterations=1000 --json)
"${run[@]}" >"$tmp/plain.json" || fail "the run without --trace failed"
"${run[@]}" --trace "$tmp/t.json" >"$tmp/traced.json" || fail "the traced run failed"
makespan() { grep -o '"makespan_s":[^,}]*' "$1"; }
a=$(makespan "$tmp/plain.json") b=$(makespan "$tmp/traced.json")
echo "without --trace $a; with $b"
[ -n "$a" ] && [ "$a" = "$b" ] || fail "tracing changed the simulated makespan"

"$nw" critical-path "$tmp/t.json" --top 1000 >"$tmp/path.txt" || fail "critical-path failed"
cat "$tmp/path.txt"
awk -v steps="$steps" '
  /ms traced on/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "ms" && $(i + 2) == "traced") traced = $i }
  /^messages, from sending/ { in_msgs = 1; next }
  !in_msgs && $1 ~ /%$/ {
    total += $2; rows++
    if ($NF ~ /^[0-9]+->[0-9]+$/) { split($NF, p, "->"); if (p[1] != p[2]) crossings += $3 }
  }
  in_msgs && $NF == "0->0" && $(NF - 1) == "start" && $(NF - 2) == "task" { self = $2 }
  in_msgs && $NF == "0->1" && $(NF - 1) == "start" && $(NF - 2) == "task" { remote = $2 }
  END {
    printf "traced %s ms, segments %.3f ms in %d rows; %d crossings on the path; task start " \
           "0->0 %s us, 0->1 %s us\n", traced, total, rows, crossings, self, remote
    if (traced == "" || rows == 0) { print "critical_path: no header or no segments"; exit 1 }
    if (total - traced > 0.0005 * rows + 0.001 || traced - total > 0.0005 * rows + 0.001) {
      print "critical_path: the segments do not add up to the traced length"; exit 1 }
    if (crossings < steps) { print "critical_path: the path crosses nodes fewer times than steps"; exit 1 }
    if (self == "" || remote == "" || self + 0 != 0 || remote + 0 <= 0) {
      print "critical_path: a self message should take 0 us and one to node 1 more"; exit 1 }
  }' "$tmp/path.txt" || fail "the path or the messages are wrong (above)"

# bad_input DESCRIPTION ARGS...: exit 2 and one line on stderr naming the problem.
bad_input() {
  local what=$1
  shift
  "$nw" critical-path "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, wanted 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: wanted one line on stderr, got: $(cat "$tmp/err")"
  echo "$what: $(cat "$tmp/err")"
}
bad_input "a missing file" "$tmp/none.json"
echo '{"a": 1}' >"$tmp/not.json"
bad_input "JSON that is not a trace" "$tmp/not.json"
bad_input "a bad --top" "$tmp/t.json" --top 0
echo "critical_path: 1 passed, 0 failed"
