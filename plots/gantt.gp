# gantt.gp: the Gantt chart of a traced run (`narwhal plot TRACE.json`, docs/guide/traces.md).
#
# Loaded by the script `narwhal plot` writes beside the picture (FILE.gp), which has set the
# terminal, output, title, x label and the rows' tics (row 0 at the top), and defined:
#   nlanes                       the number of rows
#   nnodes, node_first[k]        each node's first row (a line is drawn above it)
#   first_task_ms                where the first task started, when the axis begins before it
#                                (--whole; 0 otherwise)
#   $s1 .. $s<nspans>            a data block per legend entry of spans, and
#   $i1 .. $i<ninstants>         per legend entry of instants, each line:
#                                middle (ms), row, half the length (ms), shape
#   span_title[i], span_colour[i], instant_title[i], instant_colour[i]
#                                each entry's title and colour ("#rrggbb", none repeated)
# A shape says where in its row a mark goes (tools/narwhal/trace_lanes.h): 0 the whole row;
# 1 its upper four fifths (a device's executions, in the row it shares with its data waits);
# 2 its lower fifth (the data waits, a thin band under the executions they delay); 3 its upper
# half (network transfers) and 4 its lower half (messages), in a node's row for both.

lane_half = 0.42                     # half a row's height drawn, of 0.5
array shape_mid[5] = [0, -0.2, 0.8, -0.5, 0.5]  # in lane_half, for shape s at [s + 1]
array shape_half[5] = [1, 0.8, 0.2, 0.5, 0.5]
y_mid(s) = lane_half * shape_mid[s + 1]
y_half(s) = lane_half * shape_half[s + 1]

set yrange [nlanes - 0.5 : -0.5]
set ytics scale 0
set xrange [0:*]
set autoscale xfixmax
set mxtics
set grid xtics mxtics lc rgb "#dddddd" lw 1, lc rgb "#f0f0f0" lw 1
set key outside right top Left reverse noautotitle samplen 2 spacing 1.1
set style fill solid 1.0 noborder
set border 3
set xtics nomirror out

# A line above each node's rows but the first, and the first task's start with --whole.
do for [k = 2:nnodes] {
  set arrow from graph 0, first node_first[k] - 0.5 to graph 1, first node_first[k] - 0.5 \
      nohead lc rgb "#808080" lw 1 front
}
if (first_task_ms > 0) {
  set arrow from first first_task_ms, graph 0 to first first_task_ms, graph 1 \
      nohead dt 2 lc rgb "#404040" lw 1 front
  set label "first task" at first first_task_ms, graph 1 offset 0.3, 0.5 tc rgb "#404040" front
}

# gnuplot reads an empty iteration's file all the same (for [i = 1:0] still opens "$i1"):
# a kind with no entries reads this block of no point instead.
$gantt_none << EOD
NaN NaN NaN 0
EOD
block(kind, i, n) = i <= n ? sprintf("$%s%d", kind, i) : "$gantt_none"

plot for [i = 1:nspans] block("s", i, nspans) \
         using 1:($2 + y_mid($4)):3:(y_half($4)) with boxxyerror \
         fc rgb span_colour[i] title span_title[i], \
     for [i = 1:ninstants] block("i", i, ninstants) using 1:($2 + y_mid($4)) \
         with points pt 7 ps 0.7 lc rgb instant_colour[i] title instant_title[i]
