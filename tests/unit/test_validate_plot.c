/* test_validate_plot.c: `narwhal validate`'s figure (tools/narwhal/validate_plot.h) from a
 * validation.csv written by hand, without the real runs that make one: the PNG is drawn by
 * plots/validation.gp, which the run's validation.gp loads and which holds the fixed part
 * (validation.gp has only the picture's own variables); `gnuplot validation.gp` redraws it
 * from another directory, the points on x are the measured times (a quoted name holding a
 * comma keeps its columns), and with NARWHAL_PLOTS naming a folder of one's own an edited copy
 * of the script draws it. Skipped (77) without gnuplot. */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gnuplot.h"
#include "platform_path.h"
#include "validate_plot.h"

static char *slurp(const char *path) {
  static char text[16384];
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  text[n] = '\0';
  if (f)
    fclose(f);
  return text;
}

/* A PNG of w x h pixels: the signature, then the IHDR chunk's width and height. */
static int png_is(const char *path, unsigned w, unsigned h) {
  unsigned char b[24] = {0};
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(b, 1, sizeof b, f) : 0;
  if (f)
    fclose(f);
  unsigned pw = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
  unsigned ph = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
  return n == 24 && !memcmp(b, "\211PNG\r\n\032\n", 8) && !memcmp(b + 12, "IHDR", 4) && pw == w &&
         ph == h;
}

static void write_csv(const char *csv) {
  FILE *f = fopen(csv, "w");
  if (!f)
    return;
  fputs("configuration,group,real_s,spread,simulated_s,error,uncalibrated_subtasks\n"
        "\"matmul, 2 ranks\",\"g\",0.5,0.010000,0.55,0.100000,0\n"
        "\"b\",\"g\",4,0.020000,3.8,-0.050000,0\n"
        "\"c\",\"h\",40,0.010000,42,0.050000,0\n",
        f);
  fclose(f);
}

int main(void) {
  if (!gnuplot_installed()) {
    puts("validate_plot: gnuplot is not installed: skipped");
    return 77;
  }
  unsetenv("NARWHAL_PLOTS"); /* the source tree's plots/ */
  char dir[] = "/tmp/nw-validate-plot-XXXXXX", csv[128], gp[128], png[512], script[4096];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(csv, sizeof csv, "%s/validation.csv", dir);
  snprintf(gp, sizeof gp, "%s/validation.gp", dir);
  write_csv(csv);
  CHECK(validate_plot(dir, csv, 3, 0.5, 42, png, sizeof png) == VALIDATE_PLOT_DRAWN);
  CHECK(png_is(png, 800, 700));
  const char *text = slurp(gp);
  CHECK(tool_plot_script("validation.gp", script, sizeof script) == 0);
  char load[4200];
  snprintf(load, sizeof load, "\nload \"%s\"\n", script);
  CHECK(strstr(text, load) != NULL);
  CHECK(strstr(text, "\nconfigurations = 3\nlo = 0.5\nhi = 42\n") != NULL);
  CHECK(!strstr(text, "xlabel") && !strstr(text, "\nplot ")); /* the fixed part is plots/'s */

  /* Redrawn from elsewhere; the data's x range is the measured times, 0.5 to 40. */
  char cmd[5000], out[160];
  snprintf(out, sizeof out, "%s/gpval.txt", dir);
  unlink(png);
  snprintf(cmd, sizeof cmd,
           "cd / && gnuplot -e 'load \"%s\"; set print \"%s\"; "
           "print GPVAL_DATA_X_MIN, GPVAL_DATA_X_MAX' 2>/dev/null",
           gp, out);
  CHECK(system(cmd) == 0 && png_is(png, 800, 700));
  CHECK(!strcmp(slurp(out), "0.5 40.0\n"));

  /* A copy of plots/ of one's own, its validation.gp edited, is the one drawn. */
  char own[160], marker[160];
  snprintf(own, sizeof own, "%s/own", dir);
  snprintf(marker, sizeof marker, "%s/marker", dir);
  snprintf(cmd, sizeof cmd,
           "mkdir '%s' && cp '%s' '%s/' && echo 'set print \"%s\"; print \"edited\"' >>"
           " '%s/validation.gp'",
           own, script, own, marker, own);
  CHECK(system(cmd) == 0);
  setenv("NARWHAL_PLOTS", own, 1);
  CHECK(validate_plot(dir, csv, 3, 0.5, 42, png, sizeof png) == VALIDATE_PLOT_DRAWN);
  CHECK(!strcmp(slurp(marker), "edited\n"));
  unsetenv("NARWHAL_PLOTS");
  /* A script no folder has: -1, and a line on stderr naming it. */
  CHECK(gnuplot_script("validate", "no-such-figure.gp", script, sizeof script) == -1);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
  return check_report("validate_plot");
}
