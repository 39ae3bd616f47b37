/* sweep_plot.h: a sweep's figure: simulated seconds against the first varied key, one line per
 * combination of the other keys' values, drawn by gnuplot into a PNG beside the CSV. The
 * gnuplot script is written beside them too (OUT.gp), so a figure can be restyled and redrawn
 * with `gnuplot OUT.gp`. */
#ifndef NW_TOOL_SWEEP_PLOT_H
#define NW_TOOL_SWEEP_PLOT_H

#include "sweep_rows.h"

/* Writes csv's .gp and .png (csv without its .csv, plus .gp and .png); the PNG's path goes to
 * png. 0; 1 when gnuplot is not installed (nothing drawn); -1 with errno set or gnuplot
 * failing. */
int sweep_plot(const sweep_table *t, const char *csv, const char *title, char *png, size_t len);

#endif
