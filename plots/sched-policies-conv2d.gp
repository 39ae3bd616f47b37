# experiments/sched-policies-conv2d.json's figure: makespan per scheduling policy, conv2d on 14
# paper-cluster nodes. The generic figure draws it; edit here to change this experiment's
# figure alone (plots/README.md lists the variables).
load sweep_generic
