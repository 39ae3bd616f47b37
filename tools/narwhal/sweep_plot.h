/* sweep_plot.h: a sweep's figure: makespan against the first varied key, drawn by gnuplot into
 * a PNG beside the CSV. A categorical first key (names, or objects of options set together) is
 * drawn as bars, clustered by the combinations of the other keys' values; a numeric one on a
 * numeric x axis, a line per combination. The script written beside them (OUT.gp) holds only
 * this picture's own things, as gnuplot variables, then loads the figure's script from plots/
 * (plots/README.md): the sweep's own plots/NAME.gp where there is one, else sweep-bars.gp or
 * sweep-lines.gp; so a figure is restyled by editing one file there, and redrawn with
 * `gnuplot OUT.gp`. */
#ifndef NW_TOOL_SWEEP_PLOT_H
#define NW_TOOL_SWEEP_PLOT_H

#include "sweep_rows.h"

typedef struct sweep_figure {
  const char *csv;   /* the table drawn; OUT is it less .csv */
  const char *title; /* the sweep's "title", or NULL: the CSV's path */
  const char *file;  /* the sweep file: plots/NAME.gp, NAME its name less .json, draws it
                        where that script exists */
  const char *what;  /* "simulated" or "measured" when every point's backend says so; "" */
} sweep_figure;

enum {
  SWEEP_PLOT_DRAWN = 0,
  SWEEP_PLOT_NO_GNUPLOT = 1, /* not installed: nothing written */
  SWEEP_PLOT_NO_SCRIPT = 2,  /* a script of plots/ is missing: said on stderr, nothing written */
  SWEEP_PLOT_FAILED = -1     /* errno set, or gnuplot failed */
};

/* Writes OUT.gp and has gnuplot draw OUT.png; the PNG's path (as the CSV's is given) goes to
 * png. One of the values above. */
int sweep_plot(const sweep_table *t, const sweep_figure *fig, char *png, size_t len);

#endif
