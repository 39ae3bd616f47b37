# experiments/pipeline.json's figure: makespan with pipelining off and on when a fetch takes
# about as long as the compute (the Unicorn paper 4.3). The generic figure draws it; edit here
# to change this experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
