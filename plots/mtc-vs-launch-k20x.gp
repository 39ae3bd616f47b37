# mtc-vs-launch-k20x.gp: experiments/mtc-vs-launch-k20x.json's figure (plots/README.md): the
# four ways (launch or many-task, under unicorn or dmda) as lines against task duration, both
# axes logarithmic, where bars of 0.02 s beside bars of 5 s would show nothing. A task of F
# flops (app-param flops=F) lasts d = F / 23.5 GFlop/s on one of the K20X's 168 worker warps
# (docs/experiments/many-task-sim-k20x.md).
worker_flops = 3950e9 / 168
array xval[nx]
do for [i = 1:nx] { xval[i] = real(xname[i][strstrt(xname[i], "=") + 1:]) / worker_flops }
xkey = "task duration on one warp (s)"
xlog = 10
ylog = 10
load sweep_lines
