# sweep-bars.gp: a sweep whose first varied key is categorical (names, or objects of options
# set together): a bar per value, clustered by the combinations of the other keys (a series
# each), never a line between categories. Loads sweep_frame first (plots/README.md).
load sweep_frame
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb "gray30"
set xrange [-0.5:nx - 0.5]
set xtics scale 0
# Labels wider than their category's room lean, so that neighbours do not overlap.
line_max(s) = line_max_at(s, strstrt(s, "\n"))
line_max_at(s, p) = p ? (p - 1 > line_max(s[p + 1:]) ? p - 1 : line_max(s[p + 1:])) : strlen(s)
widest = 0
do for [i = 1:nx] { widest = line_max(xname[i]) > widest ? line_max(xname[i]) : widest }
if (widest * 8 > 0.8 * (width - 120) / nx) set xtics rotate by 30 right
# Series s is every series-th row from row s: the first key's values in order.
plot_cmd = "plot for [s = 1:series] csv skip 1 every series::(s - 1) " . \
           "using ycol:xtic(xname[int(column(0)) + 1]) title series_name[s]"
# A sweep's own script may add curves (extra_curves, plot's syntax) or commands to run just
# before the plot (before_plot).
if (exists("extra_curves")) plot_cmd = plot_cmd . ", " . extra_curves
if (exists("before_plot")) eval before_plot
eval plot_cmd
