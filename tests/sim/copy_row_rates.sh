#!/usr/bin/env bash
# copy_row_rates.sh NARWHAL PLATFORM: the simulator charges a GPU copy of short rows at the
# rate calibrated for its row width (property copy_row_rates, platforms/README.md). Matmul
# 2048/512 on one node's GPU made so fast that copies are the whole run: A's block rows are
# contiguous (512 rows of the full 8 KB width), B's block columns and C's blocks are 2D copies
# of 2 KB rows. With a table that never goes below the link's 1 GB/s the run is the same to
# the bit; with 2 KB rows at 250 MB/s the copies in take at least A's bytes at 1 GB/s plus B's
# at 250 MB/s, and the run is slower by at least that much more than without the table.
# With WRITER (tests/sim/write_platform.c), the platforms are written as `narwhal calibrate`
# writes them, the table too, and the run on the written table must equal, to the bit, the
# run on the same platform with the table put in by hand.
set -euo pipefail
nw=$1 platform=$2 writer=${3:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ -n "$writer" ]; then
  "$writer" "$dir/fast.xml"
else
  sed 's/speed="10Gf"/speed="100Tf"/' "$platform" >"$dir/fast.xml"
fi
with_rates() { # RATES OUT: fast.xml with the table on every GPU host
  sed "s|<prop id=\"kind\" value=\"gpu\"/>|<prop id=\"kind\" value=\"gpu\"/><prop id=\"copy_row_rates\" value=\"$1\"/>|" \
    "$dir/fast.xml" >"$2"
}
with_rates "1024:1e9,65536:5e9" "$dir/link.xml"
with_rates "2048:2.5e8,1048576:1e9" "$dir/slow.xml"
grep -q copy_row_rates "$dir/slow.xml" || { echo "FAIL: no GPU host in $platform"; exit 1; }
run() {
  "$nw" run --platform "$1" --nodes 1 --app matmul --n 2048 --block 512 --devices gpu --json |
    tr -d '\n' | sed 's/.*"makespan_s":[[:space:]]*\([0-9.eE+-]*\).*"bytes_h2d":[[:space:]]*\([0-9]*\).*/\1 \2/'
}
read -r base h2d <<<"$(run "$dir/fast.xml")"
read -r link _ <<<"$(run "$dir/link.xml")"
read -r slow _ <<<"$(run "$dir/slow.xml")"
if [ -n "$writer" ]; then
  "$writer" "$dir/written.xml" 2048:2.5e8 1048576:1e9
  grep -q 'copy_row_rates" value="2048:2.5e+08,1048576:1e+09"' "$dir/written.xml" ||
    { echo "FAIL: the writer wrote no copy_row_rates as given"; exit 1; }
  read -r written _ <<<"$(run "$dir/written.xml")"
  [ "$written" = "$slow" ] || { echo "FAIL: written table $written s, by hand $slow s"; exit 1; }
  echo "ok: the written table runs as the one put in by hand ($written s)"
fi
echo "makespan: no table $base s, table at the link's rate $link s, 2 KB rows at 250 MB/s $slow s; bytes in $h2d"
fail=0
[ "$base" = "$link" ] || { echo "FAIL: a table at or above the link's rate changed the run"; fail=1; }
# A is half of the bytes in (each of A's and B's 4 panels is 4 MiB): at 1 GB/s and 250 MB/s.
awk -v s="$slow" -v b="$base" -v h="$h2d" 'BEGIN {
  need = (h / 2) / 1e9 + (h / 2) / 2.5e8
  if (s < 0.99 * need) { printf "FAIL: %.4f s < the copies in alone at those rates, %.4f s\n", s, need; exit 1 }
  if (s - b < 0.99 * (h / 2) * (1 / 2.5e8 - 1 / 1e9)) { printf "FAIL: slower by only %.4f s\n", s - b; exit 1 }
  printf "ok: copies in need at least %.4f s at those rates\n", need }' || fail=1
exit $fail
