# plot.awk: comparison.csv as gnuplot data for comparison.png (experiments/paper/comparison-plot.sh
# runs it, plots/comparison.gp draws it), with csv.awk. The picture is a horizontal bar per row,
# labelled, top to bottom in report.md's order; the rows without a difference (qualitative
# claims) get a marker in a group of their own below the bars, so that none of them reads as a
# 0% bar. Two files, so that each stays one plain block (gnuplot loses an empty block among
# several):
#   standard output (comparison.dat), a line per row with a difference (a paper number or range):
#     ROW PAPER SHOWN CLIPPED TRUE Y "LABEL" "MARK"
#     ROW: the row's number in report.md; PAPER: the paper's index (its colour); SHOWN: the
#     difference in percent clipped to +-CLIP, so that one far-off row does not flatten the
#     others; CLIPPED: 1 when it was; TRUE: the difference itself; Y: the bar's place (1 at the
#     top); LABEL: "#ROW PAPER FIGURE: QUANTITY", shortened to MAXLABEL characters; MARK: the
#     true difference, written beside a clipped bar ("" when not clipped).
#     Then comments gnuplot skips and comparison-plot.sh reads: "# paper INDEX NAME" per paper
#     and "# rows BARS CLAIMS".
#   the file CLAIMS (comparison-claims.dat), a line per row without one:
#     ROW PAPER STATUS Y "LABEL" "NOTE"
#     STATUS: 1 the claim agrees, 2 it differs, 0 not checked (the note says neither, e.g. "no
#     threshold stated"); Y: below the bars, after a gap of GAP places for the group's heading;
#     NOTE: the note, shortened, or why there is no difference.
BEGIN { GAP = 2; MAXLABEL = 118; MAXNOTE = 110; if (CLAIMS == "") CLAIMS = "/dev/null" }
NR == 1 { next }
{
  split_csv($0, f)
  if (!(f[1] in index_of)) { index_of[f[1]] = ++papers; name[papers] = f[1] }
  label = "#" (NR - 1) " " f[1] " " f[2] ": "
  label = label shorten(f[3], MAXLABEL - length(label))
  if (f[5] != "" && num(f[9])) {
    d = f[9] + 0
    shown = (d > CLIP) ? CLIP : ((d < -CLIP) ? -CLIP : d)
    mark = (shown == d) ? "" : sprintf(d >= 1000 || d <= -1000 ? "%+.0f%%" : "%+.1f%%", d)
    bar[++bars] = sprintf("%d %d %.3f %d %s %d \"%s\" \"%s\"", NR - 1, index_of[f[1]], shown,
      (shown != d), f[9] + 0, bars, quote(label), mark)
  } else {
    # A paper number without a difference (a paper value of 0) has nothing to draw either.
    note = f[5] != "" ? "no difference (paper value " f[5] ")" : f[10]
    status = note ~ /^agrees/ ? 1 : (note ~ /^differs/ ? 2 : 0)
    if (note == "") note = "not checked by the script"
    claim[++claims] = sprintf("%d %d %d", NR - 1, index_of[f[1]], status) SUBSEP quote(label) SUBSEP quote(shorten(note, MAXNOTE))
  }
}
END {
  print "# ROW PAPER SHOWN CLIPPED TRUE Y \"LABEL\" \"MARK\" (experiments/paper/plot.awk)"
  for (i = 1; i <= bars; i++) print bar[i]
  print "# ROW PAPER STATUS Y \"LABEL\" \"NOTE\" (experiments/paper/plot.awk)" >CLAIMS
  for (i = 1; i <= claims; i++) {
    split(claim[i], c, SUBSEP)
    printf "%s %d \"%s\" \"%s\"\n", c[1], bars + GAP + i, c[2], c[3] >CLAIMS
  }
  for (p = 1; p <= papers; p++) printf "# paper %d %s\n", p, name[p]
  printf "# rows %d %d\n", bars, claims
}
# gnuplot's data strings end at a double quote: the label keeps a single one instead.
function quote(s) { gsub(/"/, "'", s); return s }
# A label fits when it is at most max characters: parenthesised asides go first, from the left
# (the place and configuration that tell rows apart are mostly outside them), then the middle.
function shorten(s, max,   t) {
  while (length(s) > max && match(s, / ?\([^()]*\)/)) {
    t = substr(s, 1, RSTART - 1) substr(s, RSTART + RLENGTH)
    s = t
  }
  if (length(s) > max) s = substr(s, 1, int(max / 2) - 1) "..." substr(s, length(s) - (max - int(max / 2)) + 3)
  return s
}
