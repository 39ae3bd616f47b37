# mtc-efficiency-k20x.gp: experiments/mtc-efficiency-k20x.json's figure (plots/README.md),
# GeMTC's Figs. 20-21: makespan and efficiency against task duration. A task of F flops
# (app-param flops=F) lasts d = F / 23.5 GFlop/s on one of the K20X's 168 worker warps
# (docs/experiments/many-task-sim-k20x.md), and efficiency is 10 d / makespan (10 tasks per
# worker); both axes of makespan are logarithmic, efficiency is on the right.
worker_flops = 3950e9 / 168
array xval[nx]
do for [i = 1:nx] { xval[i] = real(xname[i][strstrt(xname[i], "=") + 1:]) / worker_flops }
xkey = "task duration d (s)"
xlog = 10
ylog = 10
set y2label "efficiency (%)"
set y2range [0:105]
set y2tics 0, 20, 100 nomirror
extra_curves = "csv skip 1 using (xval[int(column(0)) + 1]):(1000 * xval[int(column(0)) + 1] " . \
               "/ column(ycol)) axes x1y2 with linespoints dt 2 lw 2 pt 5 " . \
               "title 'efficiency, 10 d / makespan (right)'"
before_plot = "set border 11"  # the right axis, efficiency's
load sweep_lines
