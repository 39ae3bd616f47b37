/* gnuplot.h: what the tool's figures (`narwhal sweep`'s, sweep_plot.h, `narwhal validate`'s,
 * validate_plot.h, and `narwhal plot`'s, trace_plot.h) need of gnuplot: whether it is installed
 * at all, so that a machine without it gets its tables and a note instead of a failed command;
 * the figure kind's script in plots/; strings written into a script; and a script drawn. */
#ifndef NW_TOOL_GNUPLOT_H
#define NW_TOOL_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

/* 1 when an executable gnuplot lies in a directory of $PATH (/usr/bin:/bin without one; an
 * empty entry is the current directory, as for the shell); 0 otherwise. */
int gnuplot_installed(void);

/* The absolute path of plots/NAME (tool_plot_script: $NARWHAL_PLOTS, the source tree, the
 * installed share/narwhal/plots) into out; 0. When none has it, one line on stderr, "WHO: no
 * plot: ...", naming the script and where it was looked for, and -1. */
int gnuplot_script(const char *who, const char *name, char *out, size_t cap);

/* s as a gnuplot string in double quotes: a quote, a backslash and a backquote escaped (gnuplot
 * would run `...` in a double-quoted string as a shell command), a newline kept as \n (a line
 * break in a title or a tic label), other control characters as spaces. */
void gnuplot_string(FILE *f, const char *s);

/* Runs gnuplot on the script at path (its messages to /dev/null: `gnuplot PATH` shows them);
 * 0 when it succeeded, -1 otherwise (errno EINVAL where the path cannot be quoted for the
 * shell). */
int gnuplot_draw(const char *path);

#endif
