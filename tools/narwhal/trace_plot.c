/* trace_plot.c: see trace_plot.h. */
#define _POSIX_C_SOURCE 200809L
#include "trace_plot.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "platform_path.h"
#include "text_file.h"
#include "trace_classes.h"
#include "trace_lanes.h"
#include "trace_read.h"

#define PLOT_USAGE                                                                                 \
  "narwhal plot TRACE.json [--out FILE.png] [--size WxH] [--lanes grouped|all] [--whole]"
static const char plot_help[] =
    "usage: " PLOT_USAGE "\n"
    "Draws a Gantt chart of a `narwhal run --trace FILE` trace with gnuplot: per node a row per\n"
    "device (idle ones too) with its data waits as a band under its executions, a row per GPU\n"
    "copy engine and direction, and one row for the messages and transfers it received\n"
    "(docs/guide/traces.md). The script FILE.gp written beside the PNG holds the picture's data\n"
    "and loads plots/gantt.gp, which styles and draws it (gnuplot FILE.gp redraws it).\n"
    "  --out FILE.png  the picture (default: the trace's name with .png)\n"
    "  --size WxH      its size in pixels\n"
    "  --lanes all     a row per lane of the trace instead (each device's data waits, each\n"
    "                  network and messages lane that overlapping spans spread over)\n"
    "  --whole         the time axis from the trace's start: with the input's placement,\n"
    "                  which comes before the first task (by default t = 0 is when that starts)\n";

typedef struct plot_opts {
  const char *path, *out, *size;
  int all, whole, w, h;
  char png[1100], gp[1100];
} plot_opts;

typedef struct mark {
  long row;
  int cls, shape;
  double ts, dur; /* microseconds */
} mark;

/* What the marks are: the rows, the legend's kernels, and the marks in trace order. */
typedef struct chart {
  plot_rows rows;
  plot_kernels kernels;
  mark *m;
  size_t nm;
  /* The trace's first event, the first that is not the input's placement, the axis's zero
   * (one of them); microseconds. */
  double start, first_work, t0;
} chart;

static int parse_size(const char *s, int *w, int *h) {
  char *end;
  long x = strtol(s, &end, 10);
  if (end == s || (*end != 'x' && *end != 'X'))
    return -1;
  const char *at = end + 1;
  long y = strtol(at, &end, 10);
  if (end == at || *end || x < 100 || x > 10000 || y < 100 || y > 10000)
    return -1;
  *w = (int)x, *h = (int)y;
  return 0;
}

/* The options after "plot"; 0, 1 for --help (printed), 2 after one line on stderr. */
static int parse_args(int argc, char **argv, plot_opts *o) {
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(plot_help, stdout);
      return 1;
    }
    if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      o->out = argv[++i];
      if (!*o->out) {
        tool_say("plot: --out: the value is empty");
        return 2;
      }
    } else if (!strcmp(argv[i], "--size") && i + 1 < argc)
      o->size = argv[++i];
    else if (!strcmp(argv[i], "--lanes") && i + 1 < argc) {
      const char *v = argv[++i];
      if (strcmp(v, "all") && strcmp(v, "grouped")) {
        tool_say("plot: --lanes '%.40s': grouped (the default) or all", v);
        return 2;
      }
      o->all = !strcmp(v, "all");
    } else if (!strcmp(argv[i], "--whole"))
      o->whole = 1;
    else if (!o->path && argv[i][0] != '-')
      o->path = argv[i];
    else {
      tool_say("plot: unexpected argument '%.200s' (" PLOT_USAGE ")", argv[i]);
      return 2;
    }
  }
  if (!o->path) {
    tool_say("plot: missing TRACE (" PLOT_USAGE ")");
    return 2;
  }
  if (o->size && parse_size(o->size, &o->w, &o->h) != 0) {
    tool_say("plot: --size '%.40s': not WxH in pixels, each from 100 to 10000", o->size);
    return 2;
  }
  return 0;
}

/* FILE.png (--out, or the trace's name with .png) and FILE.gp beside it; 0, or 2. */
static int name_files(plot_opts *o) {
  size_t n = strlen(o->out ? o->out : o->path);
  if (n > 1000) {
    tool_say("plot: %s: the path is too long", o->out ? "--out" : "TRACE");
    return 2;
  }
  if (o->out)
    snprintf(o->png, sizeof o->png, "%s", o->out);
  else {
    snprintf(o->png, sizeof o->png, "%s", o->path);
    if (n > 5 && !strcmp(o->png + n - 5, ".json"))
      o->png[n - 5] = '\0';
    strcat(o->png, ".png");
  }
  snprintf(o->gp, sizeof o->gp, "%s", o->png);
  n = strlen(o->gp);
  if (n > 4 && !strcmp(o->gp + n - 4, ".png"))
    o->gp[n - 4] = '\0';
  strcat(o->gp, ".gp");
  if (strchr(o->gp, '\'')) { /* not quotable in the shell line */
    tool_say("plot: %s: a path with a ' cannot be handed to gnuplot", o->png);
    return 2;
  }
  return 0;
}

/* The marks: every complete event and instant on a row, classed; the axis's zero. */
static void collect_marks(const cJSON *events, chart *c, int whole) {
  const cJSON *e;
  int any_work = 0;
  cJSON_ArrayForEach(e, events) {
    trace_event f = trace_event_fields(e);
    if (!cJSON_IsString(f.ph) || !cJSON_IsString(f.name) || !cJSON_IsNumber(f.pid) ||
        !cJSON_IsNumber(f.tid) || !cJSON_IsNumber(f.ts))
      continue;
    const char *ph = f.ph->valuestring;
    int instant = !strcmp(ph, "i") || !strcmp(ph, "I");
    if (!instant && (strcmp(ph, "X") || !cJSON_IsNumber(f.dur)))
      continue; /* only complete events and instants are drawn */
    mark m = {0, 0, 0, f.ts->valuedouble, instant ? 0 : f.dur->valuedouble};
    m.row = plot_rows_find(&c->rows, f.pid->valueint, f.tid->valueint, &m.shape);
    m.cls = plot_class_of(&c->kernels, instant, cJSON_IsString(f.cat) ? f.cat->valuestring : "",
                          f.name->valuestring);
    if (m.row < 0)
      continue;
    if (c->nm == 0 || m.ts < c->start)
      c->start = m.ts;
    if (m.cls != PLOT_PLACEMENT && (!any_work || m.ts < c->first_work))
      c->first_work = m.ts, any_work = 1;
    c->m[c->nm++] = m;
  }
  /* The input's placement is untimed set-up before the first task: by default the axis
   * starts where the run's own work does, so that the work gets the picture's width. */
  if (!any_work)
    c->first_work = c->start;
  c->t0 = whole ? c->start : c->first_work;
}

/* A mark's part on the axis (ms from t0): 0, or -1 when it lies wholly before t0. */
static int mark_span(const chart *c, const mark *m, double *x, double *half) {
  double from = m->ts, to = m->ts + m->dur;
  if (to < c->t0 || (to == c->t0 && m->dur > 0))
    return -1;
  if (from < c->t0)
    from = c->t0;
  *half = (to - from) / 2e3, *x = (from - c->t0) / 1e3 + *half;
  return 0;
}

/* The picture's own settings: terminal, title, axis label, rows. */
static void write_head(FILE *f, const plot_opts *o, const chart *c) {
  fprintf(f, "# Written by `narwhal plot`; redraw with: gnuplot %s\n", o->gp);
  fprintf(f, "# The picture's own data and names; the script loaded at the end draws them.\n");
  fprintf(f, "set terminal pngcairo size %d,%d noenhanced font \",9\"\nset output ", o->w, o->h);
  gnuplot_string(f, o->png);
  const char *slash = strrchr(o->path, '/');
  char title[1400];
  double placement_ms = (c->t0 - c->start) / 1e3; /* 0 with --whole */
  if (placement_ms > 0)
    snprintf(title, sizeof title,
             "%s (input placement before t = 0: %.1f ms, not drawn; "
             "--whole draws it)",
             slash ? slash + 1 : o->path, placement_ms);
  else
    snprintf(title, sizeof title, "%s", slash ? slash + 1 : o->path);
  fprintf(f, "\nset title ");
  gnuplot_string(f, title);
  fprintf(f, "\nset xlabel \"%s\"\n",
          o->whole ? "time since the trace's first event (ms)"
                   : "time since the first task started (ms)");
  fprintf(f, "nlanes = %zu\n", c->rows.n);
  for (size_t i = 0; i < c->rows.n; i++) {
    char label[200];
    plot_row_name(&c->rows.row[i], label, sizeof label);
    fprintf(f, "set ytics %s(", i ? "add " : "");
    gnuplot_string(f, label);
    fprintf(f, " %zu)\n", i);
  }
  size_t nodes = 0; /* each node's first row, where gantt.gp draws a line between nodes */
  for (size_t i = 0; i < c->rows.n; i++)
    nodes += i == 0 || c->rows.row[i].pid != c->rows.row[i - 1].pid;
  fprintf(f, "nnodes = %zu\narray node_first[%zu] = [", nodes, nodes ? nodes : 1);
  for (size_t i = 0, k = 0; i < c->rows.n; i++)
    if (i == 0 || c->rows.row[i].pid != c->rows.row[i - 1].pid)
      fprintf(f, "%s%zu", k++ ? ", " : "", i);
  fprintf(f, "%s]\n", nodes ? "" : "0");
}

/* A data block per class drawn ($s1.. spans, $i1.. instants, in legend order): the middle
 * (ms), row, half the length (ms), shape (trace_lanes.h); *n each kind's count. */
static void write_blocks(FILE *f, const chart *c, int *used, int *nspans, int *ninstants) {
  *nspans = *ninstants = 0;
  for (int k = 0; k < PLOT_CLASSES; k++) {
    int *count = plot_class_is_instant(k) ? ninstants : nspans;
    used[k] = 0;
    for (size_t i = 0; i < c->nm; i++) {
      double x, half;
      if (c->m[i].cls != k || mark_span(c, &c->m[i], &x, &half) != 0)
        continue;
      if (!used[k]++)
        fprintf(f, "$%c%d << EOD\n", plot_class_is_instant(k) ? 'i' : 's', ++*count);
      fprintf(f, "%.6f %ld %.6f %d\n", x, c->m[i].row, half, c->m[i].shape);
    }
    if (used[k])
      fprintf(f, "EOD\n");
  }
}

/* The legend: each kind's titles and colours as arrays (gnuplot's need a size of 1 or more). */
static void write_legend(FILE *f, const chart *c, const int *used, int nspans, int ninstants) {
  fprintf(f, "nspans = %d\narray span_title[%d]\narray span_colour[%d]\n", nspans,
          nspans ? nspans : 1, nspans ? nspans : 1);
  fprintf(f, "ninstants = %d\narray instant_title[%d]\narray instant_colour[%d]\n", ninstants,
          ninstants ? ninstants : 1, ninstants ? ninstants : 1);
  for (int k = 0, s = 0, i = 0; k < PLOT_CLASSES; k++) {
    if (!used[k])
      continue;
    const char *kind = plot_class_is_instant(k) ? "instant" : "span";
    int at = plot_class_is_instant(k) ? ++i : ++s;
    fprintf(f, "%s_title[%d] = ", kind, at);
    gnuplot_string(f, plot_class_title(&c->kernels, k));
    fprintf(f, "\n%s_colour[%d] = \"%s\"\n", kind, at, plot_class_colour(k));
  }
}

/* Writes FILE.gp, ending in a load of the figure's script; *drawn: the marks in it. 0, or -1
 * with errno. */
static int write_script(const plot_opts *o, const chart *c, const char *style, size_t *drawn) {
  FILE *f = fopen(o->gp, "w");
  if (!f)
    return -1;
  int used[PLOT_CLASSES], nspans, ninstants;
  write_head(f, o, c);
  /* with --whole, where the first task started (gantt.gp marks it where it is not 0) */
  fprintf(f, "first_task_ms = %.6f\n", (c->first_work - c->t0) / 1e3);
  write_blocks(f, c, used, &nspans, &ninstants);
  write_legend(f, c, used, nspans, ninstants);
  fprintf(f, "load ");
  gnuplot_string(f, style);
  fprintf(f, "\n");
  *drawn = 0;
  for (int k = 0; k < PLOT_CLASSES; k++)
    *drawn += (size_t)used[k];
  return fclose(f);
}

/* Runs gnuplot on FILE.gp; 0 when it drew a PNG there. */
static int draw(const plot_opts *o) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", o->gp);
  remove(o->png); /* what is there afterwards is gnuplot's */
  FILE *drawn = system(cmd) == 0 ? fopen(o->png, "rb") : NULL;
  int ok = drawn && fgetc(drawn) != EOF;
  if (drawn)
    fclose(drawn);
  return ok ? 0 : -1;
}

/* The chart of the trace's events, after plot_rows_build and plot_kernels_rank; 0, 1 out of
 * memory, 2 nothing to draw (each after one line). */
static int read_chart(const plot_opts *o, const cJSON *events, chart *c) {
  c->m = malloc(((size_t)cJSON_GetArraySize(events) + 1) * sizeof *c->m);
  if (!c->m || plot_kernels_rank(events, &c->kernels) != 0 ||
      plot_rows_build(events, o->all, &c->rows) != 0) {
    tool_say("plot %s: out of memory", o->path);
    return 1;
  }
  collect_marks(events, c, o->whole);
  if (c->nm == 0) {
    tool_say("plot %s: no spans or instants to draw", o->path);
    return 2;
  }
  return 0;
}

int trace_plot_main(int argc, char **argv) {
  plot_opts o = {.w = 1200};
  int code = parse_args(argc, argv, &o);
  if (code)
    return code == 1 ? 0 : code;
  if (name_files(&o) != 0)
    return 2;
  const cJSON *events;
  cJSON *root = trace_read("plot", o.path, &events);
  if (!root)
    return 2;
  chart c = {0};
  char style[PATH_MAX];
  size_t drawn = 0;
  code = read_chart(&o, events, &c);
  if (code)
    goto done;
  if (!o.h) /* a row of about 16 pixels per lane */
    o.h = (int)(c.rows.n > 240 ? 4000 : 160 + 16 * c.rows.n);
  code = 1;
  if (!gnuplot_installed())
    tool_say("plot: gnuplot is not installed (nothing drawn)");
  else if (tool_plot_script("gantt.gp", style, sizeof style) != 0)
    tool_say("plot: the Gantt chart's script gantt.gp is in none of $NARWHAL_PLOTS, the source "
             "tree's plots/ and the installed share/narwhal/plots (nothing drawn)");
  else if (write_script(&o, &c, style, &drawn) != 0)
    tool_say("plot: %s: %s", o.gp, strerror(errno));
  else if (draw(&o) != 0)
    tool_say("plot: gnuplot failed to draw %s (the script is %s)", o.png, o.gp);
  else {
    printf("plotted %s (%zu lanes, %zu spans and instants)\n", o.png, c.rows.n, drawn);
    code = 0;
  }
done:
  free(c.m);
  plot_rows_free(&c.rows);
  cJSON_Delete(root);
  return code;
}
