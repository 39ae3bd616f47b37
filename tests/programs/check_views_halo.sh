#!/usr/bin/env bash
# check_views_halo.sh JACOBI SRC MPIEXEC [plain|asan]: tests/programs/jacobi.c with and
# without its halo. In a sanitizer build (asan) the unsubscribed bytes are also poisoned, so
# the halo-less run stops at its first bad read with AddressSanitizer's report naming the
# kernel (jacobi.c), instead of the runtime's line below.
# With it: verified, on the simulator and on two ranks. Without it, under --check-views on:
# exit 1 and one line from the runtime naming the task, the subtask, the space and the byte:
# the first element the bug computes from a neighbour it did not subscribe to, in y (space
# index 1): for subtask s > 0 its block's first, byte 1024 s; for subtask 0 (whose left end is
# clamped) its last, byte 1020. Which subtask fails first depends on the schedule.
# Without it and unchecked, on two nodes: the runtime says nothing and the result is wrong
# where a neighbour lived on the other node (exit 3, from the program's own comparison), which
# is why the check exists.
set -uo pipefail
jacobi=$1 src=$2 mpiexec=$3 mode=${4:-plain}
small=$src/platforms/small.xml
passed=0
fail() { echo "check_views_halo: $passed passed, 1 failed: $*"; exit 1; }
real() { ASAN_OPTIONS=detect_leaks=0 "$src/tests/real/mpirun.sh" "$mpiexec" 2 "$jacobi" --backend real "$@"; }
sim() { "$jacobi" --backend sim --platform "$small" --nodes 2 "$@"; }
args=(--n 4096 --block 256 --check-views on)
want="^(test_jacobi|jacobi): node [0-9]+: subtask ([0-9]+) of task 1 \('jacobi-sweep'\) wrote at byte ([0-9]+) of space index 1 a value made from bytes it did not subscribe to read \(--check-views fills them with the NaN 0x7FF8DBDB\)$"

for where in sim real; do
  out=$($where "${args[@]}" --halo 1 2>&1)
  [ $? = 0 ] && grep -q "jacobi: 4096 elements, 0 wrong" <<<"$out" ||
    fail "$where, with its halo: $out"
  passed=$((passed + 1))
  out=$($where "${args[@]}" --halo 0 2>&1)
  code=$?
  if [ "$mode" = asan ]; then
    [ "$code" != 0 ] && grep -q "AddressSanitizer: use-after-poison" <<<"$out" &&
      grep -qE "in kernel .*tests/programs/jacobi.c" <<<"$out" ||
      fail "$where, without its halo, sanitized: exit $code, no report naming the kernel: $(head -c 600 <<<"$out")"
    passed=$((passed + 1))
    continue
  fi
  [ "$code" = 1 ] || fail "$where, without its halo: exit $code, wanted 1: $out"
  line=$(grep -E "$want" <<<"$out")
  [ "$(grep -c "did not subscribe" <<<"$out")" = 1 ] && [ -n "$line" ] ||
    fail "$where, without its halo: not one line matching '$want': $out"
  [[ $line =~ subtask\ ([0-9]+)\ .*byte\ ([0-9]+)\  ]]
  s=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]}
  { [ "$s" = 0 ] && [ "$b" = 1020 ]; } || { [ "$s" -gt 0 ] && [ "$b" = $((1024 * s)) ]; } ||
    fail "$where: subtask $s, byte $b: not the element its missing neighbour made"
  passed=$((passed + 1))
done
out=$(sim --n 4096 --block 256 --check-views off --halo 0 2>&1)
code=$?
[ "$code" = 3 ] && ! grep -q "did not subscribe" <<<"$out" && grep -qE "jacobi: 4096 elements, [1-9][0-9]* wrong" <<<"$out" ||
  fail "unchecked, without its halo: exit $code, wanted 3 and wrong elements: $out"
passed=$((passed + 1))
echo "check_views_halo: $passed passed, 0 failed"
