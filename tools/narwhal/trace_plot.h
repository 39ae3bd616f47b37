/* trace_plot.h: `narwhal plot TRACE.json [--out FILE.png] [--size WxH]`: a Gantt chart of a
 * Chrome trace written by --trace (lib/trace_json.h), drawn by gnuplot into a PNG: a row per
 * lane (node and thread name), spans as boxes coloured by name (task kind, copy in or out, data
 * wait, transfer), instants (steals, multi-assigned copies, cancellations) as points. The
 * gnuplot script, data inline, is written beside the PNG (FILE.gp) for restyling. */
#ifndef NW_TOOL_TRACE_PLOT_H
#define NW_TOOL_TRACE_PLOT_H

/* argv: what follows "plot". 0 drawn; 1 gnuplot missing or failing; 2 bad input (one line). */
int trace_plot_main(int argc, char **argv);

#endif
