#!/usr/bin/env bash
# comparison-plot.sh OUT_DIR: draws OUT_DIR/comparison.png from OUT_DIR/comparison.csv, the
# last step of scripts/reproduce-paper.sh (`narwhal reproduce`), on its own so that the picture
# can be redrawn from an existing run's folder without running the figures again.
# Writes OUT_DIR/comparison.dat and comparison-claims.dat (experiments/paper/plot.awk: a
# labelled bar per row with a difference; a marker per qualitative claim) and
# OUT_DIR/comparison.gp, which holds only this picture's things (terminal and size for its
# number of rows, output, title, data files, the papers' names, the clip, the row counts) and
# then loads the fixed part, plots/comparison.gp, found as the tools find a plot script
# (lib/platform_path.h): in $NARWHAL_PLOTS when it is set and has it, else in this
# repository's plots/. `cd OUT_DIR && gnuplot comparison.gp` redraws it.
# Exit 0 when drawn; 1 with one line when not (no gnuplot, no plots/comparison.gp, gnuplot
# failed): comparison.csv and report.md stand either way, and no stale picture is left; 2 on
# bad arguments.
set -u -o pipefail
say() { echo "comparison-plot.sh: $*" >&2; }
if [ $# -ne 1 ] || [ -z "$1" ]; then say "usage: comparison-plot.sh OUT_DIR"; exit 2; fi
out=$1
[ -r "$out/comparison.csv" ] || { say "$out/comparison.csv: not found"; exit 2; }
here=$(cd "$(dirname "$0")" && pwd -P) || exit 2
root=$(cd "$here/../.." && pwd -P) || exit 2
clip=200

# A picture from an earlier run would pass for this one's.
rm -f "$out/comparison.png" "$out/comparison.gp" "$out/comparison.dat" "$out/comparison-claims.dat"
command -v gnuplot >/dev/null || { say "gnuplot not found: no $out/comparison.png (comparison.csv and report.md stand)"; exit 1; }
fixed=""
for dir in ${NARWHAL_PLOTS:+"$NARWHAL_PLOTS"} "$root/plots"; do
  if [ -r "$dir/comparison.gp" ]; then
    fixed=$(cd "$dir" && pwd -P)/comparison.gp
    break
  fi
done
[ -n "$fixed" ] || { say "no comparison.gp in ${NARWHAL_PLOTS:+\$NARWHAL_PLOTS ($NARWHAL_PLOTS) or }$root/plots: no $out/comparison.png (comparison.csv and report.md stand)"; exit 1; }

awk -v CLIP="$clip" -v CLAIMS="$out/comparison-claims.dat" -f "$here/csv.awk" -f "$here/plot.awk" \
  "$out/comparison.csv" >"$out/comparison.dat" || { say "$out/comparison.dat could not be written"; exit 1; }
read -r _ _ bars claims < <(grep '^# rows ' "$out/comparison.dat")
# gnuplot's single-quoted strings double a quote inside.
gq() { local q="'"; printf "'%s'" "${1//$q/$q$q}"; }
{
  echo "# Written by experiments/paper/comparison-plot.sh (narwhal reproduce); redraw with: gnuplot comparison.gp (in this folder)"
  # A row is 16 pixels; the rest is the title, the key, the axes' labels and the claims' gap.
  echo "set terminal pngcairo size 1800,$((260 + 16 * (bars + claims + (claims > 0 ? 2 : 0)))) noenhanced font 'DejaVu Sans,9'"
  echo "set encoding utf8"
  echo "set output 'comparison.png'"
  echo "set title 'Narwhal against the papers: (Narwhal - paper) / |paper| per row of report.md ($bars rows with a number, $claims qualitative; bars clipped at ±$clip%)' font ',11'"
  echo "datafile = 'comparison.dat'; claimsfile = 'comparison-claims.dat'"
  echo "clip = $clip"
  echo "bars = $bars; claims = $claims"
  echo "papers = $(grep -c '^# paper ' "$out/comparison.dat")"
  while read -r _ _ index name; do
    echo "paper$index = $(gq "$name")"
  done < <(grep '^# paper ' "$out/comparison.dat")
  echo "load $(gq "$fixed")"
} >"$out/comparison.gp"
if ! (cd "$out" && gnuplot comparison.gp 2>"comparison.log"); then
  rm -f "$out/comparison.png"
  say "gnuplot failed on $out/comparison.gp ($(grep -v '^ *$' "$out/comparison.log" | tail -n 1)): no comparison.png (comparison.csv and report.md stand)"
  exit 1
fi
rm -f "$out/comparison.log"
say "plotted $out/comparison.png"
