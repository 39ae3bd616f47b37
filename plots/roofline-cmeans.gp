# roofline-cmeans.gp: experiments/roofline-cmeans.json's figure (plots/README.md), drawn as
# roofline-gemv.gp, beside this script, draws gemv's: the fixed shares p on a numeric axis, the
# split equation (8) chooses ("auto") as a dashed level across it.
load sweep_own_dir . "roofline-gemv.gp"
