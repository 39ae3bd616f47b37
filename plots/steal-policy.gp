# experiments/steal-policy.json's figure: makespan with two-level and one-level stealing (the
# Unicorn paper 4.3.2, 5.3). The generic figure draws it; edit here to change this experiment's
# figure alone (plots/README.md lists the variables).
load sweep_generic
