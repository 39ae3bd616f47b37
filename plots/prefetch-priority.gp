# experiments/prefetch-priority.json's figure: makespan with prefetches sent like demand data
# or after it (the Unicorn paper 4.2). The generic figure draws it; edit here to change this
# experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
