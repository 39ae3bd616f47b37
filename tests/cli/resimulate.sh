#!/usr/bin/env bash
# resimulate.sh NARWHAL SOURCE_DIR: scripts/resimulate.py simulates a kept held-out run's
# configurations again (its calibration DIR/NAME.xml and NAME.json, its real rounds in
# DIR/validation.csv) and prints each one's error, then validate's summary. Two configurations
# of one group on a generated one-node platform, real times set to what this build simulates
# (x) and to its eager simulation over 0.8 (y), y's anchor 5% (its kernels stretched by 1.05):
# 1. x +0.0%; y's error that of the eager run with rt_kernel_scale 1.05 over its real time
#    (-16% where the kernels are the whole makespan), not the unstretched -20%;
# 2. the summary: 1 of 2 within max(12%, spread) (y beyond 12%), the pair told apart (spreads
#    0 and 5%) and ordered alike;
# 3. bad input: a configuration the file lacks, a missing executable: one line, exit 2.
set -u
nw=$1 src=$2
tool=$src/scripts/resimulate.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "resimulate: $passed passed, 1 failed: $*"; exit 1; }
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
d=$tmp/run
mkdir -p "$d"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 >"$d/one.xml" || fail "gen-platform"
# The model: what a simulated matmul 512/128 run records on that platform.
"$nw" run --backend sim --platform "$d/one.xml" --app matmul --n 512 --block 128 --data phantom \
  --perfmodel "$d/one.json" --calibrate on >/dev/null || fail "the model"
cat >"$tmp/held.json" <<'J'
{"narwhal-validate": 1, "rounds": 3,
 "calibrations": [{"name": "one", "ranks": 1, "workloads": ["matmul:512:128"]}],
 "configurations": [
  {"name": "x", "calibration": "one", "group": "g", "args": ["--app", "matmul", "--n", "1024", "--block", "256"]},
  {"name": "y", "calibration": "one", "group": "g", "args": ["--app", "matmul", "--n", "1024", "--block", "256", "--sched", "eager"]}]}
J
sim=(run --backend sim --perfmodel "$d/one.json" --nodes 1 --app matmul --n 1024 --block 256
  --data phantom --json)
s=$(field "$("$nw" "${sim[@]}" --platform "$d/one.xml")" makespan_s) || fail "x simulated"
s2=$(field "$("$nw" "${sim[@]}" --platform "$d/one.xml" --sched eager)" makespan_s) ||
  fail "y simulated"
mkdir -p "$tmp/scaled" # under the calibration's file name: the model is labelled with it
sed 's|<prop id="kind" value="cpu"/>|&<prop id="rt_kernel_scale" value="1.05"/>|' "$d/one.xml" \
  >"$tmp/scaled/one.xml"
s3=$(field "$("$nw" "${sim[@]}" --platform "$tmp/scaled/one.xml" --sched eager)" makespan_s) ||
  fail "y simulated, scaled"
ry=$(awk -v t="$s2" 'BEGIN { printf "%.9g", t / 0.8 }')
want_y=$(awk -v a="$s3" -v r="$ry" 'BEGIN { printf "%+6.1f%%", 100 * (a / r - 1) }')
awk -v a="$s3" -v b="$s2" -v r="$ry" 'BEGIN { e = a / r - 1; exit !(a > b && e > -0.19 && e < -0.13) }' ||
  fail "the stretched eager run ($s3 s against $s2 s) is not what the test needs"
{
  echo "configuration,group,real_s,spread,simulated_s,error,anchor"
  echo "x,g,$s,0,$s,0,"
  echo "y,g,$ry,0.05,$s2,-0.2,0.05"
} >"$d/validation.csv"
out=$(python3 "$tool" "$tmp/held.json" "$d" "$nw") || fail "exit $? on good input: $out"
echo "$out"
grep -qE "^x +real [0-9.]+ +\+0\.0%$" <<<"$out" || fail "x's row"
grep -qE "^y +real [0-9.]+ +${want_y//+/\\+}$" <<<"$out" || fail "y's row: wanted $want_y"
passed=1
grep -qE "^$nw: median [0-9.]+%, p95 [0-9.]+%, max [0-9.]+%, 1 of 2 within max\(12%, spread\), pairs told apart 1, ordered alike 1$" \
  <<<"$out" || fail "the summary: wanted 1 of 2 within bound, 1 pair told apart and alike"
passed=2
bad() { # bad NAME EXPECTED ARGS...: one line naming the problem, exit 2
  local name=$1 want=$2
  shift 2
  python3 "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "$want" "$tmp/err" ||
    fail "$name: exit $rc, stderr: $(cat "$tmp/err")"
}
mkdir -p "$tmp/z"
cp "$d/one.xml" "$d/one.json" "$tmp/z/"
printf 'configuration,group,real_s,spread\nz,g,1,0\n' >"$tmp/z/validation.csv"
bad "unknown configuration" "configuration z is not in" "$tmp/held.json" "$tmp/z" "$nw"
bad "not an executable" "not an executable" "$tmp/held.json" "$d" "$tmp/none"
passed=3
echo "resimulate: $passed passed, 0 failed"
