# matmul-scaling.gp: experiments/matmul-scaling.json's figure (plots/README.md). Nodes 1, 2, 4,
# 8, 14 on a log2 axis and makespan on a log axis, beside ideal scaling (the first point's
# makespan shared by the nodes), so that strong scaling reads as two straight lines and a
# loss of efficiency as the gap between them. The generic lines draw the rest.
xlog = 2
ylog = 10
set datafile separator ','
stats csv skip 1 every ::0::0 using ycol nooutput
first_s = STATS_max
extra_curves = "first_s * xval[1] / x title 'ideal: " . xval[1] . " node''s makespan / nodes' " . \
               "with lines dt 2 lw 1.5 lc rgb 'gray40'"
load sweep_generic
