# uncovered.awk: the citations (experiments/paper/citations.tsv, first file) that say a row
# compares them ("yes") but match no row of comparison.csv (second file), one id per line;
# with csv.awk. A row matches a citation as rows.sh's paper_cited decides: same paper and
# location, lo and hi equal as numbers (or both empty).
function same(a, b) { return a == "" || b == "" ? a == b : a + 0 == b + 0 }
FNR == 1 { file++; next }
file == 1 { split($0, c, "\t"); if (c[8] == "yes") { n++; id[n] = c[1]; p[n] = c[2]; s[n] = c[3]; lo[n] = c[4]; hi[n] = c[5] }; next }
{
  split_csv($0, f)
  for (i = 1; i <= n; i++)
    if (!hit[i] && p[i] == f[1] && s[i] == f[4] && same(lo[i], f[5]) && same(hi[i], f[6])) hit[i] = 1
}
END { for (i = 1; i <= n; i++) if (!hit[i]) print id[i] }
