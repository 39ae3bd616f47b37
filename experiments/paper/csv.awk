# csv.awk: CSV fields for the awk programs of experiments/paper (comparison.csv's quoting:
# a field with a comma, quote or space in "...", a quote inside doubled).
# One CSV line into f[1..n]: fields quoted with "..." and "" for a quote.
function split_csv(line, f,   n, i, c, q, cur) {
  n = 0; cur = ""; q = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (q) {
      if (c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ }
      else if (c == "\"") q = 0
      else cur = cur c
    } else if (c == "\"") q = 1
    else if (c == ",") { f[++n] = cur; cur = "" }
    else cur = cur c
  }
  f[++n] = cur
  return n
}
function num(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
