# experiments/agglomeration-policies.json's figure: makespan per agglomeration setting, a
# cluster of bars per setting, one bar per limit and policy (the agglomeration paper: dynamic
# close to the best static). The generic figure draws it; edit here to change this experiment's
# figure alone (plots/README.md lists the variables).
load sweep_generic
