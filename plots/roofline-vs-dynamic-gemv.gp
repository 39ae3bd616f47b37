# experiments/roofline-vs-dynamic-gemv.json's figure: makespan of gemv under the roofline split
# beside the dynamic policies (the PRS paper). The generic figure draws it; edit here to change
# this experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
