# unrowed.awk: the claims of experiments/paper/citations.tsv that no row compares, as
# report.md's markdown table (scripts/reproduce-paper.sh): paper, location, the value as
# printed, the claim's quote, and why it has no row.
BEGIN { FS = "\t" }
function cell(x) { gsub(/\|/, "\\|", x); return x }
NR == 1 { print "| paper | where | value | claim | why no row |"; print "| --- | --- | --- | --- | --- |"; next }
$8 != "yes" {
  why = $8; sub(/^no: /, "", why)
  printf "| %s | %s | %s | %s | %s |\n", $2, cell($3), cell($6), cell($7), cell(why)
  n++
}
END { printf "\n%d claims without a row.\n", n }
