#!/usr/bin/env bash
# plot_png.sh NARWHAL SRC_DIR: the figures gnuplot draws. A tiny sweep's (`narwhal sweep FILE
# --plot on`: OUT.png, 900x560) and a Gantt chart of a small simulated run's --trace
# (`narwhal plot TRACE --out FILE --size 640x360`, and at its default width of 1200 beside the
# trace) must be PNG files (the signature) of those sizes in pixels (the IHDR chunk's width
# and height), with their gnuplot scripts beside them. Skipped (77) without gnuplot.
set -u
nw=$1 src=$2
command -v gnuplot >/dev/null || { echo "plot_png: gnuplot is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "plot_png: $1"; echo "plot_png: 0 passed, 1 failed"; exit 1; }
# png_is FILE W H: FILE starts with the PNG signature, then an IHDR chunk of width W, height H.
png_is() {
  [ -s "$1" ] || fail "$1 is missing or empty"
  local b
  read -r -a b <<<"$(od -An -tu1 -N24 "$1" | tr '\n' ' ')"
  [ "${#b[@]}" -eq 24 ] || fail "$1 is shorter than a PNG header"
  [ "${b[*]:0:8}" = "137 80 78 71 13 10 26 10" ] || fail "$1 is not a PNG (signature ${b[*]:0:8})"
  [ "${b[*]:12:4}" = "73 72 68 82" ] || fail "$1 has no IHDR chunk first"
  local w=$(((b[16] << 24) | (b[17] << 16) | (b[18] << 8) | b[19]))
  local h=$(((b[20] << 24) | (b[21] << 16) | (b[22] << 8) | b[23]))
  [ "$w" -eq "$2" ] && [ "$h" -eq "$3" ] || fail "$1 is ${w}x${h}, wanted $2x$3"
  echo "$1: a PNG of ${w}x${h}"
}

cat >"$tmp/s.json" <<JSON
{"base": {"backend": "sim", "platform": "$src/platforms/small.xml", "n": 256, "block": 64,
          "data": "phantom"},
 "vary": {"nodes": [1, 2]}}
JSON
"$nw" sweep "$tmp/s.json" --csv "$tmp/s.csv" --plot on >/dev/null || fail "the sweep failed"
png_is "$tmp/s.png" 900 560
[ -s "$tmp/s.gp" ] || fail "no s.gp beside the sweep's PNG"

"$nw" run --backend sim --platform "$src/platforms/small.xml" --nodes 2 --n 256 --block 64 \
  --devices cpu+gpu --gpu-streams 2 --trace "$tmp/t.json" >/dev/null || fail "the traced run failed"
"$nw" plot "$tmp/t.json" --out "$tmp/g.png" --size 640x360 >"$tmp/plot.out" ||
  fail "narwhal plot failed"
grep -q "^plotted $tmp/g.png" "$tmp/plot.out" || fail "narwhal plot did not say what it drew"
png_is "$tmp/g.png" 640 360
# g.gp holds the picture's data and loads the figure's script (plots/gantt.gp), which draws.
style=$(sed -n 's/^load "\(.*gantt\.gp\)"$/\1/p' "$tmp/g.gp")
[ -n "$style" ] || fail "g.gp loads no gantt.gp"
grep -q "boxxyerror" "$style" || fail "$style draws no boxes"
grep -q '"node 1: device 0 (cpu)"' "$tmp/g.gp" || fail "g.gp has no row for node 1's device 0"
# The default: the trace's name with .png, 1200 wide, a row of 16 pixels per lane.
lanes=$(sed -n 's/^plotted .* (\([0-9]*\) lanes, .*/\1/p' "$tmp/plot.out")
[ "$(grep -c '^\$s[0-9]* << EOD' "$tmp/g.gp")" -ge 2 ] || fail "g.gp has fewer than 2 kinds of span"
"$nw" plot "$tmp/t.json" >/dev/null || fail "narwhal plot with its defaults failed"
[ "${lanes:-0}" -ge 10 ] || fail "narwhal plot drew ${lanes:-no} lanes, wanted 10 or more"
png_is "$tmp/t.png" 1200 $((160 + 16 * lanes))
echo "plot_png: 1 passed, 0 failed"
