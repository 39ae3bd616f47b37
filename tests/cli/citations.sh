#!/usr/bin/env bash
# citations.sh SRC CASE: the paper citations of `narwhal reproduce`
# (experiments/paper/citations.tsv, experiments/paper/rows.sh).
#   well_formed  every line has the 8 tab-separated fields; ids unique; paper one of the five;
#                a printed value and a quote on every line; row "yes" or "no: REASON"; lo and hi
#                numbers or empty; a derived value says its arithmetic
#   refused      paper_row with PAPER_CITATIONS set: a cited value (the file's first cited
#                numeric claim) makes its row; the same value at another place, or another
#                value at the same place, makes none and says so in one line (status 1)
set -euo pipefail
src=$1 case=$2
cites=$src/experiments/paper/citations.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -s "$cites" ] || fail "$cites is missing or empty"

case $case in
well_formed)
  awk -F'\t' '
    function num(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
    function bad(why) { printf "line %d (%s): %s\n", NR, $1, why; n++ }
    NR == 1 { if ($0 != "id\tpaper\tlocation\tlo\thi\tprinted\tquote\trow") bad("header"); next }
    {
      if (NF != 8) { bad(NF " fields, want 8"); next }
      if ($1 !~ /^[a-z0-9][a-z0-9.-]*$/) bad("id")
      if (seen[$1]++) bad("id repeated")
      if ($2 !~ /^(Unicorn|PRS|GeMTC|Lifflander|StarPU)$/) bad("paper " $2)
      if ($3 == "") bad("no location")
      if ($4 != "" && !num($4)) bad("lo " $4)
      if ($5 != "" && !num($5)) bad("hi " $5)
      if ($4 == "" && $5 != "") bad("hi without lo")
      if ($6 == "") bad("no printed value")
      if ($6 ~ /^derived/ && $6 !~ /^derived: .+ = .+/) bad("derived value without its arithmetic")
      if (length($7) < 10) bad("no quote")
      if ($8 != "yes" && $8 !~ /^no: ./) bad("row " $8)
    }
    END { exit n > 0 }' "$cites" || fail "malformed citations"
  ;;
refused)
  line=$(awk -F'\t' 'NR > 1 && $8 == "yes" && $4 != "" { print; exit }' "$cites")
  [ -n "$line" ] || fail "no cited numeric claim with a row"
  IFS=$'\t' read -r _ paper loc lo hi _ <<<"$line"
  # shellcheck disable=SC1091 # the repository's, given as an argument
  . "$src/experiments/paper/rows.sh"
  export PAPER_ROWS=$tmp/rows PAPER_CITATIONS=$cites
  : >"$PAPER_ROWS"
  paper_row "$paper" "Fig. 1" "cited" "$loc" "$lo" "$hi" "" 1 2>"$tmp/err" || fail "a cited value refused: $(cat "$tmp/err")"
  [ "$(wc -l <"$PAPER_ROWS")" -eq 1 ] || fail "the cited value made no row"
  for args in "$loc|${lo}9|${hi}9" "not-$loc|$lo|$hi"; do
    IFS='|' read -r l a b <<<"$args"
    status=0
    paper_row "$paper" "Fig. 1" "uncited" "$l" "$a" "$b" "" 1 2>"$tmp/err" || status=$?
    [ "$status" -eq 1 ] || fail "an uncited value ($args) gave status $status"
    if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qF "has no citation" "$tmp/err"; then
      fail "want one line saying so: $(cat "$tmp/err")"
    fi
    [ "$(wc -l <"$PAPER_ROWS")" -eq 1 ] || fail "an uncited value ($args) made a row"
  done
  ;;
*) fail "unknown case $case" ;;
esac
