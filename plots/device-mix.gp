# experiments/device-mix.json's figure: makespan for each device mix (CPUs only, GPUs only,
# CPUs + GPUs: the Unicorn paper Figs. 5-7). The generic figure draws it; edit here to change
# this experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
