# experiments/prosteal.json's figure: makespan with ProSteal off and on (the Unicorn paper
# 4.3.2). The generic figure draws it; edit here to change this experiment's figure alone
# (plots/README.md lists the variables).
load sweep_generic
