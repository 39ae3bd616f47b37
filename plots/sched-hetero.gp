# experiments/sched-hetero.json's figure: makespan per scheduling policy on a node whose
# devices differ, where the device chosen matters. The generic figure draws it; edit here to
# change this experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
