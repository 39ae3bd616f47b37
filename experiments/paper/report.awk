# report.awk: comparison.csv as report.md's table (scripts/reproduce-paper.sh), with csv.awk.
function show(x) { return !num(x) ? x : (x + 0 >= 1000 || x + 0 <= -1000 ? sprintf("%.0f", x) : sprintf("%.4g", x)) }
function cell(x) { gsub(/\|/, "\\|", x); return x }
NR == 1 { print "| # | paper | figure | quantity | paper value (where) | Narwhal | difference | note | command |"
          print "| ---: | --- | --- | --- | --- | ---: | ---: | --- | --- |"; next }
{
  split_csv($0, f)
  paper = (f[7] != "" ? f[7] : f[5] == f[6] ? show(f[5]) : f[6] == "" ? "more than " f[5] : f[5] "-" f[6])
  if (f[5] == "") { d = "none (qualitative)"; quali++; if (f[10] ~ /^agrees/) agree++ }
  else if (f[9] == "") d = "none"
  else {
    d = f[9] "%"; k++; a = f[9] + 0; abs[k] = a < 0 ? -a : a
    if (f[5] != f[6] && a == 0) d = "0 (inside the range)"
    else if (f[5] != f[6]) d = d " (from the range)"
  }
  printf "| %d | %s | %s | %s | %s (%s) | %s | %s | %s | `%s` |\n", NR - 1, f[1], cell(f[2]),
    cell(f[3]), cell(paper), cell(f[4]), cell(show(f[8])), d, cell(f[10]), cell(f[12])
}
END {
  for (i = 2; i <= k; i++) for (j = i; j > 1 && abs[j - 1] > abs[j]; j--) { t = abs[j]; abs[j] = abs[j - 1]; abs[j - 1] = t }
  med = k == 0 ? 0 : k % 2 ? abs[(k + 1) / 2] : (abs[k / 2] + abs[k / 2 + 1]) / 2
  printf "\n%d rows: %d against a paper number or range (|difference| median %.1f%%, %d within 10%%), %d qualitative (%d agree).\n",
    NR - 1, k, med, within(k), quali, agree
}
function within(k,   i, c) { for (i = 1; i <= k; i++) if (abs[i] <= 10) c++; return c + 0 }
# (Fields are strings: every numeric comparison above adds 0 first.)
