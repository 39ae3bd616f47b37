/* validate_plot.h: `narwhal validate`'s figure: simulated against measured makespan, a point
 * per held-out configuration, beside the diagonal and a 10% band. DIR/validation.gp holds only
 * this picture's own things (its files, how many configurations, the range of the times) and
 * loads plots/validation.gp (plots/README.md), which draws it; `gnuplot DIR/validation.gp`
 * redraws it. */
#ifndef NW_TOOL_VALIDATE_PLOT_H
#define NW_TOOL_VALIDATE_PLOT_H

#include <stddef.h>

enum {
  VALIDATE_PLOT_DRAWN = 0,
  VALIDATE_PLOT_NO_GNUPLOT = 1, /* not installed: nothing written */
  VALIDATE_PLOT_NO_SCRIPT = 2,  /* plots/validation.gp is missing: said on stderr */
  VALIDATE_PLOT_FAILED = -1     /* errno set, or gnuplot failed */
};

/* Draws csv (validation.csv's columns: configuration, group, real_s, spread, simulated_s,
 * ...) into dir/validation.png, writing dir/validation.gp; n configurations whose times, real
 * and simulated, lie in [lo, hi] seconds. The PNG's path goes to png. One of the values above. */
int validate_plot(const char *dir, const char *csv, int n, double lo, double hi, char *png,
                  size_t len);

#endif
