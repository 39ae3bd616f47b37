#!/usr/bin/env bash
# validation_resimulate.sh NARWHAL SOURCE_DIR: benchmarks/validation-resimulate.py simulates a
# recorded held-out run's configurations again with a calibration directory (NAME.json,
# anchored/NAME.xml) and prints the recorded and the new errors against the recorded best real
# rounds, with validate's summary for each. Two configurations of one group on a generated
# one-node platform, real times set to what this build simulates (x) and 25% above it (y), the
# recorded simulations 10% above (x) and 20% below (y) the real:
# 1. now: x +0.0%, y -20.0%, median 10.0%, p95 20.0% (nearest rank of two: the larger), max
#    20.0%; within max(12%, own spread): 1 of 2 (y's rounds spread 5%); the pair told apart
#    (its times differ by more than both spreads) ordered alike (x faster on both sides);
# 2. recorded: +10.0% and -20.0% (median 15.0%), the pair ordered unlike (the recorded x,
#    1.1 times x's real time, is above the recorded y, 0.8 times y's real time = x's simulation);
# 3. bad input: a CSV without rounds_s, a configuration the held-out file lacks, a missing
#    calibration file: one line each, exit 2.
set -u
nw=$1 src=$2
tool=$src/benchmarks/validation-resimulate.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "validation_resimulate: $passed passed, 1 failed: $*"; exit 1; }
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
mkdir -p "$tmp/cal/anchored"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 >"$tmp/cal/anchored/one.xml" || fail "gen-platform"
# The model: what a simulated matmul 512/128 run records on that platform.
"$nw" run --backend sim --platform "$tmp/cal/anchored/one.xml" --app matmul --n 512 --block 128 \
  --data phantom --perfmodel "$tmp/cal/one.json" --calibrate on >/dev/null || fail "the model"
cat >"$tmp/held.json" <<'J'
{"narwhal-validate": 1, "rounds": 3,
 "calibrations": [{"name": "one", "ranks": 1, "workloads": ["matmul:512:128"]}],
 "configurations": [
  {"name": "x", "calibration": "one", "group": "g", "args": ["--app", "matmul", "--n", "1024", "--block", "256"]},
  {"name": "y", "calibration": "one", "group": "g", "args": ["--app", "matmul", "--n", "1024", "--block", "256", "--sched", "eager"]}]}
J
o=$("$nw" run --backend sim --platform "$tmp/cal/anchored/one.xml" --perfmodel "$tmp/cal/one.json" \
  --nodes 1 --app matmul --n 1024 --block 256 --data phantom --json) || fail "direct simulation"
s=$(field "$o" makespan_s)
o2=$("$nw" run --backend sim --platform "$tmp/cal/anchored/one.xml" --perfmodel "$tmp/cal/one.json" \
  --nodes 1 --app matmul --n 1024 --block 256 --sched eager --data phantom --json) ||
  fail "direct simulation, eager"
s2=$(field "$o2" makespan_s)
# y's real time: its simulation over 0.8 (now -20%), its rounds 5% apart.
read -r rx ry rec_x rec_y sx sy <<<"$(awk -v s="$s" -v t="$s2" 'BEGIN {
  ry = t / 0.8; printf "%.9g %.9g %.9g %.9g %.9g %.9g", s, ry, 1.1 * s, 0.8 * ry, s * 1.0001, ry * 1.05 }')"
awk -v a="$rx" -v b="$ry" 'BEGIN { exit !(b - a > 0.05 * b) }' ||
  fail "x ($rx s) and y ($ry s) not told apart: the test needs y's eager slower"
{
  echo "configuration,group,real_s,spread,simulated_s,error,rounds_s"
  echo "x,g,$rx,0,$rec_x,0.1,$rx;$sx"
  echo "y,g,$ry,0.05,$rec_y,-0.2,$ry;$sy"
} >"$tmp/run.csv"
out=$(python3 "$tool" "$tmp/run.csv" "$tmp/cal" --narwhal "$nw" --file "$tmp/held.json") ||
  fail "exit $? on good input: $out"
echo "$out"
grep -qE '^x +[0-9.]+ +\+10\.0% +\+0\.0%$' <<<"$out" || fail "x's row"
grep -qE '^y +[0-9.]+ +-20\.0% +-20\.0%$' <<<"$out" || fail "y's row"
grep -qxF 'now: |error| median 10.0%, p95 20.0%, max 20.0%; within max(12%, own spread): 1 of 2; pairs the hardware tells apart: 1, ordered alike 1' \
  <<<"$out" || fail "the new summary"
passed=1
grep -qxF 'recorded: |error| median 15.0%, p95 20.0%, max 20.0%; within max(12%, own spread): 1 of 2; pairs the hardware tells apart: 1, ordered alike 0' \
  <<<"$out" || fail "the recorded summary"
passed=2
bad() { # bad NAME EXPECTED ARGS...: one line naming the problem, exit 2
  local name=$1 want=$2
  shift 2
  python3 "$tool" "$@" --narwhal "$nw" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "$want" "$tmp/err" ||
    fail "$name: exit $rc, stderr: $(cat "$tmp/err")"
}
printf 'configuration,group,real_s,spread,simulated_s,error\nx,g,1,0,1,0\n' >"$tmp/no_rounds.csv"
bad "no rounds_s" "not a validation.csv row" "$tmp/no_rounds.csv" "$tmp/cal" --file "$tmp/held.json"
printf 'configuration,group,real_s,spread,simulated_s,error,rounds_s\nz,g,1,0,1,0,1\n' >"$tmp/z.csv"
bad "unknown configuration" "configuration 'z' is not in" "$tmp/z.csv" "$tmp/cal" --file "$tmp/held.json"
mkdir -p "$tmp/empty"
bad "missing calibration" "anchored/one.xml: missing" "$tmp/run.csv" "$tmp/empty" --file "$tmp/held.json"
passed=3
echo "validation_resimulate: $passed passed, 0 failed"
