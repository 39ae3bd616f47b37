# experiments/gpu-cache.json's figure: makespan for each GPU cache eviction policy (the Unicorn
# paper Fig. 17); the bytes each moves are in the CSV. The generic figure draws it; edit here
# to change this experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
