/* validate_plot.c: see validate_plot.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "validate_plot.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"

/* path as an absolute one where it exists (so that the script redraws from any directory). */
static void absolute(const char *path, char *out, size_t cap) {
  char whole[PATH_MAX];
  snprintf(out, cap, "%s", realpath(path, whole) ? whole : path);
}

static int write_script(const char *gp, const char *png, const char *csv, int n, double lo,
                        double hi, const char *script) {
  FILE *f = fopen(gp, "w");
  if (!f)
    return -1;
  fprintf(f,
          "# Written by `narwhal validate`; redraw with: gnuplot %s\n"
          "# This picture's own things; the script loaded at the end draws them "
          "(plots/README.md).\n"
          "width = 800\nheight = 700\nset terminal pngcairo size width, height noenhanced\n"
          "set output ",
          gp);
  gnuplot_string(f, png);
  fputs("\ncsv = ", f);
  gnuplot_string(f, csv);
  /* %.17g: the range the script draws holds the extreme points exactly */
  fprintf(f, "\nconfigurations = %d\nlo = %.17g\nhi = %.17g\nload ", n, lo, hi);
  gnuplot_string(f, script);
  fputc('\n', f);
  return fclose(f) == 0 ? 0 : -1;
}

int validate_plot(const char *dir, const char *csv, int n, double lo, double hi, char *png,
                  size_t len) {
  /* Absolute inside the script, so that it redraws from any directory; png as dir is given,
   * for messages, beside "wrote DIR/validation.csv". */
  char where[PATH_MAX], gp[PATH_MAX], abs_png[PATH_MAX], abs_csv[PATH_MAX], script[PATH_MAX];
  absolute(dir, where, sizeof where);
  absolute(csv, abs_csv, sizeof abs_csv);
  if ((size_t)snprintf(png, len, "%s/validation.png", dir) >= len ||
      (size_t)snprintf(gp, sizeof gp, "%s/validation.gp", where) >= sizeof gp ||
      (size_t)snprintf(abs_png, sizeof abs_png, "%s/validation.png", where) >= sizeof abs_png)
    return errno = ENAMETOOLONG, VALIDATE_PLOT_FAILED;
  if (!gnuplot_installed())
    return VALIDATE_PLOT_NO_GNUPLOT;
  if (gnuplot_script("validate", "validation.gp", script, sizeof script) != 0)
    return VALIDATE_PLOT_NO_SCRIPT;
  if (write_script(gp, abs_png, abs_csv, n, lo, hi, script) != 0 || gnuplot_draw(gp) != 0)
    return VALIDATE_PLOT_FAILED;
  return VALIDATE_PLOT_DRAWN;
}
