# sweep-lines.gp: a sweep whose first varied key is numeric: makespan against the key's values
# (xval) on a numeric x axis, logarithmic where xlog gives a base (the tool sets 10 where the
# values are positive and span more than 16 times), a line with points per combination of
# the other keys. Loads sweep_frame first (plots/README.md).
load sweep_frame
if (xlog > 0) set logscale x xlog
# Tics at the swept values themselves where their labels fit between neighbours (a NaN is a
# value a sweep's own script has no x for); elsewhere gnuplot's own.
axis(v) = xlog > 0 ? log(v) : v
lo = 1e308; hi = -1e308; widest = 0; gap = 1e308
do for [i = 1:nx] {
  if (xval[i] == xval[i]) {
    lo = xval[i] < lo ? xval[i] : lo; hi = xval[i] > hi ? xval[i] : hi
    widest = strlen(sprintf("%g", xval[i])) > widest ? strlen(sprintf("%g", xval[i])) : widest
    do for [j = i + 1:nx] {
      d = abs(axis(xval[j]) - axis(xval[i]))
      if (xval[j] == xval[j] && d > 0 && d < gap) { gap = d }
    }
  }
}
if (nx <= 40 && (hi <= lo || 1.0 * gap / (axis(hi) - axis(lo)) * (width - 160) > 8 * widest + 10)) {
  set xtics ()
  do for [i = 1:nx] {
    if (xval[i] == xval[i]) { set xtics add (sprintf("%g", xval[i]) xval[i]) }
  }
}
set autoscale xfix
set offsets graph 0.04, graph 0.04, graph 0.05, graph y_low
set style data linespoints
# A point type per series as well as a colour, each smaller than the one before (drawn
# under it): lines that coincide still show both.
point_type(s) = int(word("7 5 9 11 13 15 6 4", (s - 1) % 8 + 1))
point_size(s) = 1.7 - 0.3 * ((s - 1) % 4)
# Series s is every series-th row from row s; row i of it has the first key's value i.
plot_cmd = "plot for [s = 1:series] csv skip 1 every series::(s - 1) " . \
           "using (xval[int(column(0)) + 1]):ycol lw 2 pt point_type(s) ps point_size(s) " . \
           "title series_name[s]"
# A sweep's own script may add curves (extra_curves, plot's syntax) or commands to run just
# before the plot (before_plot).
if (exists("extra_curves")) plot_cmd = plot_cmd . ", " . extra_curves
if (exists("before_plot")) eval before_plot
eval plot_cmd
