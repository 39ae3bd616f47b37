# experiments/work-groups.json's figure: makespan with CPU work-groups off and on beside the
# GPUs (the Unicorn paper 4.3.1). The generic figure draws it; edit here to change this
# experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
