#!/usr/bin/env bash
# space_first_touches.sh NARWHAL SRC_DIR: the pages of its copies of spaces a node's handlers
# write first (space_pages_fresh; core/data/touched.h), each a page fault where the copy was
# mapped fresh (docs/experiments/space-first-touches.md), which a calibrated platform prices
# (rt_KIND_per_space_page).
# 1. matmul 3072/1536 on one node (A, B, C of 9216 pages each) with bytes: the program's writes
#    of A and B count 18432; C written in place by the kernels adds none (the kernel's time holds
#    them); C committed from private views (--check-views on) adds its 9216. matmul 1024/256's
#    copies (4 MiB) count none: GNU libc serves blocks under 32 MiB from heap memory the process
#    may have touched already (core/data/space.c).
# 2. Without bytes nothing is allocated to fault (0); on a node with a GPU copies are pinned
#    when made (0).
# 3. Priced (rt_exec_done_per_space_page = 10 us), the pages C's commits write first cost their
#    handlers that, which the makespan shows: at least the last commit's 1536 new pages (a
#    block's rows share a page with its left neighbour's), at most all 9216.
# 4. Without bytes, on a platform that prices them, the pages are counted as the run with bytes
#    would (it models one), less the program's own writes before the clock (A and B, 18432) and
#    C's gathering to node 0 after it (4608: by ownership alone without bytes): matmul
#    3072/1536 on two nodes.
# 5. An application's own fit of a kind is its whole price: with rt_exec_done@matmul written
#    (as `narwhal calibrate` writes a fit, its price per page only where above 0) and no
#    rt_exec_done_per_space_page@matmul, the pooled 10 us a page of 3 is not paid (the
#    makespan of the unpriced platform with that fit, to the last digit, and below 3's);
#    rt_exec_done_per_space_page@matmul=1e-5 beside it pays it again (3's makespan).
# 6. The pages C's kernels write first in place (kernel_pages_fresh) cost them rt_page_fresh
#    each inside the kernel, as on hardware: 9216 at 10 us, 0.09216 s on one core.
# 7. Without bytes, the same pages at the same price: the makespan of 6 to the nanosecond.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "space_first_touches: $passed passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
"$gen" --nodes 1 --cores 1 >"$tmp/plain.xml"
"$gen" --nodes 1 --cores 1 --gpus 1 --gpu-mem 200000000 >"$tmp/gpu.xml"
mm=(run --backend sim --app matmul --n 3072 --block 1536 --json)

pages() { field "$1" space_pages_fresh; }
a=$("$nw" "${mm[@]}" --platform "$tmp/plain.xml" --data functional --check-views off) ||
  fail "in place"
b=$("$nw" "${mm[@]}" --platform "$tmp/plain.xml" --data functional --check-views on) ||
  fail "views"
small=$("$nw" run --backend sim --app matmul --n 1024 --block 256 --json --platform "$tmp/plain.xml" \
  --data functional --check-views on) || fail "small"
echo "matmul 3072/1536: $(pages "$a") pages written in place, $(pages "$b") through views;" \
  "1024/256: $(pages "$small")"
[ "$(pages "$a")" = 18432 ] && [ "$(pages "$b")" = 27648 ] && [ "$(pages "$small")" = 0 ] ||
  fail "expected 18432, 27648 and 0 first-touched pages, counted $(pages "$a"), $(pages "$b")" \
    "and $(pages "$small")"
passed=1

p=$("$nw" "${mm[@]}" --platform "$tmp/plain.xml" --data phantom) || fail "phantom"
g=$("$nw" "${mm[@]}" --platform "$tmp/gpu.xml" --devices cpu+gpu) || fail "GPU"
[ "$(pages "$p")" = 0 ] && [ "$(pages "$g")" = 0 ] ||
  fail "without bytes $(pages "$p"), beside a GPU $(pages "$g") pages (expected 0 and 0)"
passed=2

priced=$tmp/priced.xml
"$gen" --nodes 1 --cores 1 --cpu-prop rt_exec_done_per_space_page=1e-5 >"$priced"
c=$("$nw" "${mm[@]}" --platform "$priced" --data functional --check-views on) || fail "priced"
t0=$(field "$b" makespan_s) t1=$(field "$c" makespan_s)
echo "priced at 10 us a page: makespan $t0 -> $t1 s"
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a >= 0.01535 && b - a <= 0.0922) }' ||
  fail "C's commits at 10 us a page moved the makespan from $t0 to $t1 s (expected +0.015 to +0.092)"
passed=3

"$gen" --nodes 2 --cores 1 --cpu-prop rt_message_per_space_page=1e-5 >"$tmp/priced2.xml"
two=("${mm[@]}" --nodes 2 --platform "$tmp/priced2.xml")
f=$("$nw" "${two[@]}" --data functional --check-views off) || fail "two nodes"
q=$("$nw" "${two[@]}" --data phantom) || fail "two nodes, phantom"
echo "two nodes, priced: $(pages "$f") pages with bytes, $(pages "$q") without"
[ "$(pages "$q")" -gt 0 ] && [ "$(pages "$q")" = $(($(pages "$f") - 23040)) ] ||
  fail "without bytes $(pages "$q") pages, with bytes $(pages "$f") (expected 23040 fewer)"
passed=4

own=$tmp/own.xml
"$gen" --nodes 1 --cores 1 --cpu-prop rt_exec_done_per_space_page=1e-5 \
  --cpu-prop rt_exec_done@matmul=0 >"$own"
"$gen" --nodes 1 --cores 1 --cpu-prop rt_exec_done@matmul=0 >"$tmp/own_plain.xml"
"$gen" --nodes 1 --cores 1 --cpu-prop rt_exec_done_per_space_page=1e-5 \
  --cpu-prop rt_exec_done@matmul=0 --cpu-prop rt_exec_done_per_space_page@matmul=1e-5 \
  >"$tmp/own_paged.xml"
vw=(--data functional --check-views on)
o=$("$nw" "${mm[@]}" --platform "$own" "${vw[@]}") || fail "own fit"
u=$("$nw" "${mm[@]}" --platform "$tmp/own_plain.xml" "${vw[@]}") || fail "own fit, unpriced"
w=$("$nw" "${mm[@]}" --platform "$tmp/own_paged.xml" "${vw[@]}") || fail "own fit, paged"
t5=$(field "$o" makespan_s) u5=$(field "$u" makespan_s) w5=$(field "$w" makespan_s)
echo "own fit without a price per page: $t5 s (unpriced $u5 s, pooled 10 us a page $t1 s);" \
  "with its own 10 us a page: $w5 s"
[ "$t5" = "$u5" ] && [ "$w5" = "$t1" ] && awk -v a="$t5" -v b="$t1" 'BEGIN { exit !(a < b) }' ||
  fail "the application's fit without a price per page: $t5 s, wanted $u5 s (below $t1);" \
    "with its own price per page $w5 s, wanted $t1 s"
passed=5

# 6. C written in place: its first touches are the kernels' (kernel_pages_fresh, 9216), and at
#    rt_page_fresh = 10 us each they take 9216 x 10 us = 0.09216 s more on the one core, to the
#    microsecond; through private views (--check-views on) the kernels touch none first.
"$gen" --nodes 1 --cores 1 --cpu-prop rt_page_fresh=1e-5 >"$tmp/faults.xml"
k=$("$nw" "${mm[@]}" --platform "$tmp/faults.xml" --data functional --check-views off) ||
  fail "in place, priced faults"
kv=$("$nw" "${mm[@]}" --platform "$tmp/faults.xml" --data functional --check-views on) ||
  fail "views, priced faults"
t6=$(field "$k" makespan_s) ta=$(field "$a" makespan_s)
echo "kernels' first touches in place: $(field "$k" kernel_pages_fresh) pages, makespan $ta ->" \
  "$t6 s at 10 us a page; through views $(field "$kv" kernel_pages_fresh)"
[ "$(field "$k" kernel_pages_fresh)" = 9216 ] && [ "$(field "$kv" kernel_pages_fresh)" = 0 ] &&
  [ "$(field "$a" kernel_pages_fresh)" = 9216 ] &&
  awk -v a="$ta" -v b="$t6" 'BEGIN { d = b - a - 0.09216; exit !(d > -1e-6 && d < 1e-6) }' ||
  fail "in place: $(field "$k" kernel_pages_fresh) pages (expected 9216), makespan $ta -> $t6 s" \
    "(expected +0.09216); through views $(field "$kv" kernel_pages_fresh) (expected 0)"
passed=6

# 7. Without bytes (--data phantom), on that platform, the kernels pay the same first touches in
#    the same time as the run with bytes: a calibration takes them out of its kernels' samples,
#    so a phantom run (narwhal validate's one-rank simulations) that left them out came out fast
#    by exactly them.
kp=$("$nw" "${mm[@]}" --platform "$tmp/faults.xml" --data phantom) || fail "phantom, priced faults"
echo "without bytes: $(field "$kp" kernel_pages_fresh) pages, makespan $(field "$kp" makespan_s) s"
[ "$(field "$kp" kernel_pages_fresh)" = 9216 ] &&
  awk -v a="$(field "$kp" makespan_s)" -v b="$t6" 'BEGIN { d = b - a; exit !(d > -1e-9 && d < 1e-9) }' ||
  fail "phantom: $(field "$kp" kernel_pages_fresh) pages (expected 9216), makespan" \
    "$(field "$kp" makespan_s) s (expected the run with bytes', $t6)"
passed=7

echo "space_first_touches: $passed passed, 0 failed"
