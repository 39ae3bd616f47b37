#!/usr/bin/env bash
# kernel_scale.sh NARWHAL SRC_DIR: rt_kernel_scale (backends/simgrid/sim_costs.h), the factor by
# which `narwhal validate` stretches a node's CPU kernels to the machine's speed at its real
# rounds.
# 1. matmul 1024/256 on one 2-core node without runtime costs: at rt_kernel_scale=2 the devices'
#    busy time is twice the unscaled run's, within 1e-9 relative, and so is the makespan.
# 2. The same at 0.5: half.
# 3. rt_kernel_scale=0 and =-1 are refused: one line naming the property, exit 2.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "kernel_scale: $passed passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
for x in 2 0.5 0 -1; do
  "$gen" --nodes 1 --cores 2 --cpu-prop rt_kernel_scale=$x >"$tmp/s$x.xml"
done
"$gen" --nodes 1 --cores 2 >"$tmp/plain.xml"
mm=(run --backend sim --app matmul --n 1024 --block 256 --data phantom --json)
busy() { field_sum "$1" busy_s; }
base=$("$nw" "${mm[@]}" --platform "$tmp/plain.xml") || fail "the unscaled run failed"
for x in 2 0.5; do
  out=$("$nw" "${mm[@]}" --platform "$tmp/s$x.xml") || fail "the run at $x failed"
  echo "rt_kernel_scale=$x: busy $(busy "$out") s against $(busy "$base") s, makespan $(field "$out" makespan_s) against $(field "$base" makespan_s) s"
  awk -v a="$(busy "$out")" -v b="$(busy "$base")" -v ma="$(field "$out" makespan_s)" \
    -v mb="$(field "$base" makespan_s)" -v x="$x" 'BEGIN {
    e1 = a / (x * b) - 1; e2 = ma / (x * mb) - 1
    exit !(b > 0 && e1 < 1e-9 && e1 > -1e-9 && e2 < 1e-9 && e2 > -1e-9) }' ||
    fail "rt_kernel_scale=$x did not scale the kernels by $x"
  passed=$((passed + 1))
done
for x in 0 -1; do
  err=$("$nw" "${mm[@]}" --platform "$tmp/s$x.xml" 2>&1 >/dev/null)
  code=$?
  [ $code = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
    printf '%s' "$err" | grep -q "rt_kernel_scale" ||
    fail "rt_kernel_scale=$x: exit $code, '$err'"
done
passed=3
echo "kernel_scale: 3 passed, 0 failed"
