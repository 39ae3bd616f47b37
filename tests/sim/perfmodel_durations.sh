#!/usr/bin/env bash
# perfmodel_durations.sh NARWHAL SRC_DIR: StarPU's SimGrid mode. A calibration run writes a
# model (--calibrate on: every subtask's measured duration, all nodes' merged at node 0); a
# model file whose mean for that footprint is then set to 0.5 s makes the simulator charge
# exactly 0.5 s per subtask: the devices' busy seconds sum to subtasks x 0.5.
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
out=$("$nw" "${common[@]}" --perfmodel "$tmp/half.json") || fail "run with the model"
busy=$(printf '%s' "$out" | grep -oE '"busy_s":[[:space:]]*[0-9.eE+-]+' |
  awk -F: '{ s += $2 } END { printf "%.9f", s }')
echo "busy seconds of all devices: $busy (wanted 64 x 0.5 = 32)"
awk -v b="$busy" 'BEGIN { exit !(b > 31.999999 && b < 32.000001) }' || fail "busy $busy != 32"
echo "perfmodel_durations: 1 passed, 0 failed"
