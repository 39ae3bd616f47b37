/* sweep_plot.c: see sweep_plot.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep_plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "platform_path.h"

#define PLOT_WIDTH 900
#define PLOT_HEIGHT 560
/* Text beyond two title lines and two legend rows makes the picture taller by a line each
 * (sweep-frame.gp wraps the title at about 9.5 pixels a character; a little less here, for
 * the words that do not fill a line), so that the plot keeps its height; up to PLOT_GROW. */
#define TITLE_CHARS ((PLOT_WIDTH - 40) / 10)
#define LINE_PIXELS 18
#define PLOT_GROW 440
/* A numeric key whose values span more than this factor gets a logarithmic x axis: on a linear
 * one, 1, 2, 4 and 8 of 1..64 would crowd into the left eighth. */
#define LOG_SPAN 16
#define NAME_MAX_LEN 600

/* The figure's files: as the CSV's path is given (to write them, and for messages), and
 * absolute (inside OUT.gp, so that `gnuplot OUT.gp` redraws it from any directory). */
typedef struct figure_paths {
  char gp[PATH_MAX], png[PATH_MAX];
  char abs_csv[PATH_MAX], abs_gp[PATH_MAX], abs_png[PATH_MAX];
} figure_paths;

/* The scripts of plots/ that draw it: the frame every sweep figure shares, the generic bars
 * and lines (the one the first key asks for must be there; the other is for a sweep's own
 * script, empty where it is missing), and the sweep's own (empty where it has none). */
typedef struct figure_scripts {
  char frame[PATH_MAX], bars[PATH_MAX], lines[PATH_MAX], own[PATH_MAX];
  char *generic; /* bars or lines */
} figure_scripts;

/* path less its ".csv", then suffix. 0, or -1 when it does not fit. */
static int beside(const char *path, const char *suffix, char *out, size_t cap) {
  size_t n = strlen(path);
  if (n > 4 && !strcmp(path + n - 4, ".csv"))
    n -= 4;
  int w = snprintf(out, cap, "%.*s%s", (int)n, path, suffix);
  return w > 0 && (size_t)w < cap ? 0 : -1;
}

static int figure_paths_of(const char *csv, figure_paths *p) {
  char whole[PATH_MAX];
  const char *abs = realpath(csv, whole) ? whole : csv; /* the sweep has just written it */
  if (beside(csv, ".gp", p->gp, sizeof p->gp) || beside(csv, ".png", p->png, sizeof p->png) ||
      beside(abs, ".gp", p->abs_gp, sizeof p->abs_gp) ||
      beside(abs, ".png", p->abs_png, sizeof p->abs_png) ||
      (size_t)snprintf(p->abs_csv, sizeof p->abs_csv, "%s", abs) >= sizeof p->abs_csv)
    return errno = ENAMETOOLONG, -1;
  return 0;
}

static int key_is_numeric(const sweep_grid *g, int k) {
  for (const cJSON *v = g->values[k]->child; v; v = v->next)
    if (!cJSON_IsNumber(v))
      return 0;
  return 1;
}

/* 10 where a numeric key's values are all positive and span more than LOG_SPAN; 0: linear. */
static int log_base(const sweep_grid *g) {
  double lo = INFINITY, hi = -INFINITY;
  for (const cJSON *v = g->values[0]->child; v; v = v->next)
    lo = fmin(lo, v->valuedouble), hi = fmax(hi, v->valuedouble);
  return lo > 0 && hi > LOG_SPAN * lo ? 10 : 0;
}

/* A value as the figure names it: strings bare, numbers in 15 digits (0.1, not the CSV's
 * 0.10000000000000001), an object's members as key=value separated by sep (a tic label
 * stacks them on lines of their own, a legend entry runs them on). */
static void value_name(const cJSON *v, const char *sep, char *out, size_t len) {
  if (cJSON_IsNumber(v)) {
    snprintf(out, len, "%.15g", v->valuedouble);
    return;
  }
  if (!cJSON_IsObject(v)) {
    sweep_value_text(v, out, len);
    return;
  }
  size_t at = 0;
  out[0] = '\0';
  for (const cJSON *m = v->child; m && at < len; m = m->next) {
    char one[SWEEP_LABEL_MAX];
    value_name(m, ";", one, sizeof one);
    at += (size_t)snprintf(out + at, len - at, "%s%s=%s", m == v->child ? "" : sep, m->string, one);
  }
}

/* Key k's value i as named in a legend, with " #2", " #3" ... after a name an earlier value of
 * the key has too (as 1 and 1.0), so that no two series share an entry. */
static void legend_value(const sweep_grid *g, int k, int i, char *out, size_t len) {
  const cJSON *v = cJSON_GetArrayItem(g->values[k], i);
  char name[SWEEP_LABEL_MAX], other[SWEEP_LABEL_MAX];
  value_name(v, " ", name, sizeof name);
  int same = 0;
  for (int j = 0; j < i; j++) {
    value_name(cJSON_GetArrayItem(g->values[k], j), " ", other, sizeof other);
    same += !strcmp(name, other);
  }
  /* An object's members name themselves; a plain value goes after its key. */
  int bare = cJSON_IsObject(v);
  int n = snprintf(out, len, "%s%s%s", bare ? "" : g->key[k], bare ? "" : "=", name);
  if (same && n >= 0 && (size_t)n < len)
    snprintf(out + n, len - (size_t)n, " #%d", same + 1);
}

/* Series s's legend entry: the other keys' values of its points (those of point s, whose first
 * key has its first value), or what the one series shows. */
static void series_name(const sweep_grid *g, long s, const char *what, char *out, size_t len) {
  if (g->nkeys == 1) {
    snprintf(out, len, "%s%smakespan", what, what[0] ? " " : "");
    return;
  }
  size_t at = 0;
  out[0] = '\0';
  for (int k = 1; k < g->nkeys && at < len; k++) {
    long stride = 1;
    for (int j = g->nkeys - 1; j > k; j--)
      stride *= g->size[j];
    char one[NAME_MAX_LEN];
    legend_value(g, k, (int)((s / stride) % g->size[k]), one, sizeof one);
    at += (size_t)snprintf(out + at, len - at, "%s%s", k > 1 ? ", " : "", one);
  }
}

/* The picture's height: PLOT_HEIGHT, and a line more for each title line beyond two and
 * each series beyond two (a legend row each at most). */
static int plot_height(const char *title, long series) {
  long lines = ((long)strlen(title) + TITLE_CHARS - 1) / TITLE_CHARS;
  long extra = (lines > 2 ? lines - 2 : 0) + (series > 2 ? series - 2 : 0);
  return PLOT_HEIGHT + (int)(extra * LINE_PIXELS < PLOT_GROW ? extra * LINE_PIXELS : PLOT_GROW);
}

static void string_var(FILE *f, const char *name, const char *value) {
  fprintf(f, "%s = ", name);
  gnuplot_string(f, value);
  fputc('\n', f);
}

/* The first key's values: their names (tic labels of bars), and their numbers for a numeric
 * key (the x of its lines). */
static void write_x(FILE *f, const sweep_grid *g, int numeric) {
  fprintf(f, "nx = %d\narray xname[%d] = [", g->size[0], g->size[0]);
  for (int i = 0; i < g->size[0]; i++) {
    char name[SWEEP_LABEL_MAX];
    value_name(cJSON_GetArrayItem(g->values[0], i), "\n", name, sizeof name);
    fputs(i ? ", " : "", f);
    gnuplot_string(f, name);
  }
  fputs("]\n", f);
  if (!numeric)
    return;
  fprintf(f, "array xval[%d] = [", g->size[0]);
  for (int i = 0; i < g->size[0]; i++)
    fprintf(f, "%s%.17g", i ? ", " : "", cJSON_GetArrayItem(g->values[0], i)->valuedouble);
  fputs("]\n", f);
}

/* Rows are in point order: row r has the first key's value r / S and series r % S, S the
 * number of combinations of the other keys (the scripts read series s as every S-th row). */
static void write_series(FILE *f, const sweep_grid *g, const char *what) {
  long series = g->points / g->size[0];
  fprintf(f, "series = %ld\narray series_name[%ld] = [", series, series);
  for (long s = 0; s < series; s++) {
    char name[NAME_MAX_LEN];
    series_name(g, s, what, name, sizeof name);
    fputs(s ? ", " : "", f);
    gnuplot_string(f, name);
  }
  fputs("]\n", f);
}

/* The scripts' paths (a sweep's own script loads the generic ones through them), then the load
 * of the one that draws the figure. */
static void write_loads(FILE *f, const figure_scripts *s) {
  string_var(f, "sweep_frame", s->frame);
  string_var(f, "sweep_bars", s->bars);
  string_var(f, "sweep_lines", s->lines);
  string_var(f, "sweep_generic", s->generic);
  if (s->own[0]) { /* its folder, where it may load a sibling (roofline-cmeans.gp does) */
    char dir[PATH_MAX];
    const char *slash = strrchr(s->own, '/');
    snprintf(dir, sizeof dir, "%.*s", (int)(slash ? slash - s->own + 1 : 0), s->own);
    string_var(f, "sweep_own_dir", dir);
  }
  fputs("load ", f);
  gnuplot_string(f, s->own[0] ? s->own : s->generic);
  fputc('\n', f);
}

static int write_script(const sweep_table *t, const sweep_figure *fig, const figure_paths *p,
                        const figure_scripts *s) {
  const sweep_grid *g = t->grid;
  int numeric = key_is_numeric(g, 0);
  const char *title = fig->title ? fig->title : fig->csv;
  FILE *f = fopen(p->gp, "w");
  if (!f)
    return -1;
  fprintf(f,
          "# Written by `narwhal sweep`; redraw with: gnuplot %s\n"
          "# This picture's own things; the script loaded at the end draws them (plots/README.md)."
          "\nwidth = %d\nheight = %d\nset terminal pngcairo size width, height noenhanced\n"
          "set output ",
          p->abs_gp, PLOT_WIDTH, plot_height(title, g->points / g->size[0]));
  gnuplot_string(f, p->abs_png);
  fputc('\n', f);
  string_var(f, "csv", p->abs_csv);
  string_var(f, "title_text", title);
  string_var(f, "what", fig->what);
  string_var(f, "xkey", g->key[0]);
  fprintf(f, "ycol = %d\ncategorical = %d\nxlog = %d\n", g->nkeys + 1, !numeric,
          numeric ? log_base(g) : 0); /* makespan_s follows the keys' labels */
  write_x(f, g, numeric);
  write_series(f, g, fig->what);
  write_loads(f, s);
  return fclose(f) == 0 ? 0 : -1;
}

/* The sweep's own script: plots/NAME.gp for the sweep file NAME.json, unless NAME is one of the
 * figure kinds' scripts. Empty where there is none. */
static void own_script(const char *file, char *out, size_t cap) {
  static const char *const kinds[] = {"sweep-frame", "sweep-bars", "sweep-lines",
                                      "validation",  "gantt",      "comparison"};
  const char *slash = file ? strrchr(file, '/') : NULL;
  const char *base = slash ? slash + 1 : file ? file : "";
  char name[NAME_MAX];
  size_t n = strlen(base);
  if (n > 5 && !strcmp(base + n - 5, ".json"))
    n -= 5;
  out[0] = '\0';
  if (n == 0 || n + 4 > sizeof name)
    return;
  snprintf(name, sizeof name, "%.*s", (int)n, base);
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    if (!strcmp(name, kinds[k]))
      return;
  strcat(name, ".gp");
  if (tool_plot_script(name, out, cap) != 0)
    out[0] = '\0';
}

/* The scripts that draw the figure; -1, said on stderr, when the frame or the generic script
 * the first key asks for is missing. */
static int find_scripts(int numeric, const char *file, figure_scripts *s) {
  char *want = numeric ? s->lines : s->bars, *other = numeric ? s->bars : s->lines;
  s->generic = want;
  if (tool_plot_script(numeric ? "sweep-bars.gp" : "sweep-lines.gp", other, PATH_MAX) != 0)
    other[0] = '\0';
  if (gnuplot_script("sweep", "sweep-frame.gp", s->frame, sizeof s->frame) ||
      gnuplot_script("sweep", numeric ? "sweep-lines.gp" : "sweep-bars.gp", want, PATH_MAX))
    return -1;
  own_script(file, s->own, sizeof s->own);
  return 0;
}

int sweep_plot(const sweep_table *t, const sweep_figure *fig, char *png, size_t len) {
  figure_paths p;
  figure_scripts s;
  int ok = figure_paths_of(fig->csv, &p);
  snprintf(png, len, "%s", ok == 0 ? p.png : fig->csv);
  if (!gnuplot_installed())
    return SWEEP_PLOT_NO_GNUPLOT;
  if (ok != 0)
    return SWEEP_PLOT_FAILED;
  if (find_scripts(key_is_numeric(t->grid, 0), fig->file, &s) != 0)
    return SWEEP_PLOT_NO_SCRIPT;
  if (write_script(t, fig, &p, &s) != 0 || gnuplot_draw(p.gp) != 0)
    return SWEEP_PLOT_FAILED;
  return SWEEP_PLOT_DRAWN;
}
