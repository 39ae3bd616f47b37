# validation.gp: `narwhal validate`'s figure (plots/README.md): simulated against measured
# makespan, a point per held-out configuration, beside the diagonal (exact) and a band of
# +-10%. The variables come from the run's DIR/validation.gp: csv (validation.csv: real_s is
# column 3, simulated_s column 5), configurations, and lo and hi, the smallest and the largest
# time, measured or simulated.
set datafile separator ','
# Log axes where the times span decades (more than 20x); within one, gnuplot would label no
# tic. The range leaves a margin around the extreme points, the same on both axes.
wide = hi > 20 * lo
margin = wide ? 1.5 : 1.15
if (wide) set logscale xy
set size square
set format xy "%g"
set xrange [lo / margin:hi * margin]
set yrange [lo / margin:hi * margin]
set xlabel "measured makespan (s, best of the rounds)"
set ylabel "simulated makespan (s)"
set title sprintf("%d held-out configurations: simulated against measured", configurations)
set grid
set key top left
plot x title "exact" with lines lc rgb "black", \
  1.1 * x title "+-10%" with lines dt 2 lc rgb "gray40", \
  0.9 * x notitle with lines dt 2 lc rgb "gray40", \
  csv skip 1 using 3:5 title "configuration" with points pt 7 ps 1.2 lc rgb "#1f77b4"
