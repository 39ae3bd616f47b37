#!/usr/bin/env bash
# sweep_parallel_resume.sh NARWHAL SRC_DIR: a sweep over two keys (6 points of the many-task
# adder on the K20X model, each well under a second) gives the same CSV sequentially and with
# -j 2, and its figure (a PNG with a line per value of the second key); interrupted with Ctrl-C (SIGINT to its process group, as a terminal sends it) after
# two rows, it keeps those rows and says how to resume, and --resume then runs only the points
# the CSV lacks and ends with the sequential run's CSV.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "sweep_parallel_resume: $1"; echo "sweep_parallel_resume: 0 passed, 1 failed"; exit 1; }
cat >"$tmp/s.json" <<JSON
{"base": {"app": "adder", "backend": "sim", "platform": "$src/platforms/k20x-node.xml",
          "n": 4000, "block": 1, "app-param": {"flops": "1"}, "data": "phantom",
          "devices": "gpu", "gpu-mode": "many-task"},
 "vary": {"mtc-bundle": [1, 10, 100], "gpu-streams": [128, 256]},
 "columns": ["gpu_launches"]}
JSON
"$nw" sweep "$tmp/s.json" --csv "$tmp/seq.csv" >/dev/null || fail "the sequential sweep failed"
[ "$(wc -l <"$tmp/seq.csv")" -eq 7 ] || fail "the sequential CSV has not 6 rows"
# Its figure, drawn by gnuplot (scripts/bootstrap.sh installs it): a PNG and the script beside.
[ "$(head -c 4 "$tmp/seq.png" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ] ||
  fail "no PNG beside the CSV (seq.png)"
grep -q '^array series_name\[2\] = \["gpu-streams=128", "gpu-streams=256"\]' "$tmp/seq.gp" ||
  fail "seq.gp does not name a series per value of the second key"
"$nw" sweep "$tmp/s.json" --csv "$tmp/par.csv" -j 2 >/dev/null || fail "the -j 2 sweep failed"
cmp -s "$tmp/seq.csv" "$tmp/par.csv" || fail "-j 2 gave other rows than the sequential run"

set -m # the sweep in a process group of its own, which Ctrl-C reaches whole
"$nw" sweep "$tmp/s.json" --csv "$tmp/int.csv" >"$tmp/int.out" 2>"$tmp/int.err" &
pid=$!
set +m
for _ in $(seq 1 12000); do # up to 2 minutes: a sanitizer build runs each point slowly
  [ -f "$tmp/int.csv" ] && [ "$(wc -l <"$tmp/int.csv")" -ge 3 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
kill -INT -- -"$pid" 2>/dev/null
wait "$pid"
status=$?
rows=$(($(wc -l <"$tmp/int.csv") - 1))
echo "interrupted: status $status, $rows rows kept; $(cat "$tmp/int.err")"
[ "$status" -eq 130 ] || fail "an interrupted sweep exits $status, not 130"
[ "$rows" -ge 2 ] && [ "$rows" -lt 6 ] || fail "$rows rows after the interruption, wanted 2 to 5"
grep -q "interrupted with $rows of 6 points done" "$tmp/int.err" || fail "no line saying what was kept"
"$nw" sweep "$tmp/s.json" --csv "$tmp/int.csv" --resume >"$tmp/res.out" || fail "--resume failed"
grep -q "^resumed: $rows of 6 points" "$tmp/res.out" || fail "--resume did not keep the $rows rows"
cmp -s "$tmp/seq.csv" "$tmp/int.csv" || fail "the resumed CSV differs from the sequential one"
echo "sweep_parallel_resume: 1 passed, 0 failed"
