# plot.awk: comparison.csv's numeric rows as gnuplot data (scripts/reproduce-paper.sh draws
# comparison.png from it), with csv.awk. A line per row with a paper number or range: the row
# number of report.md, the paper's index (a colour), the difference in percent, clipped to
# +-CLIP so that one far-off row does not flatten the others, and whether it was clipped.
NR == 1 { next }
{
  split_csv($0, f)
  if (f[5] == "" || !num(f[9])) next
  if (!(f[1] in index_of))
    index_of[f[1]] = ++papers
  d = f[9] + 0
  shown = (d > CLIP) ? CLIP : ((d < -CLIP) ? -CLIP : d)
  printf "%d %d %.3f %d\n", NR - 1, index_of[f[1]], shown, (shown != d)
}
END { for (p in index_of) printf "# paper %d %s\n", index_of[p], p }
