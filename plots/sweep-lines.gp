# sweep-lines.gp: a sweep whose first varied key is numeric: makespan against the key's values
# (xval) on a numeric x axis, logarithmic where xlog gives a base (the tool sets 10 where the
# values are positive and span more than 16 times), a line with points per combination of
# the other keys. Loads sweep_frame first (plots/README.md).
load sweep_frame
if (xlog > 0) set logscale x xlog
# Tics at the swept values themselves (NaN: a value a sweep's own script has no x for),
# where they are few enough to read; the axis ends at the values, with a margin.
if (nx <= 16) {
  set xtics ()
  do for [i = 1:nx] {
    if (xval[i] == xval[i]) { set xtics add (sprintf("%g", xval[i]) xval[i]) }
  }
}
set autoscale xfix
set offsets graph 0.04, graph 0.04, graph 0.05, 0
set style data linespoints
# Series s is every series-th row from row s; row i of it has the first key's value i.
plot_cmd = "plot for [s = 1:series] csv skip 1 every series::(s - 1) " . \
           "using (xval[int(column(0)) + 1]):ycol lw 2 pt 7 ps 1.2 title series_name[s]"
# A sweep's own script may add curves (extra_curves, plot's syntax) or commands to run just
# before the plot (before_plot).
if (exists("extra_curves")) plot_cmd = plot_cmd . ", " . extra_curves
if (exists("before_plot")) eval before_plot
eval plot_cmd
