#!/usr/bin/env bash
# gantt_content.sh NARWHAL SRC_DIR: what `narwhal plot` draws, read from the script it writes
# (FILE.gp: the rows' tics, the legend's arrays, the data blocks) against the trace's own lane
# names (its thread_name events). Three small simulated runs: matmul with 4 subtasks on 8
# devices (idle devices), cholesky (several task kinds), and one with GPUs (copy engines).
# By default there is exactly one row per device the trace names, one per GPU copy engine and
# direction, and one per node for its messages, each label once; every legend title is there
# once and every colour belongs to one title; the x axis is in ms and starts at the first
# task (nothing drawn before 0); with --lanes all, a row per lane the trace names; with
# --whole, the placement is drawn and the title does not say it is left out. Skipped (77)
# without gnuplot.
set -u
nw=$1 src=$2
command -v gnuplot >/dev/null || { echo "gantt_content: gnuplot is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "gantt_content: $1"; echo "gantt_content: $passed passed, 1 failed"; exit 1; }

# lanes TRACE: "pid tid name" per thread_name event (the writer puts one event on a line).
lanes() {
  sed -n 's/.*"name":"thread_name","ph":"M","pid":\([0-9]*\),"tid":\([0-9]*\),"args":{"name":"\([^"]*\)".*/\1 \2 \3/p' "$1"
}
# labels GP: the rows' labels, in row order.
labels() { sed -n 's/^set ytics \(add \)\{0,1\}("\(.*\)" [0-9]*)$/\2/p' "$1"; }
# legend GP WHAT: the entries' titles (WHAT title) or colours (WHAT colour), spans then instants.
legend() { sed -n "s/^\\(span\\|instant\\)_$2\\[[0-9]*\\] = \"\\(.*\\)\"\$/\\2/p" "$1"; }
count() { grep -c . || true; }

# check NAME RUN-ARGS...: runs, plots and checks one trace.
check() {
  local name=$1
  shift
  local t="$tmp/$name.json" gp="$tmp/$name.gp"
  "$nw" run --platform "$src/platforms/small.xml" --nodes 2 "$@" --trace "$t" >/dev/null ||
    fail "$name: the traced run failed"
  "$nw" plot "$t" >"$tmp/$name.out" || fail "$name: narwhal plot failed"
  lanes "$t" >"$tmp/$name.lanes"
  [ -s "$tmp/$name.lanes" ] || fail "$name: no thread_name events read from the trace"
  # The rows the trace calls for: its devices (tid below 100000), its copy engines' directions
  # (100000 up to 1000000, sub-lanes " #2" folded), and a row per node with messages lanes.
  local devices copies nodes named
  devices=$(awk '$2 < 100000' "$tmp/$name.lanes" | count)
  copies=$(awk '$2 >= 100000 && $2 < 1000000 {sub(/ #[0-9]+$/, ""); print}' "$tmp/$name.lanes" |
    cut -d' ' -f1,3- | sort -u | count)
  nodes=$(awk '$2 >= 2000000 {print $1}' "$tmp/$name.lanes" | sort -u | count)
  named=$(count <"$tmp/$name.lanes")
  labels "$gp" >"$tmp/$name.labels"
  local rows drawn
  rows=$(count <"$tmp/$name.labels")
  drawn=$(sed -n 's/^plotted .* (\([0-9]*\) lanes, .*/\1/p' "$tmp/$name.out")
  [ "$rows" -eq $((devices + copies + nodes)) ] ||
    fail "$name: $rows rows, wanted $devices devices + $copies copy rows + $nodes message rows"
  [ "${drawn:-0}" -eq "$rows" ] || fail "$name: plot said ${drawn:-no} lanes, the script has $rows"
  [ "$(sort -u "$tmp/$name.labels" | count)" -eq "$rows" ] || fail "$name: a row label twice"
  while read -r pid tid label; do # every device the trace names has its row, idle or not
    [ "$tid" -lt 100000 ] || continue
    grep -qxF "node $pid: $label" "$tmp/$name.labels" || fail "$name: no row for node $pid's $label"
  done <"$tmp/$name.lanes"
  [ "$(grep -c ': messages and network$' "$tmp/$name.labels")" -eq "$nodes" ] ||
    fail "$name: not one messages row per node"
  # The legend: titles once, each its own colour.
  local titles colours
  titles=$(legend "$gp" title | count)
  colours=$(legend "$gp" colour | sort -u | count)
  [ "$titles" -ge 2 ] || fail "$name: $titles legend entries"
  [ "$(legend "$gp" title | sort -u | count)" -eq "$titles" ] || fail "$name: a legend title twice"
  [ "$colours" -eq "$titles" ] || fail "$name: $titles legend entries share $colours colours"
  grep -q '^set xlabel ".*(ms)"$' "$gp" || fail "$name: the x label has no (ms)"
  # Nothing before t = 0: each span's middle (ms) is at least half its length.
  awk '/^\$[si][0-9]+ << EOD$/ {on = 1; next} /^EOD$/ {on = 0} on && $1 - $3 < -1e-6 {bad = 1}
       END {exit bad}' "$gp" || fail "$name: a span drawn before t = 0"
  # --lanes all: the trace's own lanes.
  "$nw" plot "$t" --lanes all --out "$tmp/$name-all.png" >/dev/null || fail "$name: --lanes all failed"
  [ "$(labels "$tmp/$name-all.gp" | count)" -eq "$named" ] ||
    fail "$name: --lanes all drew $(labels "$tmp/$name-all.gp" | count) rows, the trace names $named"
  echo "$name: $rows rows ($devices devices, $copies copy rows, $nodes message rows), $titles legend entries in $colours colours; --lanes all: $named rows"
  passed=$((passed + 1))
}

check idle --app matmul --n 512 --block 256
# The first run must have had idle devices: named, with no execution on them.
idle=0
while read -r pid tid label; do
  [ "$tid" -lt 100000 ] || continue
  grep -q "\"cat\":\"exec\",.*\"pid\":$pid,\"tid\":$tid," "$tmp/idle.json" || idle=$((idle + 1))
done <"$tmp/idle.lanes"
[ "$idle" -ge 1 ] || fail "idle: every device worked: the run does not test idle rows"
echo "idle: $idle idle devices have rows"

check kinds --app cholesky --n 1024 --block 256
[ "$(legend "$tmp/kinds.gp" title | grep -c '^chol-')" -ge 3 ] ||
  fail "kinds: fewer than 3 task kinds in the legend"
grep -q '^set title ".*input placement before t = 0: [0-9.]* ms, not drawn' "$tmp/kinds.gp" ||
  fail "kinds: the title does not say the input placement is left out"

check gpus --n 256 --block 64 --devices cpu+gpu --gpu-streams 2
[ "$(grep -c 'copies \(in\|out\)$' "$tmp/gpus.labels")" -ge 2 ] || fail "gpus: no copy rows"

# --whole: from the trace's start, the placement drawn and not said to be left out.
"$nw" plot "$tmp/kinds.json" --whole --out "$tmp/whole.png" >/dev/null || fail "--whole failed"
grep -q '^span_title\[[0-9]*\] = "placement"$' "$tmp/whole.gp" || fail "--whole: no placement drawn"
! grep -q 'not drawn' "$tmp/whole.gp" || fail "--whole: the title says the placement is not drawn"
grep -q '^set xlabel ".*(ms)"$' "$tmp/whole.gp" || fail "--whole: the x label has no (ms)"
passed=$((passed + 1))

# A trace whose name holds a backquoted command: gnuplot would run it from a double-quoted
# string; the title must carry it as text.
cp "$tmp/kinds.json" "$tmp/"'a`touch ran`b.json'
(cd "$tmp" && "$nw" plot 'a`touch ran`b.json' --out bq.png >/dev/null) || fail "the backquoted name: plot failed"
[ ! -e "$tmp/ran" ] || fail "the backquoted name ran as a command when gnuplot drew the chart"
passed=$((passed + 1))
echo "gantt_content: $passed passed, 0 failed"
