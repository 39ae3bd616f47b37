#!/usr/bin/env bash
# acceptance_rehearsal.sh SCRIPT BUILD_DIR OUT cuda|no-cuda: the test gpu.acceptance_rehearsal.
# Runs SCRIPT (scripts/gpu-acceptance.sh) --rehearse on BUILD_DIR into OUT (emptied first) and
# checks what it left, on any machine, GPU or not: machine.txt, and in summary.txt one line per
# part, 0 to 6 in order, part 0 ok, within 60 s. In a CUDA build the rehearsal exits 0 with
# every GPU part "skipped" (its pieces checked, nothing run on a GPU); in a build without CUDA
# it must exit 1, the GPU parts FAILED naming the missing CUDA, StarPU's skipped.
set -euo pipefail
[ $# = 4 ] || { echo "usage: acceptance_rehearsal.sh SCRIPT BUILD_DIR OUT cuda|no-cuda" >&2; exit 2; }
script=$1 build=$2 out=$3 kind=$4
fail() {
  echo "FAIL: $*"
  if [ -f "$out/summary.txt" ]; then sed 's/^/  summary.txt: /' "$out/summary.txt"; fi
  exit 1
}
rm -rf "$out"
start=$SECONDS rc=0
"$script" --build "$build" --rehearse "$out" || rc=$?
secs=$((SECONDS - start))
[ "$secs" -lt 60 ] || fail "the rehearsal took $secs s (under 60 wanted)"
[ -s "$out/machine.txt" ] || fail "no $out/machine.txt"
[ -f "$out/summary.txt" ] || fail "no $out/summary.txt"
mapfile -t lines <"$out/summary.txt"
[ ${#lines[@]} = 7 ] || fail "summary.txt has ${#lines[@]} lines, not one per part (7)"
names=(machine gpu-tests gpu-sgemm validation many-task starpu examples)
for i in "${!names[@]}"; do
  [[ ${lines[i]} =~ ^part\ $i\ ${names[i]}:\ (ok|FAILED|skipped)(\ \(.*\))?\ in\ [0-9]+\ s$ ]] ||
    fail "line $((i + 1)) of summary.txt is not part $i ${names[i]}'s: ${lines[i]}"
done
[[ ${lines[0]} == "part 0 machine: ok "* ]] || fail "part 0 is not ok"
if [ "$kind" = cuda ]; then
  [ "$rc" = 0 ] || fail "the rehearsal exited $rc, not 0"
  for i in 1 2 3 4 5 6; do
    [[ ${lines[i]} == "part $i ${names[i]}: skipped ("* ]] || fail "GPU part $i is not skipped"
  done
else
  [ "$rc" = 1 ] || fail "the rehearsal of a build without CUDA exited $rc, not 1"
  for i in 1 2 3 4 6; do
    [[ ${lines[i]} == *": FAILED ("*"not a CUDA build"* ]] || fail "part $i does not fail for want of CUDA"
  done
  [[ ${lines[5]} == "part 5 starpu: skipped ("* ]] || fail "part 5 (StarPU) is not skipped"
fi
echo "acceptance_rehearsal: the rehearsal ($kind build) left what it should, in $secs s"
