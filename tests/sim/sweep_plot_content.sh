#!/usr/bin/env bash
# sweep_plot_content.sh NARWHAL SRC_DIR: what a sweep's figure shows (tools/narwhal/sweep_plot.c,
# plots/sweep-*.gp), read from OUT.gp, the script it loads, and gnuplot's own state after
# drawing it. A sweep over scheduling policies (categorical) is drawn as bars: a histogram,
# no line; a sweep over nodes 1, 2, 4 (numeric) with a second key puts the nodes themselves on
# x (the data's x runs from 1 to 4, not the indexes 0 to 2), a line per policy. Both: the x
# label is the key, the y label "makespan (s)", the legend's entries are unique, and a title
# of more than 120 characters is wrapped, with every word of it there (a command in
# backquotes among them, not run). Skipped (77) without gnuplot.
set -u
nw=$1 src=$2
unset NARWHAL_PLOTS # the repository's scripts, not a folder of one's own
command -v gnuplot >/dev/null || { echo "sweep_plot_content: gnuplot is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "sweep_plot_content: $1"; echo "sweep_plot_content: 0 passed, 1 failed"; exit 1; }
# The title holds a command in backquotes, which gnuplot would run inside a double-quoted
# string: it must stay text.
title='A title longer than the picture is wide, which the old figure cut at 84 characters with three dots: every word of it must be there, `touch '"$tmp"'/ran` too, ending in zebra'
sweep() { # NAME VARY: a tiny simulated sweep into $tmp/NAME.csv, .gp and .png
  cat >"$tmp/$1.json" <<JSON
{"title": "$title",
 "base": {"app": "matmul", "backend": "sim", "platform": "$src/platforms/small.xml", "n": 256,
          "block": 64, "data": "phantom"},
 "vary": $2}
JSON
  "$nw" sweep "$tmp/$1.json" --csv "$tmp/$1.csv" -j 2 >"$tmp/$1.out" 2>&1 ||
    fail "the sweep $1 failed: $(cat "$tmp/$1.out")"
  grep -q "^plotted $tmp/$1.png" "$tmp/$1.out" || fail "the sweep $1 drew no figure: $(cat "$tmp/$1.out")"
}
# gnuplot's state once NAME.gp has drawn: labels, title, data style, the data's x range, and
# the legend's entries, one a line.
state() {
  (cd / && gnuplot -e "load \"$tmp/$1.gp\"; set print \"-\"; show xlabel; show ylabel; show title;
      show style data; print sprintf('xrange %g %g', GPVAL_DATA_X_MIN, GPVAL_DATA_X_MAX);
      do for [i = 1:series] { print 'entry ' . series_name[i] }" 2>&1) >"$tmp/$1.state" ||
    fail "gnuplot $1.gp failed: $(cat "$tmp/$1.state")"
}
loaded() { sed -n 's/^load "\(.*\)"$/\1/p' "$tmp/$1.gp"; } # the script OUT.gp ends with
code() { grep -v '^ *#' "$1"; }                                # a script less its comments
common_checks() { # NAME KEY SERIES
  grep -q "^	xlabel is \"$2\"" "$tmp/$1.state" || fail "$1: the x label is not '$2'"
  grep -q '^	ylabel is "makespan (s)"' "$tmp/$1.state" || fail "$1: the y label is not 'makespan (s)'"
  local entries
  entries=$(sed -n 's/^entry //p' "$tmp/$1.state")
  [ "$(printf '%s\n' "$entries" | wc -l)" -eq "$3" ] || fail "$1: not $3 legend entries: $entries"
  [ -z "$(printf '%s\n' "$entries" | sort | uniq -d)" ] || fail "$1: a legend entry twice: $entries"
  local shown
  shown=$(sed -n 's/^	title is "\(.*\)", offset.*/\1/p' "$tmp/$1.state")
  case $shown in *'\n'*) ;; *) fail "$1: the long title is not wrapped: $shown" ;; esac
  case $shown in *...*) fail "$1: the title is cut: $shown" ;; esac
  for word in $title; do
    case " ${shown//\\n/ } " in *" $word "*) ;; *) fail "$1: the title lacks '$word': $shown" ;; esac
  done
}

sweep cat '{"sched": ["eager", "dmda", "ws"]}'
state cat
common_checks cat sched 1
[ ! -e "$tmp/ran" ] || fail "gnuplot ran the command in the title's backquotes"
grep -qx 'categorical = 1' "$tmp/cat.gp" || fail "cat.gp does not call sched categorical"
grep -qx 'array xname\[3\] = \["eager", "dmda", "ws"\]' "$tmp/cat.gp" || fail "cat.gp lacks the policies"
bars=$(loaded cat)
[ -f "$bars" ] || fail "cat.gp loads no script ($bars)"
code "$bars" | grep -q 'histogram' || fail "$bars draws no histogram"
code "$bars" | grep -qiE 'lines|linespoints|\bw l\b' && fail "$bars draws lines"
grep -q "Data are plotted with histograms" "$tmp/cat.state" || fail "cat.gp's data are not bars"
grep -q '^entry simulated makespan$' "$tmp/cat.state" || fail "cat.gp does not say simulated"

sweep num '{"nodes": [1, 2, 4], "sched": ["eager", "dmda"]}'
state num
common_checks num nodes 2
grep -qx 'categorical = 0' "$tmp/num.gp" || fail "num.gp does not call nodes numeric"
grep -qx 'array xval\[3\] = \[1, 2, 4\]' "$tmp/num.gp" || fail "num.gp lacks the nodes' values"
lines=$(loaded num)
code "$lines" | grep -q 'using (xval\[' || fail "$lines does not put the values on x"
grep -qx 'xrange 1 4' "$tmp/num.state" || fail "num.gp's x is not the nodes: $(grep xrange "$tmp/num.state")"
grep -q '^entry sched=eager$' "$tmp/num.state" && grep -q '^entry sched=dmda$' "$tmp/num.state" ||
  fail "num.gp's legend does not name the policies"
grep -qx 'what = "simulated"' "$tmp/num.gp" || fail "num.gp does not say simulated"
echo "sweep_plot_content: 1 passed, 0 failed"
