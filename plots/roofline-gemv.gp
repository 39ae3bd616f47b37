# roofline-gemv.gp: experiments/roofline-gemv.json's figure (plots/README.md; roofline-cmeans.gp
# loads it too). The fixed shares p are numbers: makespan against p on a numeric axis, and the
# split equation (8) chooses ("auto") as a dashed level across it, so that one sees how far
# it lands from the best fixed p. The generic lines draw the rest.
array xval[nx]
auto_row = -1
do for [i = 1:nx] {
  if (xname[i] eq "auto") { auto_row = i - 1; xval[i] = NaN } else { xval[i] = real(xname[i]) }
}
xkey = xkey . " (the CPUs' share)"
set datafile separator ','
if (auto_row >= 0) {
  stats csv skip 1 every ::auto_row::auto_row using ycol nooutput
  auto_s = STATS_max
  extra_curves = "auto_s title 'p from equation (8) (auto)' with lines dt 2 lw 2 lc rgb 'gray30'"
}
load sweep_lines
