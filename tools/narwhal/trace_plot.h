/* trace_plot.h: `narwhal plot TRACE.json [--out FILE.png] [--size WxH] [--lanes grouped|all]
 * [--whole]`: a Gantt chart of a Chrome trace written by --trace (lib/trace_json.h), drawn by
 * gnuplot into a PNG. The rows are trace_lanes.h's, the legend's entries and colours
 * trace_classes.h's; spans are boxes, instants (steals, multi-assigned copies, cancellations)
 * points. The axis starts at the first task, leaving out the input's placement before it,
 * unless --whole. The script written beside the PNG (FILE.gp) holds the picture's data and
 * names, then loads plots/gantt.gp (tool_plot_script), which styles and draws them. */
#ifndef NW_TOOL_TRACE_PLOT_H
#define NW_TOOL_TRACE_PLOT_H

/* argv: what follows "plot". 0 drawn; 1 gnuplot missing or failing; 2 bad input (one line). */
int trace_plot_main(int argc, char **argv);

#endif
