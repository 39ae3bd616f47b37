# experiments/multi-assign.json's figure: makespan with multi-assign off and on when one node
# is four times slower (the Unicorn paper 4.3.3). The generic figure draws it; edit here to
# change this experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
