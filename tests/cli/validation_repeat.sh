#!/usr/bin/env bash
# validation_repeat.sh SOURCE_DIR: benchmarks/validation-repeat.py compares two validate CSVs'
# real times as validate summarises errors (median, nearest-rank p95, max) and names the worst
# configuration; a name with a comma in it stays one configuration; the two runs' simulations,
# the floor of a perfect predictor, the errors of one sign; within a run that kept every round
# (rounds_s), the best of its first half against the best of its second, alone too. Bad input:
# one line, exit 2.
set -u
tool=$1/benchmarks/validation-repeat.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "validation_repeat: 0 passed, 1 failed: $*"; exit 1; }
head=configuration,group,real_s,spread,simulated_s,error
# a.csv has every round's time (rounds_s): x's best of rounds 1-2 is 1.0, of 3-4 1.25 (20%);
# y's 2.0 and 2.0 (0); only's one round has no halves; z has none.
printf '%s,rounds_s\n"x, one",g,1.0,0,1.05,0.05,1.1;1.0;1.25;1.3\ny,g,2.0,0,1.8,-0.10,2.0;2.2;2.0;2.1\nz,g,3.0,0,3.0,0,\nonly,g,9,0,9,0.5,9\n' \
  "$head" >"$tmp/a.csv"
printf '%s\n"x, one",g,1.25,0,1.25,0\ny,g,2.0,0,2.06,-0.03\nz,g,2.0,0,2.2,0.10\n' "$head" >"$tmp/b.csv"
out=$(python3 "$tool" "$tmp/a.csv" "$tmp/b.csv") || fail "exit $? on good input"
# |A - B| / B: x 0.25 / 1.25 = 20%, y 0, z 1 / 2 = 50%; the p95 of three is the largest.
grep -qF 'b.csv: 3 configurations in both' <<<"$out" || fail "count: $out"
grep -qxF "$tmp/a.csv, within: the best of the first 2 rounds against the best of the next, over 2 configurations: median 0.0%, p95 20.0%, max 20.0%" \
  <<<"$out" || fail "within a.csv: $out"
[ "$(grep -c ', within:' <<<"$out")" = 1 ] || fail "b.csv has no rounds_s, yet: $out"
grep -qF 'real against real: median 20.0%, p95 50.0%, max 50.0% (the worst: z, 3.0000 s against 2.0000 s)' \
  <<<"$out" || fail "real line: $out"
grep -qF 'simulated against real, first: median 5.0%, p95 10.0%, max 10.0%' <<<"$out" ||
  fail "first file's errors: $out"
grep -qF 'simulated against real, second: median 3.0%, p95 10.0%, max 10.0%' <<<"$out" ||
  fail "second file's errors: $out"
# The simulations: x |1.05 - 1.25| / 1.25 = 16%, y 0.26 / 2.06 = 12.6%, z 0.8 / 2.2 = 36.4%.
grep -qF 'simulated against simulated: median 16.0%, p95 36.4%, max 36.4%' <<<"$out" ||
  fail "simulations: $out"
grep -qF 'over 2 runs, 1 pairs: real against real: median 20.0%, p95 50.0%; simulated against real: median 3.0-5.0%, p95 10.0-50.0%' \
  <<<"$out" || fail "all pairs' line: $out"
# The runs' median (x 1.125, y 2, z 2.5) against each run's real: a 12.5%, 0, 16.7%; b 10%, 0, 25%.
grep -qF "the runs' median real times against each run's, over the 3 configurations all have: median 10.0-12.5%, p95 16.7-25.0%" \
  <<<"$out" || fail "median line: $out"
# y below the hardware in both runs (-10%, -3%); x and z have a run at 0, on neither side.
grep -qF 'simulated on the same side of the hardware in all 2 runs: 1 configurations' <<<"$out" ||
  fail "steady count: $out"
grep -qxF '  y: median -6.5% (-10.0% to -3.0%)' <<<"$out" || fail "steady errors: $out"
printf 'configuration,real\nx,1\n' >"$tmp/bad.csv"
printf '%s\nq,g,1,0,1,0\n' "$head" >"$tmp/other.csv"
printf '%s\nx,g,0,0,1,0\n' "$head" >"$tmp/zero.csv"
printf '%s,rounds_s\nx,g,1,0,1,0,1;x\n' "$head" >"$tmp/rounds.csv"
printf '%s,rounds_s\nx,g,1,0,1,0,1;0\n' "$head" >"$tmp/round0.csv"
one=$(python3 "$tool" "$tmp/a.csv") || fail "exit $? on one file with rounds_s"
[ "$one" = "$(grep -F ', within:' <<<"$out")" ] || fail "one file: $one"
for args in "" "$tmp/b.csv" "$tmp/a.csv $tmp/missing.csv" "$tmp/a.csv $tmp/bad.csv" \
  "$tmp/a.csv $tmp/other.csv" "$tmp/zero.csv $tmp/a.csv" "$tmp/rounds.csv $tmp/a.csv" \
  "$tmp/round0.csv"; do
  # shellcheck disable=SC2086 # the arguments, split
  err=$(python3 "$tool" $args 2>&1 >/dev/null)
  rc=$?
  [ $rc = 2 ] || fail "'$args' exited $rc, not 2"
  if [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || [[ $err != validation-repeat:* ]]; then
    fail "'$args' said: $err"
  fi
done
echo "validation_repeat: 1 passed"
