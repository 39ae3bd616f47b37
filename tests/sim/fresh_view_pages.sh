#!/usr/bin/env bash
# fresh_view_pages.sh NARWHAL SRC_DIR: the pages a node first touches in new private views
# (view_pages_fresh; core/device/bufpool.h) and what a calibrated platform charges for them
# (rt_page_fresh, backends/simgrid/sim_costs.h).
# 1. LU 512/64 on one core counts 1568 such pages with its bytes (--data functional) and
#    without (--data phantom): the simulator's pool of sizes makes the views the real one makes.
#    matmul, whose kernels write in place, makes none in either mode.
# 2. At 0.1 ms a page (rt_page_fresh=1e-4) the event loop spends 0.1568 s on them: LU's
#    makespan grows by more than half of that (one core: a launch waits for its view) and by
#    no more than all of it.
# 3. A negative rt_page_fresh is refused: one line, exit 2.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "fresh_view_pages: $passed passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
"$gen" --nodes 1 --cores 1 >"$tmp/plain.xml"
"$gen" --nodes 1 --cores 1 --cpu-prop rt_page_fresh=1e-4 >"$tmp/priced.xml"
"$gen" --nodes 1 --cores 1 --cpu-prop rt_page_fresh=-1 >"$tmp/bad.xml"
lu=(run --backend sim --app lu --n 512 --block 64 --json)

# Checked views (the default of sanitizer builds) are never written in place: more new views.
f=$("$nw" "${lu[@]}" --platform "$tmp/plain.xml" --data functional --check-views off) ||
  fail "LU, functional"
p=$("$nw" "${lu[@]}" --platform "$tmp/plain.xml" --data phantom) || fail "LU, phantom"
echo "LU 512/64: $(field "$f" view_pages_fresh) new pages with bytes, $(field "$p" view_pages_fresh) without"
[ "$(field "$f" view_pages_fresh)" = 1568 ] && [ "$(field "$p" view_pages_fresh)" = 1568 ] ||
  fail "LU 512/64 did not count 1568 new view pages in both modes"
for d in functional phantom; do
  m=$("$nw" run --backend sim --app matmul --n 512 --block 128 --json --platform "$tmp/plain.xml" \
    --data $d --check-views off) || fail "matmul, $d"
  [ "$(field "$m" view_pages_fresh)" = 0 ] || fail "matmul ($d) counted new view pages"
done
passed=1

q=$("$nw" "${lu[@]}" --platform "$tmp/priced.xml" --data phantom) || fail "LU, priced pages"
a=$(field "$p" makespan_s) b=$(field "$q" makespan_s)
echo "LU 512/64: $a s, $b s at 0.1 ms a new page"
awk -v a="$a" -v b="$b" 'BEGIN { d = b - a; exit !(d > 0.5 * 0.1568 && d <= 0.1568 + 1e-9) }' ||
  fail "the pages' price did not reach the makespan as expected"
passed=2

out=$("$nw" "${lu[@]}" --platform "$tmp/bad.xml" 2>&1)
rc=$?
[ $rc = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ $out == *rt_page_fresh* ]] ||
  fail "a negative rt_page_fresh: exit $rc, '$out'"
passed=3
echo "fresh_view_pages: $passed passed, 0 failed"
