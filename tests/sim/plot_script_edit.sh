#!/usr/bin/env bash
# plot_script_edit.sh NARWHAL SRC_DIR: a sweep's figure is drawn by the scripts of plots/ that
# OUT.gp loads, so an edit there restyles it (plots/README.md). With NARWHAL_PLOTS naming a
# copy of plots/ whose sweep-frame.gp is edited (a y label of its own, and a marker file
# written), the sweep's figure takes the edit, and `gnuplot OUT.gp` redraws it with it; a
# script named after the sweep file in that folder is loaded instead of the generic one and
# may load that (sweep_generic); without NARWHAL_PLOTS the source tree's scripts draw it and
# the marker stays away. Skipped (77) without gnuplot.
set -u
nw=$1 src=$2
command -v gnuplot >/dev/null || { echo "plot_script_edit: gnuplot is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "plot_script_edit: $1"; echo "plot_script_edit: 0 passed, 1 failed"; exit 1; }
cp -r "$src/plots" "$tmp/plots"
marker=$tmp/marker
printf 'set ylabel "edited makespan (s)"\nset print "%s"; print "edited"; set print\n' "$marker" \
  >>"$tmp/plots/sweep-frame.gp"
cat >"$tmp/s.json" <<JSON
{"base": {"app": "matmul", "backend": "sim", "platform": "$src/platforms/small.xml", "n": 256,
          "block": 64, "data": "phantom"},
 "vary": {"sched": ["eager", "dmda"]}}
JSON
sweep() { "$nw" sweep "$tmp/s.json" --csv "$tmp/s.csv" >"$tmp/s.out" 2>&1 || fail "the sweep failed: $(cat "$tmp/s.out")"
  grep -q "^plotted $tmp/s.png" "$tmp/s.out" || fail "the sweep drew no figure: $(cat "$tmp/s.out")"; }
loaded() { sed -n 's/^load "\(.*\)"$/\1/p' "$tmp/s.gp"; }
ylabel() { (cd / && gnuplot -e "load \"$tmp/s.gp\"; show ylabel" 2>&1) | sed -n 's/^	ylabel is "\([^"]*\)".*/\1/p'; }

NARWHAL_PLOTS=$tmp/plots sweep
[ "$(cat "$marker" 2>/dev/null)" = edited ] || fail "the edited sweep-frame.gp did not draw the figure"
[ "$(loaded)" = "$(realpath "$tmp/plots/sweep-bars.gp")" ] || fail "s.gp loads $(loaded), not the copy's"
rm -f "$marker" "$tmp/s.png"
[ "$(ylabel)" = "edited makespan (s)" ] || fail "gnuplot s.gp redrew it with the y label '$(ylabel)'"
[ -s "$tmp/s.png" ] && [ "$(cat "$marker" 2>/dev/null)" = edited ] || fail "gnuplot s.gp did not redraw it"

# The sweep's own script (plots/s.gp for s.json) comes first, and loads the generic one.
printf 'set print "%s.own"; print "own"; set print\nload sweep_generic\n' "$marker" >"$tmp/plots/s.gp"
NARWHAL_PLOTS=$tmp/plots sweep
[ "$(loaded)" = "$(realpath "$tmp/plots/s.gp")" ] || fail "s.gp loads $(loaded), not the sweep's own script"
[ "$(cat "$marker.own" 2>/dev/null)" = own ] && [ "$(cat "$marker" 2>/dev/null)" = edited ] ||
  fail "the sweep's own script did not draw it through the generic one"

rm -f "$marker" "$marker.own"
(unset NARWHAL_PLOTS; sweep) || exit 1
[ "$(loaded)" = "$(realpath "$src/plots/sweep-bars.gp")" ] || fail "without NARWHAL_PLOTS s.gp loads $(loaded)"
[ ! -e "$marker" ] && [ ! -e "$marker.own" ] || fail "without NARWHAL_PLOTS the copy was used"
[ "$(ylabel)" = "makespan (s)" ] || fail "without NARWHAL_PLOTS the y label is '$(ylabel)'"
echo "plot_script_edit: 1 passed, 0 failed"
