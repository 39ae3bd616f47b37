# summary.awk: comparison.csv summed up per paper (scripts/reproduce-paper.sh), with csv.awk.
# A row is "fitted" when its note says the model was fitted to that value; its difference then
# says nothing of the model, so the medians and maxima are over the other numeric rows, the
# predicted ones; of those beyond 15%, the ones whose note is empty (a difference nobody has
# explained yet). -v text=1 prints one plain line per paper (for the terminal); otherwise a
# markdown table (for report.md).
NR == 1 { next }
{
  split_csv($0, f)
  p = f[1]
  if (!(p in rows)) order[++np] = p
  rows[p]++
  if (f[5] == "") { quali[p]++; if (f[10] ~ /^agrees/) agree[p]++; next }
  if (f[9] == "") next
  a = f[9] + 0; a = a < 0 ? -a : a
  numeric[p]++
  if (a <= 5) w5[p]++
  if (a <= 15) w15[p]++
  if (f[10] ~ /fitted to this value/) { fitted[p]++; next }
  k = ++npred[p]; pred[p, k] = a
  if (a > max[p]) max[p] = a
  if (a > 15 && f[10] == "") bare[p]++
}
function median(p,   n, i, j, t, v) {
  n = npred[p]
  for (i = 1; i <= n; i++) v[i] = pred[p, i]
  for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
  return n == 0 ? 0 : n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
END {
  if (!text) {
    print "| paper | rows | against a number | within 5% | within 15% | beyond 15% | fitted | predicted: median \\|difference\\| | predicted: max | qualitative (agree) | predicted beyond 15% without a note |"
    print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  }
  for (i = 1; i <= np; i++) {
    p = order[i]
    med = npred[p] ? sprintf("%.1f%%", median(p)) : "none"
    mx = npred[p] ? sprintf("%.1f%%", max[p]) : "none"
    if (text)
      printf "%s: %d rows, %d against a number (%d within 5%%, %d within 15%%), %d fitted; %d predicted: median |difference| %s, max %s; %d qualitative, %d agree; %d beyond 15%% without a note\n",
        p, rows[p], numeric[p], w5[p], w15[p], fitted[p], npred[p], med, mx, quali[p], agree[p], bare[p]
    else
      printf "| %s | %d | %d | %d | %d | %d | %d | %s | %s | %d (%d) | %d |\n", p, rows[p], numeric[p],
        w5[p], w15[p], numeric[p] - w15[p], fitted[p], med, mx, quali[p], agree[p], bare[p]
  }
}
