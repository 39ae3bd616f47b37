# experiments/roofline-vs-dynamic-cmeans.json's figure: makespan of C-means under the roofline
# split beside the dynamic policies (the PRS paper). The generic figure draws it; edit here to
# change this experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
