/* gnuplot.h: what the tool's figures (`narwhal sweep`'s, sweep_plot.h, and `narwhal plot`'s,
 * trace_plot.h) need of gnuplot before writing a script for it: whether it is installed at all,
 * so that a machine without it gets its tables and a note instead of a failed command. */
#ifndef NW_TOOL_GNUPLOT_H
#define NW_TOOL_GNUPLOT_H

/* 1 when an executable gnuplot lies in a directory of $PATH (/usr/bin:/bin without one; an
 * empty entry is the current directory, as for the shell); 0 otherwise. */
int gnuplot_installed(void);

#endif
