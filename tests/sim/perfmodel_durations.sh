#!/usr/bin/env bash
# perfmodel_durations.sh NARWHAL SRC_DIR: StarPU's SimGrid mode. A calibration run writes a
# model (--calibrate on: every subtask's measured duration, all nodes' merged at node 0); a
# model file whose mean for that footprint is then set to 0.5 s makes the simulator charge
# exactly 0.5 s per subtask: the devices' busy seconds sum to subtasks x 0.5. With node 1
# slowed twofold (--slow 1:2), its subtasks take 1 s and node 0's still 0.5 s: the run's own
# samples (node 1's 1 s among them) feed the policies' model, never the durations charged.
# The run compares its kernels with the model as given (kernels_*), not with its own samples.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(run --backend sim --platform "$src/platforms/small.xml" --nodes 2 --n 1024 --block 128
  --data phantom --json)
fail() { echo "perfmodel_durations: 0 passed, 1 failed: $*"; exit 1; }
out=$("$nw" "${common[@]}" --calibrate on --perfmodel "$tmp/model.json") || fail "calibration run"
samples=$(printf '%s' "$out" | grep -oE '"perf_samples":[[:space:]]*[0-9]+' | grep -oE '[0-9]+$')
[ "$samples" = 64 ] || fail "the calibration recorded $samples samples, wanted 64 (all subtasks)"
grep -qE '"count":[[:space:]]*64' "$tmp/model.json" || fail "the model file does not hold 64 samples"
sed -E 's/("mean":[[:space:]]*)[0-9.eE+-]+/\10.5/; s/("stddev":[[:space:]]*)[0-9.eE+-]+/\10/' \
  "$tmp/model.json" >"$tmp/half.json"
out=$("$nw" "${common[@]}" --perfmodel "$tmp/half.json" 2>"$tmp/err") || fail "run with the model"
priced() { printf '%s' "$out" | grep -oE "\"priced_by_$1\":[[:space:]]*[0-9]+" | grep -oE '[0-9]+$'; }
[ "$(priced model)/$(priced cost_model)" = 64/0 ] ||
  fail "priced by model/cost model: $(priced model)/$(priced cost_model), wanted 64/0"
! grep -q "could not time" "$tmp/err" || fail "a warning though the model timed every subtask"
busy=$(printf '%s' "$out" | grep -oE '"busy_s":[[:space:]]*[0-9.eE+-]+' |
  awk -F: '{ s += $2 } END { printf "%.9f", s }')
echo "busy seconds of all devices: $busy (wanted 64 x 0.5 = 32)"
awk -v b="$busy" 'BEGIN { exit !(b > 31.999999 && b < 32.000001) }' || fail "busy $busy != 32"
out=$("$nw" "${common[@]}" --perfmodel "$tmp/half.json" --slow 1:2 --multi-assign off) ||
  fail "run with the model and node 1 slowed"
read -r got want < <(printf '%s' "$out" | sed -n '/"devices"/,$p' | awk -F'[:,]' '
  /"node"/ { node = $2 + 0 } /"subtasks"/ { n = $2 + 0 }
  /"busy_s"/ { got += $2; want += n * (node == 1 ? 1.0 : 0.5) }
  END { printf "%.9f %.9f\n", got, want }')
echo "node 1 slowed 2x: busy seconds $got (wanted node 0's subtasks x 0.5 + node 1's x 1 = $want)"
awk -v g="$got" -v w="$want" 'BEGIN { exit !(w > 0 && g > w - 1e-6 && g < w + 1e-6) }' ||
  fail "busy $got != $want with node 1 slowed"
# A kind the model never measured: every subtask takes the cost model, and the run says so
# in one line on stderr (never a silent fallback).
out=$("$nw" "${common[@]}" --app gemv --perfmodel "$tmp/half.json" 2>"$tmp/err") ||
  fail "gemv run with matmul's model"
n=$(printf '%s' "$out" | grep -oE '"subtasks":[[:space:]]*[0-9]+' | head -n1 | grep -oE '[0-9]+$')
[ "$(priced model)/$(priced cost_model)" = "0/$n" ] ||
  fail "gemv: priced by model/cost model $(priced model)/$(priced cost_model), wanted 0/$n"
[ "$(grep -c . "$tmp/err")" = 1 ] &&
  grep -q "could not time $n of $n subtasks (the first: kind 'gemv' on cpu" "$tmp/err" ||
  fail "gemv: stderr is not the one line about the unpriced subtasks: $(cat "$tmp/err")"
echo "gemv with matmul's model: $n of $n subtasks by the cost model, said on stderr"
# Footprints never measured: a model calibrated on matmul 1024 with blocks 64, 128 and 256
# times matmul 1536 / 192 by its regression over the cost model's flops, and a model of one
# size only times it by the rate it measured (scaled); --json's "pricing" says which. Since
# the simulated kernels take their flops at the platform's speed, either prediction gives the
# uncalibrated run's makespan.
mm=(run --backend sim --platform "$src/platforms/small.xml" --nodes 2 --data phantom --json)
for b in 64 128 256; do
  "$nw" "${mm[@]}" --n 1024 --block "$b" --calibrate on --perfmodel "$tmp/sizes.json" >/dev/null ||
    fail "calibration run of block $b"
done
"$nw" "${mm[@]}" --n 1024 --block 128 --calibrate on --perfmodel "$tmp/one.json" >/dev/null ||
  fail "calibration run of one size"
plain=$("$nw" "${mm[@]}" --n 1536 --block 192 | grep -oE '"makespan_s":[[:space:]]*[0-9.eE+-]+' |
  grep -oE '[0-9.eE+-]+$') || fail "uncalibrated run of matmul 1536"
for model in sizes:regression one:scaled; do
  out=$("$nw" "${mm[@]}" --n 1536 --block 192 --perfmodel "$tmp/${model%%:*}.json" 2>"$tmp/err") ||
    fail "matmul 1536 with the model of $model"
  counts=$(printf '%s' "$out" | tr -d ' \t\n' | grep -oE '"pricing":\{"matmul":\{[^}]*\}')
  want='"pricing":{"matmul":{"uncalibrated":0,"history":0,"regression":64,"scaled":0}}'
  [ "${model#*:}" = scaled ] && want='"pricing":{"matmul":{"uncalibrated":0,"history":0,"regression":0,"scaled":64}}'
  [ "$counts}" = "$want" ] || fail "matmul 1536 with the $model model: $counts, wanted $want"
  [ ! -s "$tmp/err" ] || fail "a warning though the model timed every subtask: $(cat "$tmp/err")"
  m=$(printf '%s' "$out" | grep -oE '"makespan_s":[[:space:]]*[0-9.eE+-]+' | grep -oE '[0-9.eE+-]+$')
  awk -v a="$m" -v b="$plain" 'BEGIN { exit !(a > b * 0.999 && a < b * 1.001) }' ||
    fail "matmul 1536 with the $model model: makespan $m, uncalibrated $plain"
  echo "matmul 1536 / 192, never measured, with the $model model: 64 subtasks, makespan $m s ($plain s uncalibrated)"
done
# What the given model predicted beside what the kernels took (kernels_*, narwhal validate's
# kernels column): matmul 1536 / 192 by the regression, with node 1 slowed twofold, predicts
# what it predicts unslowed (the model as given, not the run's own samples, which from a
# footprint's tenth take over the live model's history), and measures the devices' busy time.
key() { printf '%s' "$2" | grep -oE "\"$1\":[[:space:]]*[0-9.eE+-]+" | head -n1 | grep -oE '[0-9.eE+-]+$'; }
even=$("$nw" "${mm[@]}" --n 1536 --block 192 --perfmodel "$tmp/sizes.json") || fail "matmul 1536, sizes"
slow=$("$nw" "${mm[@]}" --n 1536 --block 192 --perfmodel "$tmp/sizes.json" --slow 1:2 \
  --multi-assign off) || fail "matmul 1536, sizes, node 1 slowed"
busy=$(printf '%s' "$slow" | grep -oE '"busy_s":[[:space:]]*[0-9.eE+-]+' |
  awk -F: '{ s += $2 } END { printf "%.9f", s }')
echo "matmul 1536 / 192, node 1 slowed 2x: $(key kernels_compared "$slow") kernels compared," \
  "measured $(key kernels_measured_s "$slow") s (busy $busy s), predicted" \
  "$(key kernels_predicted_s "$slow") s (unslowed: $(key kernels_predicted_s "$even") s)"
[ "$(key kernels_compared "$slow")/$(key kernels_compared "$even")" = 64/64 ] ||
  fail "kernels compared $(key kernels_compared "$slow")/$(key kernels_compared "$even"), wanted 64/64"
awk -v m="$(key kernels_measured_s "$slow")" -v p="$(key kernels_predicted_s "$slow")" \
  -v q="$(key kernels_predicted_s "$even")" -v b="$busy" \
  'BEGIN { exit !(p > 0 && p > q * 0.999999 && p < q * 1.000001 && m > b * 0.999999 &&
    m < b * 1.000001 && m > 1.3 * p) }' || fail "the slowed run's kernels against the model"
echo "perfmodel_durations: 7 passed, 0 failed"
