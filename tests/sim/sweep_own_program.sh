#!/usr/bin/env bash
# sweep_own_program.sh NARWHAL PROGRAM: a sweep of a program of one's own ("program" in the
# sweep file: examples/first-task), from a directory outside the repository, -j 2. Narwhal's
# keys go into each point's run file and the program's own (--alpha) onto its command line (a
# bad one is refused before any point runs, in the program's words). Interrupted after some
# points (SIGINT) and run again with --resume, it keeps the rows it had, runs only the others,
# and ends with the CSV an uninterrupted run writes.
set -u
nw=$1 program=$2
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "sweep_own_program: 0 passed, 1 failed: $*"; exit 1; }
sweep() { # sweep FILE CSV ALPHAS
  cat >"$1" <<JSON
{"title": "first_task", "program": "$program",
 "base": {"platform": "small.xml", "n": 8192, "block": 512},
 "vary": {"nodes": [1, 2, 3, 4], "alpha": [$3]}, "csv": "$2"}
JSON
}
alphas="3, 5, 7, 9, 11, 13"
sweep full.json full.csv "$alphas"
"$nw" sweep full.json -j 2 --plot off >full.out 2>&1 || { c=$?; cat full.out; fail "the whole sweep exited $c"; }
[ "$(tail -n +2 full.csv | grep -c ',true')" = 24 ] || fail "the whole sweep has not 24 verified rows: $(cat full.csv)"

# Interrupted once it has written two rows (a header and two lines), then resumed.
sweep part.json part.csv "$alphas"
"$nw" sweep part.json -j 2 --plot off >part.out 2>&1 &
pid=$!
for _ in $(seq 1 2000); do
  [ "$(wc -l 2>/dev/null <part.csv || echo 0)" -ge 3 ] && break
  sleep 0.01
done
kill -INT $pid 2>/dev/null
wait $pid
code=$?
kept=$(($(wc -l <part.csv) - 1))
if [ $code = 0 ]; then
  echo "sweep_own_program: note: the sweep finished before the interrupt; resuming a whole CSV"
else
  [ $code = 130 ] || { cat part.out; fail "the interrupted sweep exited $code, wanted 130"; }
  grep -q "interrupted with $kept of 24 points done" part.out || { cat part.out; fail "no interrupted line for $kept rows"; }
fi
"$nw" sweep part.json -j 2 --resume --plot off >resume.out 2>&1 || { c=$?; cat resume.out; fail "the resumed sweep exited $c"; }
grep -q "resumed: $kept of 24 points from part.csv" resume.out || { cat resume.out; fail "the resume did not keep $kept rows"; }
cmp -s full.csv part.csv || { diff full.csv part.csv; fail "the resumed CSV differs from the whole sweep's"; }

# The program's own option reaches it: a bad one is the program's refusal, before any point.
sweep bad.json bad.csv '3, "x"'
out=$("$nw" sweep bad.json --plot off 2>&1)
code=$?
[ $code = 2 ] || fail "a bad --alpha exited $code, wanted 2: $out"
case $out in *"first_task: --alpha"*) ;; *) fail "a bad --alpha: '$out'" ;; esac
[ ! -s bad.csv ] || [ "$(wc -l <bad.csv)" -le 1 ] || fail "a point ran despite the bad --alpha"
echo "sweep_own_program: 1 passed, 0 failed ($kept of 24 rows kept across the interrupt)"
