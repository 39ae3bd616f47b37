/* sweep_plot.c: see sweep_plot.h. */
#define _POSIX_C_SOURCE 200809L
#include "sweep_plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"

/* Text for a gnuplot string in double quotes. */
static void quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int sweep_plot(const sweep_table *t, const char *csv, const char *title, char *png, size_t len) {
  if (!gnuplot_installed())
    return 1;
  const sweep_grid *g = t->grid;
  char stem[1024], gp[1100];
  snprintf(stem, sizeof stem, "%s", csv);
  size_t n = strlen(stem);
  if (n > 4 && !strcmp(stem + n - 4, ".csv"))
    stem[n - 4] = '\0';
  snprintf(gp, sizeof gp, "%s.gp", stem);
  snprintf(png, len, "%s.png", stem);
  FILE *f = fopen(gp, "w");
  if (!f)
    return -1;
  /* Rows are in point order: row r has the first key's value r / S and series r % S, S the
   * number of combinations of the other keys. */
  long series = g->points / g->size[0];
  int y = g->nkeys + 1; /* makespan_s, after the labels */
  fprintf(f, "# Written by `narwhal sweep`; redraw with: gnuplot %s\n", gp);
  fprintf(f, "set terminal pngcairo size 900,560 noenhanced\nset output ");
  quoted(f, png);
  char head[84];
  snprintf(head, sizeof head, "%s", title ? title : csv);
  if (strlen(title ? title : csv) >= sizeof head) /* a figure's title: the start of the sweep's */
    memcpy(head + sizeof head - 4, "...", 4);
  fprintf(f, "\nset datafile separator ','\nset title ");
  quoted(f, head);
  fprintf(f, "\nset xlabel ");
  quoted(f, g->key[0]);
  fprintf(f, "\nset ylabel \"simulated s\"\nset yrange [0:*]\nset grid\nset key outside right\n"
             "set xtics (");
  for (int i = 0; i < g->size[0]; i++) {
    char label[SWEEP_LABEL_MAX];
    sweep_value_text(cJSON_GetArrayItem(g->values[0], i), label, sizeof label);
    fprintf(f, "%s", i ? ", " : "");
    quoted(f, label);
    fprintf(f, " %d", i);
  }
  fprintf(f, ")\nset xrange [-0.5:%d.5]\nplot", g->size[0] - 1);
  for (long s = 0; s < series; s++) {
    char name[600] = "makespan";
    if (g->nkeys > 1) { /* the other keys' values of series s: those of point s */
      size_t at = 0;
      name[0] = '\0';
      for (int k = 1; k < g->nkeys && at < sizeof name; k++) {
        char label[SWEEP_LABEL_MAX];
        sweep_value_text(sweep_grid_value(g, s, k), label, sizeof label);
        at += (size_t)snprintf(name + at, sizeof name - at, "%s%s=%s", k > 1 ? ", " : "", g->key[k],
                               label);
      }
    }
    fprintf(f, "%s ", s ? ", \\\n    " : "");
    quoted(f, csv);
    /* every S::s keeps series s's rows; $0 then counts them: the first key's index */
    fprintf(f, " skip 1 every %ld::%ld using 0:%d with linespoints title ", series, s, y);
    quoted(f, name);
  }
  fprintf(f, "\n");
  if (fclose(f) != 0)
    return -1;
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", gp);
  if (strchr(gp, '\'')) /* not quotable in the shell line: say so rather than guess */
    return errno = EINVAL, -1;
  return system(cmd) == 0 ? 0 : -1;
}
