# comparison.gp: comparison.png of `narwhal reproduce`, how far each of Narwhal's numbers is
# from the paper's (plots/README.md). OUT/comparison.gp, written by
# experiments/paper/comparison-plot.sh, sets the picture's own things and then loads this:
#   terminal, size and output; the title
#   datafile   comparison.dat, the rows with a difference; claimsfile: comparison-claims.dat,
#              the qualitative rows (experiments/paper/plot.awk says their columns)
#   clip       the bars' limit in percent (a difference beyond it is drawn to it, and written)
#   papers     how many papers; paper1, paper2, ... their names, in the data's paper index order
#   bars       how many rows with a difference; claims: how many without
# A horizontal bar per row, labelled on the left, in report.md's order from the top, so that
# 150 rows stay readable, with a tick at its end so that a true 0% shows; the claims below, a
# marker each, away from the percent axis so that none reads as a 0% bar.

paper(i) = value(sprintf('paper%d', i))
# One colour per paper; none of them the claims' green, red or grey.
colour(i) = word('#1f77b4 #ff7f0e #9467bd #8c564b #17becf #e377c2 #bcbd22 #393b79', (i - 1) % 8 + 1)
agree_colour = '#2ca02c'
differ_colour = '#d62728'
unchecked_colour = '#999999'

# The x axis: the percent scale, with room beyond the clip for a clipped bar's true value.
room = clip * 0.25
set xrange [-clip - room : clip + room]
set x2range [-clip - room : clip + room]
set xtics () scale 0.5
set x2tics () scale 0.5
do for [k = -4:4] {
  tic = k * clip / 4.0
  # A tic's label is a format itself: %% for a percent sign.
  ticlabel = k == 0 ? '0%%' : sprintf('%+g%%%%', tic)
  set xtics add (ticlabel tic)
  set x2tics add (ticlabel tic)
}
set xlabel 'difference (Narwhal - paper) / |paper|, %  (for a paper range: the distance to its nearest end)'
# The y axis: a place per row, the first at the top; the claims after a gap of two.
gap = claims > 0 ? 2 : 0
set yrange [bars + gap + claims + 0.7 : 0.3]
set ytics scale 0 font ',8'
set ytics nomirror
set border lw 0.5
# The labels' room: gnuplot's own estimate from their length leaves a third of it empty.
set lmargin at screen 0.385
set rmargin at screen 0.985

# The key: above the plot area, outside it, a column per entry; never over a bar.
set key outside top center vertical Left reverse maxrows 3 noautotitle samplen 1.5 spacing 1.3 width 1 font ',9'

# The band of +-10% and the zero line, grid and clip lines across the bars only.
if (bars > 0) {
  set object 1 rect from first -10, first 0.5 to first 10, first bars + 0.5 behind \
    fillcolor rgb '#e0e0e0' fillstyle solid noborder
  do for [k = -4:4] {
    dash = abs(k) == 4 ? 2 : 1 # the clip: dashed
    set arrow from first k * clip / 4.0, first 0.5 to first k * clip / 4.0, first bars + 0.5 nohead \
      back lc rgb (k == 0 ? '#404040' : '#d8d8d8') lw (k == 0 ? 1 : 0.5) dt dash
  }
}
# The claims' heading, in the gap.
if (claims > 0) {
  set label 1 'Qualitative claims: no number, so no bar; the marker says whether the run agrees' \
    at first -clip - room, first bars + gap - 0.3 left offset 1, 0 font ',9:Bold'
  set arrow from first -clip - room, first bars + 0.5 to first clip + room, first bars + 0.5 \
    nohead back lc rgb '#808080' lw 0.5
}

set style fill solid 0.85 noborder
half = 0.38
plot \
  for [i = 1:papers] datafile using ($2 == i ? 0 : NaN):6:(0):3:($6 - half):($6 + half):ytic(7) \
    with boxxyerror lc rgb colour(i) title paper(i), \
  for [i = 1:papers] datafile using ($2 == i ? $3 : NaN):($6 - half - 0.08):(0):(2 * half + 0.16) \
    with vectors nohead lw 2 lc rgb colour(i) notitle, \
  keyentry with boxes fillcolor rgb '#e0e0e0' fillstyle solid title 'within ±10%', \
  datafile using ($4 == 1 && $3 > 0 ? clip : NaN):6:('▶ '.strcol(8)) with labels left font ',8' notitle, \
  datafile using ($4 == 1 && $3 < 0 ? -clip : NaN):6:(strcol(8).' ◀') with labels right font ',8' notitle, \
  keyentry with points pt 7 ps 0 title sprintf('▶ beyond ±%g%%: clipped, true value written', clip), \
  claimsfile using ($3 == 1 ? -clip : NaN):4:ytic(5) with points pt 7 ps 1.2 lc rgb agree_colour title 'claim agrees', \
  claimsfile using ($3 == 2 ? -clip : NaN):4:ytic(5) with points pt 5 ps 1.1 lc rgb differ_colour title 'claim differs', \
  claimsfile using ($3 == 0 ? -clip : NaN):4:ytic(5) with points pt 13 ps 1.2 lc rgb unchecked_colour title 'claim not checked', \
  claimsfile using (-clip + clip * 0.05):4:6 with labels left font ',8' notitle
