#!/usr/bin/env bash
# comparison_plot.sh REPO CASE: comparison.png of `narwhal reproduce`, drawn by
# experiments/paper/comparison-plot.sh from tests/cli/comparison-plot.csv (a fixture of nine
# rows in comparison.csv's format: differences within and beyond 10%, a true 0, one beyond the
# clip each way, qualitative claims that agree, differ and are not checked) instead of a full
# reproduce. Exit 77 (skipped) without gnuplot.
#   drawn          comparison.dat has a bar per row with a difference and none other, each
#                  with its label; the claims are in comparison-claims.dat with their status;
#                  the clipped rows are marked with their true value; the written
#                  comparison.gp loads the repository's plots/comparison.gp and redraws the PNG
#                  from its folder. The same picture drawn as SVG shows every row's label, the
#                  clipped rows' true values, the axis label, and a key of unique titles (a
#                  paper each) above the plot area.
#   own_plots      $NARWHAL_PLOTS with a comparison.gp of its own: that one is loaded
#   missing_plots  no plots/comparison.gp (a copy of the scripts without it): one line, exit
#                  1, no picture left, comparison.csv as it was
set -u -o pipefail
repo=$1 case=$2
command -v gnuplot >/dev/null || { echo "SKIP: no gnuplot"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
fixture=$repo/tests/cli/comparison-plot.csv
out=$tmp/out
mkdir -p "$out"
cp "$fixture" "$out/comparison.csv"
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

case $case in
drawn)
  "$repo/experiments/paper/comparison-plot.sh" "$out" 2>"$tmp/stderr" || fail "exit $?: $(cat "$tmp/stderr")"
  is_png "$out/comparison.png" || fail "no comparison.png, or not a PNG"
  # What each fixture row should become: ROW|PAPER|FIGURE|DIFFERENCE|NOTE (the difference empty
  # for a qualitative row), from the fixture itself ("|": a tab would fold the empty field).
  awk -f "$repo/experiments/paper/csv.awk" -f - "$fixture" >"$tmp/want" <<'EOF' || fail "fixture unreadable"
NR > 1 { split_csv($0, f); printf "%d|%s|%s|%s|%s\n", NR - 1, f[1], f[2], (f[5] != "" ? f[9] : ""), f[10] }
EOF
  [ "$(wc -l <"$tmp/want")" -eq 9 ] || fail "the fixture has $(wc -l <"$tmp/want") rows, want 9"
  bars=0 claims=0
  while IFS='|' read -r row paper figure diff note; do
    bar=$(awk -v r="$row" '$1 == r' "$out/comparison.dat")
    claim=$(awk -v r="$row" '$1 == r' "$out/comparison-claims.dat")
    label="\"#$row $paper $figure: "
    if [ -n "$diff" ]; then
      bars=$((bars + 1))
      [ -n "$bar" ] || fail "row $row ($diff%) has no bar"
      [ -z "$claim" ] || fail "row $row has a difference but is among the claims"
      case $bar in *"$label"*) ;; *) fail "row $row's bar is not labelled '$label...': $bar" ;; esac
      # ROW PAPER SHOWN CLIPPED TRUE Y "LABEL" "MARK": shown = the difference within +-200.
      awk -v d="$diff" -v bar="$bar" 'BEGIN { split(bar, f, " "); d += 0
        s = d > 200 ? 200 : (d < -200 ? -200 : d); c = (s != d)
        if (f[3] - s > 0.01 || s - f[3] > 0.01 || f[4] != c || f[5] - d > 0.01 || d - f[5] > 0.01) {
          print "shown " f[3] " clipped " f[4] " true " f[5] ", want " s " " c " " d; exit 1 }
        if (c && bar !~ /"[-+][0-9.]+%"$/) { print "a clipped bar without its true value"; exit 1 }
        if (!c && bar !~ /""$/) { print "an unclipped bar marked"; exit 1 } }' ||
        fail "row $row: $bar"
    else
      claims=$((claims + 1))
      [ -z "$bar" ] || fail "qualitative row $row has a bar: $bar"
      [ -n "$claim" ] || fail "qualitative row $row is not among the claims"
      case $claim in *"$label"*) ;; *) fail "row $row's claim is not labelled '$label...': $claim" ;; esac
      case $note in agrees*) want=1 ;; differs*) want=2 ;; *) want=0 ;; esac
      [ "$(awk '{ print $3 }' <<<"$claim")" = "$want" ] || fail "row $row ('$note'): status not $want: $claim"
    fi
  done <"$tmp/want"
  if [ "$bars" -ne 6 ] || [ "$claims" -ne 3 ]; then fail "the fixture gave $bars bars and $claims claims, want 6 and 3"; fi
  [ "$(grep -vc '^#' "$out/comparison.dat")" -eq "$bars" ] || fail "comparison.dat has rows that are not the fixture's bars"
  [ "$(grep -vc '^#' "$out/comparison-claims.dat")" -eq "$claims" ] || fail "comparison-claims.dat has other rows"
  for want in "+20225%" "-252.0%"; do
    grep -qF -- "\"$want\"" "$out/comparison.dat" || fail "the clipped row's true value $want is not in comparison.dat"
  done
  # The written script: only this picture's things, then the repository's fixed part.
  gp=$out/comparison.gp
  grep -qxF "load '$(cd "$repo/plots" && pwd -P)/comparison.gp'" "$gp" || fail "comparison.gp does not load plots/comparison.gp: $(grep load "$gp")"
  for want in "bars = $bars; claims = $claims" "clip = 200" "papers = 3" "paper1 = 'Unicorn'" "paper2 = 'PRS'" "paper3 = 'Lifflander'" "set output 'comparison.png'"; do
    grep -qF "$want" "$gp" || fail "comparison.gp lacks '$want'"
  done
  ! grep -q '^plot' "$gp" || fail "comparison.gp plots by itself instead of through plots/comparison.gp"
  # `cd OUT && gnuplot comparison.gp` redraws it.
  rm "$out/comparison.png"
  (cd "$out" && gnuplot comparison.gp 2>/dev/null) || fail "gnuplot comparison.gp failed in $out"
  is_png "$out/comparison.png" || fail "gnuplot comparison.gp drew no PNG"
  # The same picture as SVG, to read what is drawn: each text with the y of its place.
  sed -e "s/^set terminal pngcairo /set terminal svg /" -e "s/^set output .*/set output 'comparison.svg'/" \
    "$gp" >"$out/svg.gp"
  grep -q '^set terminal svg ' "$out/svg.gp" || fail "comparison.gp sets no pngcairo terminal"
  (cd "$out" && gnuplot svg.gp 2>/dev/null) || fail "the SVG redraw failed"
  awk 'match($0, /translate\([-0-9.]+,[-0-9.]+\)/) { y = substr($0, RSTART + 10, RLENGTH - 11); sub(/.*,/, "", y) }
    /<text[ >]/ { t = $0; sub(/.*<text[^>]*>/, "", t); sub(/<\/text>.*/, "", t)
      gsub(/&lt;/, "<", t); gsub(/&gt;/, ">", t); gsub(/&quot;/, "\"", t); gsub(/&apos;/, "\047", t)
      gsub(/&amp;/, "\\&", t); print y "\t" t }' \
    "$out/comparison.svg" >"$tmp/texts"
  while IFS='|' read -r row paper figure diff note; do
    grep -qF "	#$row $paper $figure: " "$tmp/texts" || fail "no label '#$row $paper $figure: ...' drawn"
  done <"$tmp/want"
  for want in "▶ +20225%" "-252.0% ◀" "agrees (node0 the slowest)" "differs (does not fall at every step)" \
    "difference (Narwhal - paper) / |paper|, %"; do
    grep -qF -- "$want" "$tmp/texts" || fail "'$want' is not drawn"
  done
  # The key: one entry per paper, every title once, all of them above the plot area (above the
  # top axis's tic labels), so that none sits over a bar.
  top=$(awk -F'\t' '$2 == "0%" { if (m == "" || $1 < m) m = $1 } END { print m }' "$tmp/texts")
  [ -n "$top" ] || fail "no 0% tic drawn"
  for title in Unicorn PRS Lifflander "within ±10%" "▶ beyond ±200%: clipped, true value written" \
    "claim agrees" "claim differs" "claim not checked"; do
    n=$(awk -F'\t' -v t="$title" '$2 == t' "$tmp/texts" | wc -l)
    [ "$n" -eq 1 ] || fail "key title '$title' drawn $n times, want 1"
    awk -F'\t' -v t="$title" -v top="$top" '$2 == t && $1 + 0 >= top + 0 { exit 1 }' "$tmp/texts" ||
      fail "key title '$title' is not above the plot area"
  done
  ;;
own_plots)
  mkdir -p "$tmp/own"
  { cat "$repo/plots/comparison.gp"; echo "# own version"; } >"$tmp/own/comparison.gp"
  NARWHAL_PLOTS=$tmp/own "$repo/experiments/paper/comparison-plot.sh" "$out" 2>"$tmp/stderr" ||
    fail "exit $?: $(cat "$tmp/stderr")"
  grep -qxF "load '$(cd "$tmp/own" && pwd -P)/comparison.gp'" "$out/comparison.gp" ||
    fail "\$NARWHAL_PLOTS/comparison.gp not loaded: $(grep load "$out/comparison.gp")"
  is_png "$out/comparison.png" || fail "no comparison.png"
  ;;
missing_plots)
  mkdir -p "$tmp/repo/experiments/paper"
  cp "$repo"/experiments/paper/{comparison-plot.sh,csv.awk,plot.awk} "$tmp/repo/experiments/paper/"
  echo stale >"$out/comparison.png"
  status=0
  NARWHAL_PLOTS='' "$tmp/repo/experiments/paper/comparison-plot.sh" "$out" 2>"$tmp/stderr" || status=$?
  [ "$status" -eq 1 ] || fail "exit $status, want 1: $(cat "$tmp/stderr")"
  if [ "$(wc -l <"$tmp/stderr")" -ne 1 ] || ! grep -qF "no comparison.gp in" "$tmp/stderr"; then
    fail "want one line saying comparison.gp is missing, got: $(cat "$tmp/stderr")"
  fi
  [ ! -e "$out/comparison.png" ] || fail "a comparison.png is left"
  cmp -s "$fixture" "$out/comparison.csv" || fail "comparison.csv changed"
  ;;
*) fail "unknown case '$case'" ;;
esac
