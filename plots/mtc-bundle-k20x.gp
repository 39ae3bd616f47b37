# experiments/mtc-bundle-k20x.json's figure: makespan against the many-task bundle size on the
# modelled K20X (GeMTC Fig. 9), on a log axis of bundle sizes. The generic figure draws it;
# edit here to change this experiment's figure alone (plots/README.md lists the variables).
load sweep_generic
